# The generated sources that embed text files, made the same way by the main build and by
# tests/fuzz (a project of its own, which includes this file too).

# xgpu_embed_kernels(<output>): <output>, a C++ file embedding kernels/*.cl for
# xgpu::kernels::source(), remade by embed_kernels.cmake when a kernel changes.
function(xgpu_embed_kernels output)
  get_filename_component(root ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/.. ABSOLUTE)
  file(GLOB kernel_files CONFIGURE_DEPENDS ${root}/kernels/*.cl)
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} -DKERNEL_DIR=${root}/kernels
            -P ${root}/cmake/embed_kernels.cmake
    DEPENDS ${kernel_files} ${root}/cmake/embed_kernels.cmake
    COMMENT "Embedding kernels/*.cl"
    VERBATIM)
endfunction()

# xgpu_embed_prelude(<output>): <output>, a C++ file defining xgpu_cuda::prelude_text()
# (prelude_text.hpp): the CUDA module's OpenCL C prelude, backends/cuda/translate/prelude_*.cuh.
function(xgpu_embed_prelude output)
  get_filename_component(root ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/.. ABSOLUTE)
  set(translate ${root}/backends/cuda/translate)
  set(inputs ${translate}/prelude_types.cuh ${translate}/prelude_builtins.cuh
             ${translate}/prelude_math.cuh ${translate}/prelude_half.cuh)
  # "|" separates the inputs: a ";" would split the custom command's argument.
  string(REPLACE ";" "|" input_list "${inputs}")
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} -DFUNCTION=xgpu_cuda::prelude_text
            -DHEADER=prelude_text.hpp "-DINPUTS=${input_list}" -P ${root}/cmake/embed_text.cmake
    DEPENDS ${inputs} ${root}/cmake/embed_text.cmake
    COMMENT "Embedding the CUDA module's OpenCL C prelude"
    VERBATIM)
endfunction()
