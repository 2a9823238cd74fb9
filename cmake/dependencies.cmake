# Header-only dependencies as INTERFACE targets. Natively they live in /usr/include; a cross build
# cannot put /usr/include on its path (it would shadow the target's C library headers), so it gets a
# directory of symlinks to just these libraries' header trees. The runtime needs xsimd alone; Eigen, Boost,
# LBFGS++ and doctest (and Threads) are the offline half's and the tests'.

set(KFM_HOST_INCLUDE /usr/include CACHE PATH "Where the header-only dependencies are installed")
set(_kfm_dep_dir ${CMAKE_BINARY_DIR}/host-headers)

function(kfm_header_dependency target probe)
  # ARGN: header trees below KFM_HOST_INCLUDE to expose, e.g. xsimd, or eigen3/Eigen
  if(NOT EXISTS ${KFM_HOST_INCLUDE}/${probe})
    message(FATAL_ERROR "kfm: ${KFM_HOST_INCLUDE}/${probe} not found: run scripts/ci/install-deps.sh")
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

# kfm_bench's compiled peers for a cross build: Google Benchmark and FFTW3f of the target architecture
# from Debian multiarch (libbenchmark-dev:arm64 / :armhf, libfftw3-dev:arm64 / :armhf; headers in
# /usr/include, libraries in /usr/lib/<multiarch>), both outside the toolchain's root. Their headers get
# the symlink directory above. FFTW is linked statically; Debian ships Google Benchmark as a shared
# library only, which qemu's loader finds in /usr/lib/<multiarch> (a board needs it installed).
# Defines kfm_dep_bench and sets KFM_CROSS_BENCH_FOUND.
function(kfm_cross_bench_dependencies)
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-multiarch OUTPUT_VARIABLE multiarch
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(libdir /usr/lib/${multiarch})
  find_library(KFM_CROSS_BENCHMARK_LIB benchmark PATHS ${libdir} NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
  find_library(KFM_CROSS_FFTW3F_LIB libfftw3f.a PATHS ${libdir} NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
  if(NOT KFM_CROSS_BENCHMARK_LIB OR NOT KFM_CROSS_FFTW3F_LIB)
    # scripts/ci/install-deps.sh installs these best-effort (a mirror may lack them): build without the bench.
    message(WARNING "kfm: kfm_bench for ${multiarch} left out: it needs libbenchmark and libfftw3f.a in "
                    "${libdir} (libbenchmark-dev:<arch>, libfftw3-dev:<arch>; scripts/ci/install-deps.sh)")
    set(KFM_CROSS_BENCH_FOUND OFF PARENT_SCOPE)
    return()
  endif()
  set(KFM_CROSS_BENCH_FOUND ON PARENT_SCOPE)
  kfm_header_dependency(kfm_dep_bench_headers benchmark/benchmark.h benchmark fftw3.h)
  add_library(kfm_dep_bench INTERFACE)
  target_link_libraries(kfm_dep_bench INTERFACE kfm_dep_bench_headers ${KFM_CROSS_BENCHMARK_LIB}
                        ${KFM_CROSS_FFTW3F_LIB} Threads::Threads)
endfunction()

# kfm_bench's optional peers (bench/peers): each is looked for in the target architecture's Debian
# multiarch directories (/usr/include/<multiarch>, /usr/lib/<multiarch>; scripts/ci/install-deps.sh
# installs them), and a missing one is left out with a message naming its package. Sets
# KFM_BENCH_PEERS_MISSING (names) and, for each peer found, an INTERFACE target:
#   kfm_dep_sleef  SLEEF's vector sincosf (libsleef-dev, shared library only in Debian)
#   kfm_dep_ne10   Ne10's NEON FFT (libne10-dev:arm64; AArch64 only: Debian's ARMv7 package cannot be
#                  installed beside it)
function(kfm_bench_peer_dependencies)
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-multiarch OUTPUT_VARIABLE multiarch
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(libdir /usr/lib/${multiarch})
  set(missing "")
  find_library(KFM_PEER_SLEEF_LIB sleef PATHS ${libdir} NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
  if(KFM_PEER_SLEEF_LIB AND EXISTS ${KFM_HOST_INCLUDE}/${multiarch}/sleef.h)
    kfm_header_dependency(kfm_dep_sleef_headers ${multiarch}/sleef.h ${multiarch}/sleef.h)
    add_library(kfm_dep_sleef INTERFACE)
    target_link_libraries(kfm_dep_sleef INTERFACE kfm_dep_sleef_headers ${KFM_PEER_SLEEF_LIB})
  else()
    list(APPEND missing "SLEEF (libsleef-dev)")
  endif()
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
    find_library(KFM_PEER_NE10_LIB libNE10.a PATHS ${libdir} NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
    if(KFM_PEER_NE10_LIB AND EXISTS ${KFM_HOST_INCLUDE}/ne10/NE10.h)
      kfm_header_dependency(kfm_dep_ne10_headers ne10/NE10.h ne10)
      add_library(kfm_dep_ne10 INTERFACE)
      target_link_libraries(kfm_dep_ne10 INTERFACE kfm_dep_ne10_headers ${KFM_PEER_NE10_LIB})
    else()
      list(APPEND missing "Ne10 (libne10-dev:arm64)")
    endif()
  endif()
  if(missing)
    list(JOIN missing ", " names)
    message(STATUS "kfm: kfm_bench built without the peers ${names}: scripts/ci/install-deps.sh installs them")
  endif()
  set(KFM_BENCH_PEERS_MISSING "${missing}" PARENT_SCOPE)
endfunction()
