# runtime/install.cmake — installs libdt (shared and static), its public headers (dt.h,
# backend.h, rules.def, messages.def, fingerprint.h, bytes.h), a relocatable pkg-config file
# dt.pc and a CMake package (find_package(dt) -> dt::dt, dt::dt_static), all in the install
# component "dt"; installed as root into the system (no DESTDIR), it refreshes the dynamic
# linker's cache, so a program linked with -ldt starts at once.
include(CMakePackageConfigHelpers)

set(DT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/dt)
set(DT_PKGCONFIG_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(TARGETS dt dt_static EXPORT dtTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dt
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dt
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT dt)
install(FILES
  ${CMAKE_CURRENT_SOURCE_DIR}/include/dt/dt.h
  ${CMAKE_CURRENT_SOURCE_DIR}/include/dt/backend.h
  ${CMAKE_CURRENT_SOURCE_DIR}/include/dt/rules.def
  ${CMAKE_CURRENT_SOURCE_DIR}/include/dt/fingerprint.h
  ${CMAKE_CURRENT_SOURCE_DIR}/include/dt/bytes.h
  ${CMAKE_CURRENT_SOURCE_DIR}/include/dt/messages.def
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dt COMPONENT dt)

install(EXPORT dtTargets NAMESPACE dt:: DESTINATION ${DT_CMAKE_DIR} COMPONENT dt)
configure_package_config_file(${CMAKE_CURRENT_SOURCE_DIR}/dtConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/dtConfig.cmake INSTALL_DESTINATION ${DT_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/dtConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/dtConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/dtConfigVersion.cmake
  DESTINATION ${DT_CMAKE_DIR} COMPONENT dt)

# dt.pc finds its prefix from its own location, so `cmake --install --prefix P` works anywhere.
file(RELATIVE_PATH DT_PC_TO_PREFIX "/p/${DT_PKGCONFIG_DIR}" "/p")
string(REGEX REPLACE "/$" "" DT_PC_TO_PREFIX "${DT_PC_TO_PREFIX}")
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/dt.pc.in ${CMAKE_CURRENT_BINARY_DIR}/dt.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/dt.pc DESTINATION ${DT_PKGCONFIG_DIR} COMPONENT dt)

# A program built against the installed libdt must start without the user running ldconfig.
install(CODE [[
  if(NOT "$ENV{DESTDIR}" AND EXISTS /sbin/ldconfig)
    execute_process(COMMAND id -u OUTPUT_VARIABLE tc_uid OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(tc_uid STREQUAL "0")
      execute_process(COMMAND /sbin/ldconfig)
    endif()
  endif()
]] COMPONENT dt)
