# No device here has cl_khr_fp16, so the native half path of kernels/elementwise.cl cannot
# run; this at least compiles it, with clang for SPIR (cl_khr_fp16 on), and reads the LLVM IR:
# built with -DXGPU_HALF_NATIVE, add, sub, mul and div must compute in half (fadd half ...)
# and axpy by half's fma; built without it (the float path, as on a device the host says
# lacks fp16), no half arithmetic at all.
#   cmake -DCLANG=clang -DKERNELS=<kernels/> -DWIDTH=<1|16> -P check_native_half.cmake
set(flags -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -target spir64
          -Xclang -cl-ext=+cl_khr_fp16 -S -emit-llvm -O1 -o - -I${KERNELS}
          -DXGPU_T=half -DXGPU_T_HALF -DXGPU_EW_W=${WIDTH})
foreach(mode native float)
  set(extra "")
  if(mode STREQUAL "native")
    set(extra -DXGPU_HALF_NATIVE)
  endif()
  execute_process(COMMAND ${CLANG} ${flags} ${extra} ${KERNELS}/elementwise.cl
                  OUTPUT_VARIABLE ir ERROR_VARIABLE log RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "clang failed on elementwise.cl (${mode} half, width ${WIDTH}):\n${log}")
  endif()
  # The IR of each kernel: from its "define" to the next.
  foreach(check "xgpu_ew_add;fadd half" "xgpu_ew_sub;fsub half" "xgpu_ew_mul;fmul half"
                "xgpu_ew_div;fdiv half" "xgpu_ew_scale;fmul half" "xgpu_ew_axpy;fmaDhDhDh")
    list(GET check 0 kernel)
    list(GET check 1 instruction)
    string(FIND "${ir}" "@${kernel}(" start)
    if(start EQUAL -1)
      message(FATAL_ERROR "${kernel} not found in the IR (${mode} half, width ${WIDTH})")
    endif()
    string(SUBSTRING "${ir}" ${start} -1 body)
    string(FIND "${body}" "\ndefine " end)
    string(SUBSTRING "${body}" 0 ${end} body)
    string(FIND "${body}" "${instruction}" at)
    if(mode STREQUAL "native" AND at EQUAL -1)
      message(FATAL_ERROR "${kernel} does not compute in half with -DXGPU_HALF_NATIVE "
                          "(no '${instruction}'):\n${body}")
    elseif(mode STREQUAL "float" AND NOT at EQUAL -1)
      message(FATAL_ERROR "${kernel} computes in half without -DXGPU_HALF_NATIVE:\n${body}")
    endif()
  endforeach()
endforeach()
message(STATUS "native half: add, sub, mul, div, scale and axpy compute in half (width ${WIDTH})")
