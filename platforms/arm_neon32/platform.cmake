kfm_platform(neon32 arm_neon32 -mfpu=neon -mfloat-abi=hard)
