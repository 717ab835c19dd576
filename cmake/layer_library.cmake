# xgpu_layer_library(<name> <sources>...): a shared library built on the public API, as
# libxgpu-algorithms, libxgpu-multi and libxgpu-mpi are. Target xgpu-<name>, alias xgpu::<name>,
# exported as <name>; its public headers in include/ (installed), its own in src/ (runtime/src
# is not on its include path); only what its headers export is visible; versioned as the project.
function(xgpu_layer_library name)
  add_library(xgpu-${name} SHARED ${ARGN})
  add_library(xgpu::${name} ALIAS xgpu-${name})
  target_include_directories(xgpu-${name}
    PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
           $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
    PRIVATE src)
  set_target_properties(xgpu-${name} PROPERTIES
    EXPORT_NAME ${name}
    VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
endfunction()
