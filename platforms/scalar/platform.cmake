kfm_platform(scalar scalar)
