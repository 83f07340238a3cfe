# packaging.cmake: the man pages, and the Debian packages CPack builds from
# the install components (`cpack -G DEB` in the build tree):
#   dtrace      component runtime: the dtrace binary, its plugins, dtrace(1)
#   dtrace-dev  component dev: the SDK (header, CMake package, pkg-config
#               file), dtrace-provider(3), the example providers
# The packages install under /usr; dtrace finds its plugins relative to itself.
install(FILES ${PROJECT_SOURCE_DIR}/docs/dtrace.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT runtime)
install(FILES ${PROJECT_SOURCE_DIR}/docs/dtrace-provider.3 DESTINATION ${CMAKE_INSTALL_MANDIR}/man3 COMPONENT dev)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME dtrace)
set(CPACK_PACKAGE_VENDOR "the dtrace project")
set(CPACK_PACKAGE_CONTACT "dtrace maintainers <dtrace@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "dynamic tracing with the D language, providers as plugins")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_COMPONENTS_ALL runtime dev)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME dtrace)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON) # the libraries of dtrace and its plugins, by dpkg-shlibdeps
set(CPACK_DEBIAN_DEV_PACKAGE_NAME dtrace-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_ARCHITECTURE all)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "dtrace (= ${PROJECT_VERSION})")
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION "dynamic tracing with the D language: the dtrace command and its provider plugins")
set(CPACK_COMPONENT_DEV_DESCRIPTION "SDK for dtrace provider plugins: the C header, CMake package and examples")
include(CPack)
