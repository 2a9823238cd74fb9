kfm_platform(neon64 arm_neon64)
