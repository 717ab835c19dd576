# Runs `xgpu conform --quick` on PoCL (the environment carries the recorder, see
# CMakeLists.txt) so that DIR ends up holding every program the suite built. The suite's own
# verdict is not this test's business (cli and conform tests judge it); that programs were
# recorded is: an empty folder (the recorder not preloaded, or conform not running) fails.
#   cmake -DXGPU=path/to/xgpu -DDIR=folder -P capture_conform.cmake
file(REMOVE_RECURSE "${DIR}" "$ENV{XGPU_CACHE_DIR}")
file(MAKE_DIRECTORY "${DIR}")
execute_process(COMMAND "${XGPU}" conform --quick -d pocl --color=never
                RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
file(GLOB recorded "${DIR}/*.cl")
list(LENGTH recorded count)
message("xgpu conform --quick -d pocl: exit ${status}; ${count} programs recorded in ${DIR}")
if(status GREATER 1 OR count LESS 20)
  message(FATAL_ERROR "too few programs recorded (${count}); conform said:\n${output}")
endif()
