# Cross build for ARMv7-A Linux, hard-float ABI, with NEON enabled for the whole build (the neon32
# kernel table is chosen at compile time). Tests run under qemu through the emulator setting.
include_guard(GLOBAL)
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR armv7)
set(CMAKE_C_COMPILER arm-linux-gnueabihf-gcc)
set(CMAKE_CXX_COMPILER arm-linux-gnueabihf-g++)
# Added to every compile and link after the user's CMAKE_<LANG>_FLAGS (a CMAKE_<LANG>_FLAGS_INIT value
# would be dropped as soon as the user sets CMAKE_CXX_FLAGS, and xsimd would then lack NEON).
add_compile_options(-march=armv7-a -mfpu=neon -mfloat-abi=hard)
add_link_options(-march=armv7-a -mfpu=neon -mfloat-abi=hard)
# Libraries and headers come from the target's root only; CMake packages may also come from the host
# paths, so that an installed kfm is found through CMAKE_PREFIX_PATH (or kfm_DIR) as it is natively.
set(CMAKE_FIND_ROOT_PATH /usr/arm-linux-gnueabihf)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
# The cross toolchain's C library first: with Debian multiarch packages installed (kfm_bench's
# libraries), the target loader would otherwise also find the multiarch libc in /lib/<triplet>, a different
# build than the cross ld.so, and threaded programs crash in pthread_create under qemu.
set(CMAKE_CROSSCOMPILING_EMULATOR "qemu-arm;-L;/usr/arm-linux-gnueabihf;-E;LD_LIBRARY_PATH=/usr/arm-linux-gnueabihf/lib")
