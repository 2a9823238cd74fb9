kfm_platform(avx512 x86_avx512 -mavx512f -mavx512dq -mavx512bw -mavx512vl -mfma)
