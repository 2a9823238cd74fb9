# Cross build for AArch64 Linux (NEON is part of the baseline). Tests run under qemu through the
# emulator setting, so `ctest` works unchanged: ctest -L kernels.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# Libraries and headers come from the target's root only; CMake packages may also come from the host
# paths, so that an installed kfm is found through CMAKE_PREFIX_PATH (or kfm_DIR) as it is natively.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
# The cross toolchain's C library first: with Debian multiarch packages installed (kfm_bench's
# libraries), the target loader would otherwise also find the multiarch libc in /lib/<triplet>, a different
# build than the cross ld.so, and threaded programs crash in pthread_create under qemu.
set(CMAKE_CROSSCOMPILING_EMULATOR "qemu-aarch64;-L;/usr/aarch64-linux-gnu;-E;LD_LIBRARY_PATH=/usr/aarch64-linux-gnu/lib")
