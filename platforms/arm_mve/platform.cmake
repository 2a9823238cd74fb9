# M-profile cores with MVE-F (Helium with floating point: Cortex-M55, M85), as the compiler reports it for
# this build's flags (cmake/kfm_platform.cmake). No extra flags: the core's -mcpu enables MVE for the whole
# build, so there is no run-time choice to make (the scalar table stays beside it, KFM_SCALAR_TABLE).
if(KFM_TARGET_MVE_FLOAT)
  kfm_platform(mve)
endif()
