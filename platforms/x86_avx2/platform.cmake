kfm_platform(avx2 x86_avx2 -mavx2 -mfma)
