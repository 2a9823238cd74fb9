# The portable reference table. An ARM build picks NEON at compile time, so there the scalar table is
# dead weight unless asked for (KFM_SCALAR_TABLE, on by default: the kernel tests compare NEON with it).
if(NOT KFM_SCALAR_TABLE AND CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|arm.*)$")
  if(KFM_BUILD_TESTS)
    message(FATAL_ERROR "KFM_SCALAR_TABLE=OFF: the kernel tests need the scalar table (use -DKFM_RUNTIME_ONLY=ON)")
  endif()
  return()
endif()
kfm_platform(scalar)
