# kfm_platform(<isa> [PROCESSOR <regex>] [FLAGS <flags...>]), called from platforms/<dir>/platform.cmake:
# when CMAKE_SYSTEM_PROCESSOR matches PROCESSOR (no PROCESSOR: every target), compiles platforms/<dir>/*.cpp
# with that ISA's flags into an object library linked into kfm_runtime, and records the ISA as built
# (kfm_runtime then gets KFM_HAVE_<ISA>=1, which enables its row of src/runtime/isa_registry.cpp) with its
# flags in KFM_ISA_FLAGS_<isa> (for code outside the runtime compiled for one ISA: bench/peers).
function(kfm_platform isa)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "PROCESSOR" "FLAGS")
  if(arg_PROCESSOR AND NOT CMAKE_SYSTEM_PROCESSOR MATCHES "${arg_PROCESSOR}")
    return()
  endif()
  # A function sees the calling list file's directory: the platform folder.
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp)
  if(NOT sources)
    return()
  endif()
  add_library(kfm_kernels_${isa} OBJECT ${sources})
  target_compile_features(kfm_kernels_${isa} PRIVATE cxx_std_17)
  target_include_directories(kfm_kernels_${isa} PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src)
  # -ffp-contract=off: only the kernels' explicit mul_add / neg_mul_add / mul_sub fuse (src/kernels/vec.hpp),
  # so a kernel's one-lane and vector instances round alike and a row's features do not depend on its batch.
  target_compile_options(kfm_kernels_${isa} PRIVATE -fno-exceptions -fno-rtti -ffp-contract=off ${KFM_WARNINGS}
                         ${arg_FLAGS})
  target_link_libraries(kfm_kernels_${isa} PRIVATE kfm_dep_xsimd)
  # Which table entries the kept projections need (src/runtime/kernel_selection.hpp).
  target_compile_definitions(kfm_kernels_${isa} PRIVATE ${KFM_PROJECTION_DEFINITIONS} ${KFM_NONLINEARITY_DEFINITIONS})
  set(KFM_KERNEL_OBJECT_LIBS ${KFM_KERNEL_OBJECT_LIBS} kfm_kernels_${isa} PARENT_SCOPE)
  set(KFM_BUILT_ISAS ${KFM_BUILT_ISAS} ${isa} PARENT_SCOPE)
  set(KFM_ISA_FLAGS_${isa} ${arg_FLAGS} PARENT_SCOPE)
endfunction()

# KFM_TARGET_M_PROFILE: whether the compiler, with this build's flags, targets an M-profile core (Cortex-M:
# __ARM_ARCH_PROFILE is 'M'). Asked of the compiler rather than read from CMAKE_SYSTEM_PROCESSOR, which is
# "arm" for Cortex-A and Cortex-M alike. M-profile has no NEON: the platforms build the scalar table only,
# and flags that enable NEON there are a configure error (the NEON kernels would fault on the first call).
# KFM_TARGET_MVE_FLOAT: an M-profile core with MVE-F (Helium with floating point, __ARM_FEATURE_MVE has bit 1:
# Cortex-M55, M85): platforms/arm_mve/ builds the mve table beside the scalar one.
function(kfm_detect_m_profile)
  set(profile OFF)
  set(mve_float OFF)
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "^arm")
    get_directory_property(options COMPILE_OPTIONS)
    separate_arguments(flags UNIX_COMMAND "${CMAKE_CXX_FLAGS}")
    execute_process(COMMAND ${CMAKE_CXX_COMPILER} ${flags} ${options} -dM -E -x c++ /dev/null
                    OUTPUT_VARIABLE macros ERROR_VARIABLE error RESULT_VARIABLE result)
    if(NOT result EQUAL 0)
      message(FATAL_ERROR "kfm: cannot read ${CMAKE_CXX_COMPILER}'s predefined macros: ${error}")
    endif()
    if(macros MATCHES "#define __ARM_ARCH_PROFILE 77\n")
      set(profile ON)
      if(macros MATCHES "#define __ARM_FEATURE_MVE 3\n")
        set(mve_float ON)
      endif()
      if(macros MATCHES "#define __ARM_NEON 1\n")
        message(FATAL_ERROR "kfm: the flags enable NEON on an M-profile (Cortex-M) target, which has none: "
                            "drop -mfpu=neon (toolchains/cortex-m.cmake sets the core's FPU)")
      endif()
    endif()
  endif()
  set(KFM_TARGET_M_PROFILE ${profile} PARENT_SCOPE)
  set(KFM_TARGET_MVE_FLOAT ${mve_float} PARENT_SCOPE)
endfunction()
kfm_detect_m_profile()
