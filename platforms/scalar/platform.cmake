kfm_platform(scalar)
