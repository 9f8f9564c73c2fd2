# Install rules and the CMake package config: find_package(slidecheck CONFIG) gives
# slidecheck::reference, slidecheck::formats, slidecheck::fast, slidecheck::verify, slidecheck::corpora
# and slidecheck::cli (run_cli: the command with one's own algorithms registered).
include(CMakePackageConfigHelpers)
set(SLIDECHECK_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/slidecheck)

install(DIRECTORY reference/include/ formats/include/ fast/include/ verify/include/ corpora/include/ cli/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS slidecheck_reference slidecheck_formats slidecheck_fast slidecheck_verify slidecheck_rate slidecheck_corpora
                slidecheck_cli slidecheck_viewer_assets EXPORT slidecheckTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS slidecheck RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT slidecheckTargets NAMESPACE slidecheck:: DESTINATION ${SLIDECHECK_CMAKE_DIR})

configure_package_config_file(cmake/slidecheckConfig.cmake.in
  ${PROJECT_BINARY_DIR}/slidecheckConfig.cmake INSTALL_DESTINATION ${SLIDECHECK_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/slidecheckConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/slidecheckConfig.cmake ${PROJECT_BINARY_DIR}/slidecheckConfigVersion.cmake
              cmake/SlidecheckDependencies.cmake cmake/FloatingPointPolicy.cmake
        DESTINATION ${SLIDECHECK_CMAKE_DIR})
