# 32-bit ARM only ("arm", "armv7", "armv7l", ...; not "arm64", which is AArch64).
kfm_platform(neon32 PROCESSOR "^arm(v[0-9].*)?$" FLAGS -mfpu=neon -mfloat-abi=hard)
