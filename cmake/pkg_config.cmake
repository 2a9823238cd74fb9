# Installs kfm.pc for Makefile, Meson and Yocto users: `pkg-config --cflags --libs kfm` is everything a C
# or C++ program needs to link the runtime. The library is static only, so its system libraries (libm)
# are in Libs, not Libs.private: a plain `pkg-config --libs` (without --static) must be enough.
# With relative install directories (the default) the paths are relative to the .pc file (${pcfiledir}),
# so `cmake --install build --prefix P` into any P gives a working file.
set(_kfm_pc_dir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(KFM_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(KFM_PC_LIBDIR "${CMAKE_INSTALL_FULL_LIBDIR}")
  set(KFM_PC_INCLUDEDIR "${CMAKE_INSTALL_FULL_INCLUDEDIR}")
else()
  file(RELATIVE_PATH _kfm_up /p/${_kfm_pc_dir} /p)
  string(REGEX REPLACE "/$" "" _kfm_up "${_kfm_up}")
  set(KFM_PC_PREFIX "\${pcfiledir}/${_kfm_up}")
  set(KFM_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
  set(KFM_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
list(TRANSFORM KFM_RUNTIME_SYSTEM_LIBS PREPEND -l OUTPUT_VARIABLE _kfm_pc_libs)
string(JOIN " " KFM_PC_SYSTEM_LIBS ${_kfm_pc_libs})
configure_file(${CMAKE_CURRENT_LIST_DIR}/kfm.pc.in ${CMAKE_CURRENT_BINARY_DIR}/kfm.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/kfm.pc DESTINATION ${_kfm_pc_dir})
