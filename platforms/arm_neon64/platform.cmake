kfm_platform(neon64 PROCESSOR "^(aarch64|arm64)$")
