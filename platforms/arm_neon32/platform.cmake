# 32-bit ARM only ("arm", "armv7", "armv7l", ...; not "arm64", which is AArch64), and not M-profile
# (Cortex-M has no NEON: the scalar table, platforms/scalar/platform.cmake).
if(NOT KFM_TARGET_M_PROFILE)
  kfm_platform(neon32 PROCESSOR "^arm(v[0-9].*)?$" FLAGS -mfpu=neon -mfloat-abi=hard)
endif()
