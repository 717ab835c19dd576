# Install rules for the library, its headers and the package files that let other projects
# find it: find_package(xgpu) gives xgpu::xgpu (libxgpu, libxgpu-algorithms and libxgpu-multi;
# also xgpu::core, xgpu::algorithms and xgpu::multi alone), pkg-config gives `xgpu`. The backend
# modules and the `xgpu` command install themselves from their own CMakeLists.
include(CMakePackageConfigHelpers)

set(XGPU_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/xgpu)
set(XGPU_PKGCONFIG_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# install(DIRECTORY) looks at the folder at install time, so a header added since the last
# configure is never left out; version.hpp.in is not matched.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/xgpu/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/xgpu
        COMPONENT development
        FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h" PATTERN "*.def")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/algorithms/include/xgpu/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/xgpu
        COMPONENT development
        FILES_MATCHING PATTERN "*.hpp")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/multi/include/xgpu/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/xgpu
        COMPONENT development
        FILES_MATCHING PATTERN "*.hpp")
# The backend ABI, for authors of modules built outside this tree.
install(FILES ${PROJECT_SOURCE_DIR}/backends/abi/xgpu/backend.h
              ${PROJECT_SOURCE_DIR}/backends/abi/xgpu/backend_members.def
              ${PROJECT_SOURCE_DIR}/backends/abi/xgpu/backend_status.def
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/xgpu
        COMPONENT development)
install(FILES ${PROJECT_BINARY_DIR}/runtime/generated/xgpu/version.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/xgpu
        COMPONENT development)

install(TARGETS xgpu-core xgpu-algorithms xgpu-multi xgpu EXPORT xgpuTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime
                NAMELINK_COMPONENT development
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)

# spdlog and fmt are linked privately into the shared library, so the exported target
# carries no dependency on them and xgpuConfig.cmake needs no find_dependency().
install(EXPORT xgpuTargets
        NAMESPACE xgpu::
        FILE xgpuTargets.cmake
        DESTINATION ${XGPU_CMAKE_INSTALL_DIR}
        COMPONENT development)

configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/xgpuConfig.cmake.in
  ${PROJECT_BINARY_DIR}/package/xgpuConfig.cmake
  INSTALL_DESTINATION ${XGPU_CMAKE_INSTALL_DIR})
# A request for 0.1 accepts any 0.y with y >= 1, never 1.x.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/package/xgpuConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/package/xgpuConfig.cmake
              ${PROJECT_BINARY_DIR}/package/xgpuConfigVersion.cmake
        DESTINATION ${XGPU_CMAKE_INSTALL_DIR}
        COMPONENT development)

# The .pc file locates the prefix from its own folder (${pcfiledir}), so an install moved
# or made with `cmake --install --prefix DIR` stays correct.
file(RELATIVE_PATH XGPU_PC_TO_PREFIX
     /prefix/${XGPU_PKGCONFIG_INSTALL_DIR} /prefix)
string(REGEX REPLACE "/$" "" XGPU_PC_TO_PREFIX "${XGPU_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/xgpu.pc.in ${PROJECT_BINARY_DIR}/package/xgpu.pc
               @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/package/xgpu.pc
        DESTINATION ${XGPU_PKGCONFIG_INSTALL_DIR}
        COMPONENT development)
