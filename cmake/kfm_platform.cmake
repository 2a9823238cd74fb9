# kfm_platform(<isa> [PROCESSOR <regex>] [FLAGS <flags...>]), called from platforms/<dir>/platform.cmake:
# when CMAKE_SYSTEM_PROCESSOR matches PROCESSOR (no PROCESSOR: every target), compiles platforms/<dir>/*.cpp
# with that ISA's flags into an object library linked into kfm_runtime, and records the ISA as built
# (kfm_runtime then gets KFM_HAVE_<ISA>=1, which enables its row of src/runtime/isa_registry.cpp).
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
endfunction()
