# The installed-package test, run by CTest as `cmake -P`:
#   1. cmake --install BUILD_DIR --prefix WORK_DIR/prefix (a fresh prefix every run)
#   2. configure and build project/ with find_package(xgpu) against that prefix, run it
#   3. compile project/main.cpp with `pkg-config --cflags --libs xgpu`, run it
# Each run must load the backend module from the prefix, not from the build tree.
# Inputs: -DBUILD_DIR= -DSOURCE_DIR=(this folder) -DWORK_DIR= -DCXX=(compiler)
foreach(input BUILD_DIR SOURCE_DIR WORK_DIR CXX)
  if(NOT DEFINED ${input})
    message(FATAL_ERROR "run_consumer_test.cmake needs -D${input}=...")
  endif()
endforeach()

set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

# Runs a command; stops the test with its output when it fails.
function(step name)
  message(STATUS "consumer test: ${name}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${name} failed (${rc}):\n${out}\n${err}")
  endif()
  set(step_output "${out}${err}" PARENT_SCOPE)
endfunction()

# Runs the consumer and checks it used the installed module, not the build tree's.
function(run_consumer name binary)
  set(ENV{XGPU_LOG_LEVEL} debug)
  set(ENV{XGPU_CACHE_DIR} ${WORK_DIR}/cache)  # never the user's own kernel cache
  unset(ENV{XGPU_BACKEND_PATH})
  step("${name}" ${binary})
  message(STATUS "${step_output}")
  if(NOT step_output MATCHES "backend opencl: ${prefix}/[^,]*/libxgpu-backend-opencl.so, loaded")
    message(FATAL_ERROR "${name}: the opencl module was not loaded from ${prefix}")
  endif()
  if(step_output MATCHES "${BUILD_DIR}/lib/")
    message(FATAL_ERROR "${name}: something was loaded from the build tree ${BUILD_DIR}/lib")
  endif()
endfunction()

step("install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

step("configure the find_package project"
     ${CMAKE_COMMAND} -S ${SOURCE_DIR}/project -B ${WORK_DIR}/build
     -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Release)
step("build the find_package project" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run_consumer("run the find_package consumer" ${WORK_DIR}/build/consumer)

find_program(PKG_CONFIG pkg-config REQUIRED)
file(GLOB pc_file ${prefix}/*/pkgconfig/xgpu.pc ${prefix}/*/*/pkgconfig/xgpu.pc)
if(NOT pc_file)
  message(FATAL_ERROR "no xgpu.pc installed under ${prefix}")
endif()
get_filename_component(pc_dir "${pc_file}" DIRECTORY)
set(ENV{PKG_CONFIG_PATH} ${pc_dir})
step("pkg-config" ${PKG_CONFIG} --cflags --libs xgpu)
string(STRIP "${step_output}" flags)
separate_arguments(flags UNIX_COMMAND "${flags}")
step("pkg-config libdir" ${PKG_CONFIG} --variable=libdir xgpu)
string(STRIP "${step_output}" libdir)
get_filename_component(libdir "${libdir}" REALPATH)  # the .pc gives ${pcfiledir}/../../lib
step("compile with pkg-config flags"
     ${CXX} -std=c++17 ${SOURCE_DIR}/project/main.cpp ${flags} -Wl,-rpath,${libdir}
     -o ${WORK_DIR}/consumer_pkgconfig)
run_consumer("run the pkg-config consumer" ${WORK_DIR}/consumer_pkgconfig)
