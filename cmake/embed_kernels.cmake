# Turns kernels/*.cl into a C++ file of raw strings, run at build time:
#   cmake -DOUTPUT=file.cpp -DKERNEL_DIR=kernels -P embed_kernels.cmake
file(GLOB SOURCES "${KERNEL_DIR}/*.cl")
list(SORT SOURCES)
set(body "")
foreach(path IN LISTS SOURCES)
  get_filename_component(name "${path}" NAME)
  file(READ "${path}" text)
  string(FIND "${text}" ")xgpu_cl\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${name} contains the raw-string delimiter )xgpu_cl\"")
  endif()
  string(APPEND body "    {\"${name}\", R\"xgpu_cl(${text})xgpu_cl\"},\n")
endforeach()
file(WRITE "${OUTPUT}.tmp" "// Generated from kernels/*.cl by cmake/embed_kernels.cmake. Do not edit.
#include \"embedded_kernels.hpp\"

namespace xgpu::detail {
const std::vector<EmbeddedKernel>& embedded_kernels() {
  static const std::vector<EmbeddedKernel> files = {
${body}  };
  return files;
}
}  // namespace xgpu::detail
")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUTPUT}.tmp" "${OUTPUT}")
file(REMOVE "${OUTPUT}.tmp")
