# GCC 12 warns about its own AVX-512 intrinsic headers (uninitialised __Y in _mm512_undefined_*).
kfm_platform(avx512 PROCESSOR "^(x86_64|AMD64|amd64)$"
  FLAGS -mavx512f -mavx512dq -mavx512bw -mavx512vl -mfma -Wno-uninitialized -Wno-maybe-uninitialized)
