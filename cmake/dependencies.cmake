# Header-only dependencies as INTERFACE targets. Natively they live in /usr/include; a cross build
# cannot put /usr/include on its path (it would shadow the target's C library headers), so it gets a
# directory of symlinks to just these libraries' header trees. The runtime needs xsimd alone; Eigen, Boost,
# LBFGS++ and doctest (and Threads) are the offline half's and the tests'.

set(KFM_HOST_INCLUDE /usr/include CACHE PATH "Where the header-only dependencies are installed")
set(_kfm_dep_dir ${CMAKE_BINARY_DIR}/host-headers)

function(kfm_header_dependency target probe)
  # ARGN: header trees below KFM_HOST_INCLUDE to expose, e.g. xsimd, or eigen3/Eigen
  if(NOT EXISTS ${KFM_HOST_INCLUDE}/${probe})
    message(FATAL_ERROR "kfm: ${KFM_HOST_INCLUDE}/${probe} not found: run scripts/install-deps.sh")
  endif()
  add_library(${target} INTERFACE)
  if(CMAKE_CROSSCOMPILING)
    file(MAKE_DIRECTORY ${_kfm_dep_dir})
    foreach(tree IN LISTS ARGN)
      get_filename_component(leaf ${tree} NAME)
      file(CREATE_LINK ${KFM_HOST_INCLUDE}/${tree} ${_kfm_dep_dir}/${leaf} SYMBOLIC)
    endforeach()
    target_include_directories(${target} SYSTEM INTERFACE $<BUILD_INTERFACE:${_kfm_dep_dir}>)
  else()
    foreach(tree IN LISTS ARGN)
      get_filename_component(parent ${KFM_HOST_INCLUDE}/${tree} DIRECTORY)
      if(NOT parent STREQUAL KFM_HOST_INCLUDE)
        target_include_directories(${target} SYSTEM INTERFACE $<BUILD_INTERFACE:${parent}>)
      endif()
    endforeach()
  endif()
endfunction()

kfm_header_dependency(kfm_dep_xsimd xsimd/xsimd.hpp xsimd)
# Exported static libraries name their private link dependencies; these are header-only.
install(TARGETS kfm_dep_xsimd EXPORT kfmTargets)
if(NOT KFM_RUNTIME_ONLY)
  find_package(Threads REQUIRED)
  kfm_header_dependency(kfm_dep_eigen eigen3/Eigen/Core eigen3/Eigen eigen3/unsupported)
  kfm_header_dependency(kfm_dep_boost boost/math/special_functions/gamma.hpp boost)
  kfm_header_dependency(kfm_dep_lbfgspp LBFGS.h LBFGS.h LBFGSB.h LBFGSpp)
  kfm_header_dependency(kfm_dep_doctest doctest/doctest.h doctest)
  install(TARGETS kfm_dep_eigen kfm_dep_boost kfm_dep_lbfgspp EXPORT kfmTargets)
endif()
