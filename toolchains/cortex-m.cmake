# Bare-metal Cortex-M (arm-none-eabi-gcc + newlib): the runtime alone, as a static library, for an
# M-profile core with a hardware FPU. The core is a cache variable:
#   cmake -S . -B build/m4 -G Ninja --toolchain toolchains/cortex-m.cmake -DKFM_CORTEX_M_CPU=cortex-m4
# cortex-m4 (FPv4-SP, single precision), cortex-m7 (FPv5, double precision), cortex-m55 (MVE-F, Helium).
# M-profile has no NEON: cmake/kfm_platform.cmake builds the scalar kernel table only (and refuses NEON).
# examples/cortex-m/ links the result into firmware for QEMU's mps2/mps3 boards.
include_guard(GLOBAL)
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
# No OS to link a test executable against: the compiler checks build a static library.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(KFM_CORTEX_M_CPU cortex-m4 CACHE STRING "The Cortex-M core: cortex-m4, cortex-m7 or cortex-m55")
set_property(CACHE KFM_CORTEX_M_CPU PROPERTY STRINGS cortex-m4 cortex-m7 cortex-m55)
# Try-compile projects re-read this file: they need the core too.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES KFM_CORTEX_M_CPU)
if(KFM_CORTEX_M_CPU STREQUAL "cortex-m4")
  set(KFM_CORTEX_M_FLAGS -mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard)
elseif(KFM_CORTEX_M_CPU STREQUAL "cortex-m7")
  set(KFM_CORTEX_M_FLAGS -mcpu=cortex-m7 -mfpu=fpv5-d16 -mfloat-abi=hard)
elseif(KFM_CORTEX_M_CPU STREQUAL "cortex-m55")
  set(KFM_CORTEX_M_FLAGS -mcpu=cortex-m55 -mfloat-abi=hard)  # the FPU and MVE-F come with the core
else()
  message(FATAL_ERROR "KFM_CORTEX_M_CPU=${KFM_CORTEX_M_CPU}: expected cortex-m4, cortex-m7 or cortex-m55")
endif()
# Thumb-2 only; added after the user's CMAKE_<LANG>_FLAGS to every compile and link (see arm-linux-gnueabihf.cmake).
add_compile_options(-mthumb ${KFM_CORTEX_M_FLAGS} -ffunction-sections -fdata-sections)
add_link_options(-mthumb ${KFM_CORTEX_M_FLAGS})

# Runtime only, static, no host dependencies: firmware links libkfm_runtime.a itself.
set(KFM_RUNTIME_ONLY ON CACHE BOOL "Build and install only kfm_runtime" FORCE)
set(BUILD_SHARED_LIBS OFF)
set(CMAKE_FIND_ROOT_PATH /usr/lib/arm-none-eabi)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)  # an installed kfm on the host paths, as the other toolchain files
