# `cmake --install build --prefix P` installs:
#   P/include/tilefit/...            the headers (tilefit/tilefit.hpp is the API)
#   P/lib/libtilefit_*.a             the libraries
#   P/bin/tilefit                    the tool
#   P/lib/cmake/tilefit/             tilefitConfig.cmake, tilefitConfigVersion.cmake, the exported
#                                    targets (tilefit::tilefit, tilefit::device) and TilefitCheck.cmake
#   P/lib/pkgconfig/tilefit.pc       for pkg-config users
include(CMakePackageConfigHelpers)

set(TILEFIT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/tilefit)

set_target_properties(tilefit_model PROPERTIES EXPORT_NAME model)
set_target_properties(tilefit_io PROPERTIES EXPORT_NAME io)
set_target_properties(tilefit_messages PROPERTIES EXPORT_NAME messages)
set_target_properties(tilefit_api PROPERTIES EXPORT_NAME api)
set_target_properties(tilefit_device PROPERTIES EXPORT_NAME device)

install(TARGETS tilefit_model tilefit_io tilefit_messages tilefit_api tilefit_lib tilefit_device
        EXPORT tilefitTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS tilefit RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/tilefit DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
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

configure_file(cmake/tilefit.pc.in ${CMAKE_CURRENT_BINARY_DIR}/tilefit.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/tilefit.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
