kfm_platform(avx2 PROCESSOR "^(x86_64|AMD64|amd64)$" FLAGS -mavx2 -mfma)
