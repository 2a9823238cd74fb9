# KFM_PROJECTIONS: which projections the runtime contains (of KFM_ALL_PROJECTIONS, read from
# src/runtime/projection_list.def by cmake/kfm_projection_list.cmake), and KFM_NONLINEARITIES which
# nonlinearities its feature stage contains (KFM_NONLINEARITY_DEFINITIONS: KFM_LEAVE_OUT_NONLINEARITY_<KIND>=1
# for each left out, read by src/kernels/nonlinearity_selection.hpp; such maps fail open with
# status::unknown_nonlinearity). For the projections it sets KFM_LEFT_OUT_PROJECTION_FILES (the
# src/runtime/projection_<kind>.cpp files the runtime does not compile) and KFM_PROJECTION_DEFINITIONS
# (KFM_PROJECTION_<KIND>=1 for each kept one, =0 for each left out), which src/runtime/projection_registry.cpp
# and every ISA's kernel table (src/runtime/kernel_selection.hpp) read. A map whose projection is left out
# fails kfm::open with status::unknown_projection. A full build (tests, tool) needs every projection.
# kfm_check_selection(VAR WHAT KNOWN...): VAR (a list option) is non-empty and names only KNOWN items.
function(kfm_check_selection var what)
  if(NOT ${var})
    message(FATAL_ERROR "${var} is empty; give at least one of: ${ARGN}")
  endif()
  foreach(item IN LISTS ${var})
    if(NOT item IN_LIST ARGN)
      message(FATAL_ERROR "${var}: unknown ${what} '${item}' (known: ${ARGN})")
    endif()
  endforeach()
endfunction()
if(KFM_PROJECTIONS STREQUAL "all")
  set(KFM_PROJECTIONS ${KFM_ALL_PROJECTIONS})
endif()
if(KFM_NONLINEARITIES STREQUAL "all")
  set(KFM_NONLINEARITIES ${KFM_ALL_NONLINEARITIES})
endif()
kfm_check_selection(KFM_PROJECTIONS projection ${KFM_ALL_PROJECTIONS})
kfm_check_selection(KFM_NONLINEARITIES nonlinearity ${KFM_ALL_NONLINEARITIES})

set(KFM_PROJECTION_DEFINITIONS "")
set(KFM_LEFT_OUT_PROJECTION_FILES "")
set(_kfm_left_out "")
foreach(p IN LISTS KFM_ALL_PROJECTIONS)
  string(TOUPPER ${p} P)
  if(p IN_LIST KFM_PROJECTIONS)
    list(APPEND KFM_PROJECTION_DEFINITIONS KFM_PROJECTION_${P}=1)
  else()
    list(APPEND KFM_PROJECTION_DEFINITIONS KFM_PROJECTION_${P}=0)
    list(APPEND KFM_LEFT_OUT_PROJECTION_FILES ${_kfm_projection_file_${p}})
    list(APPEND _kfm_left_out ${p})
  endif()
endforeach()
set(KFM_NONLINEARITY_DEFINITIONS "")
foreach(k IN LISTS KFM_ALL_NONLINEARITIES)
  if(NOT k IN_LIST KFM_NONLINEARITIES)
    string(TOUPPER ${k} K)
    list(APPEND KFM_NONLINEARITY_DEFINITIONS KFM_LEAVE_OUT_NONLINEARITY_${K}=1)
    list(APPEND _kfm_left_out ${k})
  endif()
endforeach()
list(JOIN _kfm_left_out ", " _kfm_left_out)
if(_kfm_left_out AND (KFM_BUILD_TESTS OR KFM_BUILD_CLI OR KFM_BUILD_BENCH))
  message(FATAL_ERROR "KFM_PROJECTIONS / KFM_NONLINEARITIES leave out ${_kfm_left_out}: only a runtime-only build "
                      "(-DKFM_RUNTIME_ONLY=ON) may; the tests, the tool and the benchmarks need every projection "
                      "and nonlinearity")
endif()
message(STATUS "kfm: projections: ${KFM_PROJECTIONS}; nonlinearities: ${KFM_NONLINEARITIES}")
