# `cmake --install build --prefix P` installs:
#   P/include/tilefit/tilefit.hpp    the C++17 API, and tilefit.h, the C ABI: the only headers
#   P/lib/libtilefit_*.a             the static libraries behind tilefit::tilefit, tilefit::device
#   P/lib/libtilefit.so              the C ABI (tilefit::c)
#   P/bin/tilefit                    the tool
#   P/lib/cmake/tilefit/             tilefitConfig.cmake, tilefitConfigVersion.cmake, the exported
#                                    targets (tilefit::tilefit, tilefit::device, tilefit::c) and TilefitCheck.cmake
#   P/lib/pkgconfig/tilefit.pc, tilefit-device.pc, tilefit-c.pc   for pkg-config users
#   P/lib/python3/site-packages/tilefit/   the Python package, with a copy of libtilefit.so
include(CMakePackageConfigHelpers)

set(TILEFIT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/tilefit)

set_target_properties(tilefit_model PROPERTIES EXPORT_NAME model)
set_target_properties(tilefit_io PROPERTIES EXPORT_NAME io)
set_target_properties(tilefit_messages PROPERTIES EXPORT_NAME messages)
set_target_properties(tilefit_api PROPERTIES EXPORT_NAME api)
set_target_properties(tilefit_device PROPERTIES EXPORT_NAME device)

install(TARGETS tilefit_model tilefit_io tilefit_messages tilefit_api tilefit_lib tilefit_device tilefit_c
        EXPORT tilefitTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS tilefit RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# Only the two public headers: the implementation headers stay in the source tree.
install(FILES include/tilefit/tilefit.hpp include/tilefit/tilefit.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tilefit)
# The Python package and the library it loads, next to it (python/tilefit/_lib.py looks there first).
set(TILEFIT_PYTHON_DIR lib/python3/site-packages CACHE STRING "Where (under the prefix) the Python package goes")
install(DIRECTORY python/tilefit DESTINATION ${TILEFIT_PYTHON_DIR}
        PATTERN __pycache__ EXCLUDE PATTERN "*.so" EXCLUDE)
install(FILES $<TARGET_FILE:tilefit_c> DESTINATION ${TILEFIT_PYTHON_DIR}/tilefit RENAME libtilefit.so)
install(EXPORT tilefitTargets NAMESPACE tilefit:: FILE tilefitTargets.cmake DESTINATION ${TILEFIT_CMAKE_DIR})

configure_package_config_file(cmake/tilefitConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/tilefitConfig.cmake
                              INSTALL_DESTINATION ${TILEFIT_CMAKE_DIR}
                              PATH_VARS CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/tilefitConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/tilefitConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/tilefitConfigVersion.cmake
              cmake/TilefitCheck.cmake
        DESTINATION ${TILEFIT_CMAKE_DIR})

# tilefit-device.pc: the CUDA runtime's libraries when tilefit is built with it.
set(TILEFIT_DEVICE_PC_LIBS "")
if(TILEFIT_HAVE_CUDA)
  set(TILEFIT_DEVICE_PC_LIBS "-L${CUDAToolkit_LIBRARY_DIR} -lcudart_static -ldl -lrt -lpthread")
endif()
foreach(_pc tilefit tilefit-device tilefit-c)
  configure_file(cmake/${_pc}.pc.in ${CMAKE_CURRENT_BINARY_DIR}/${_pc}.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${_pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()
