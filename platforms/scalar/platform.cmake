# The portable reference table. An ARM build picks NEON at compile time, so there the scalar table is
# dead weight unless asked for (KFM_SCALAR_TABLE, on by default: the kernel tests compare NEON with it).
# On M-profile (Cortex-M) without MVE it is the only table: leaving it out would ask for a NEON table the core
# lacks. A core with MVE-F (Cortex-M55) runs the mve table and keeps the scalar one only when asked.
if(NOT KFM_SCALAR_TABLE AND KFM_TARGET_M_PROFILE AND NOT KFM_TARGET_MVE_FLOAT)
  message(FATAL_ERROR "KFM_SCALAR_TABLE=OFF on an M-profile (Cortex-M) target without MVE: it has no NEON, the "
                      "scalar table is its only kernel table")
endif()
if(NOT KFM_SCALAR_TABLE AND CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|arm.*)$")
  if(KFM_BUILD_TESTS)
    message(FATAL_ERROR "KFM_SCALAR_TABLE=OFF: the kernel tests need the scalar table (use -DKFM_RUNTIME_ONLY=ON)")
  endif()
  return()
endif()
kfm_platform(scalar)
