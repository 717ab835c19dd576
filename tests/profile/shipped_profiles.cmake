# The shipped profiles (profiles/*.json; docs/profiles.md), included from tests/CMakeLists.txt
# after xgpu_unit_test is defined. Always: their validation. With the profile module
# (backends/profile/), for each profile on PoCL: the conformance suite (quick) and the
# algorithms library's tests on the profile's device alone.
find_package(Python3 COMPONENTS Interpreter REQUIRED)

add_test(NAME profile.shipped_files
         COMMAND Python3::Interpreter ${CMAKE_CURRENT_LIST_DIR}/check_shipped_profiles.py
                 ${PROJECT_SOURCE_DIR}/profiles --xgpu $<TARGET_FILE:xgpu-cli>)
set_tests_properties(profile.shipped_files PROPERTIES
  LABELS profile
  TIMEOUT 60
  ENVIRONMENT_MODIFICATION "XGPU_PROFILE_DIR=unset:;XGPU_PROFILE=unset:")

# The command's side, with or without the module: the listing, and --profile's usage errors.
# A file that is not a profile is refused either way: by the module (not JSON), or for want
# of one; both say "cannot simulate" and exit 4, never running on the real devices.
set(profile_not_json ${CMAKE_CURRENT_BINARY_DIR}/profile/not-a-profile.json)
file(WRITE ${profile_not_json} "this is not JSON\n")
set(profile_xgpu $<TARGET_FILE:xgpu-cli>)
function(xgpu_profile_cli_test name)
  add_test(NAME cli.${name}
           COMMAND ${XGPU_BASH} ${PROJECT_SOURCE_DIR}/tests/cli/check.sh
                   --env OCL_ICD_VENDORS=${XGPU_TEST_ICD_DIR} ${ARGN})
  set_tests_properties(cli.${name} PROPERTIES LABELS "cli;profile" TIMEOUT 120)
endfunction()
xgpu_profile_cli_test(query_profiles --stdout "^PROFILE +DEVICE +VENDOR +FILE"
  --stdout "^nvidia-h100 +NVIDIA H100" --stdout "^  amd-rx-7900xtx: .*github\\.com/"
  --no-stderr "." -- ${profile_xgpu} query --profiles)
xgpu_profile_cli_test(query_profiles_and_device --exit 2 --stderr "excludes"
  -- ${profile_xgpu} query --profiles -d 0)
xgpu_profile_cli_test(conform_unknown_profile --exit 2
  --stderr "unknown profile 'nvidai-h100' .*shipped: .*nvidia-h100"
  -- ${profile_xgpu} conform --profile nvidai-h100 --quick)
xgpu_profile_cli_test(conform_profile_no_file --exit 2
  --stderr "no profile file /nonexistent/gpu\\.json"
  -- ${profile_xgpu} conform --profile /nonexistent/gpu.json)
xgpu_profile_cli_test(conform_profile_refused --exit 4
  --stderr "cannot simulate .*not-a-profile\\.json" --no-stdout "passed"
  -- ${profile_xgpu} conform --profile ${profile_not_json} --quick)

if(TARGET xgpu-backend-profile)
  # PoCL alone backs the profiles: Oclgrind would be a second, slow device to no purpose.
  set(profile_icd_dir ${CMAKE_CURRENT_BINARY_DIR}/profile/icd-pocl)
  file(WRITE ${profile_icd_dir}/pocl.icd "libpocl.so.2\n")
  file(GLOB shipped_profiles CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/profiles/*.json)
  # docs/choosing-a-gpu.md's recipes, run against every shipped profile at once.
  add_test(NAME profile.choosing_a_gpu
           COMMAND Python3::Interpreter ${CMAKE_CURRENT_LIST_DIR}/check_choosing_a_gpu.py
                   ${PROJECT_SOURCE_DIR}/docs/choosing-a-gpu.md ${PROJECT_SOURCE_DIR}/profiles
                   $<TARGET_FILE:xgpu-cli>)
  set_tests_properties(profile.choosing_a_gpu PROPERTIES
    LABELS profile
    TIMEOUT 120
    ENVIRONMENT "OCL_ICD_VENDORS=${profile_icd_dir};XGPU_CACHE_DIR=${CMAKE_CURRENT_BINARY_DIR}/cache/profile.choosing"
    ENVIRONMENT_MODIFICATION "POCL_DEVICES=unset:;XGPU_DEVICE=unset:;XGPU_PROFILE_BACKING=unset:;XGPU_PROFILE_DIR=unset:;XGPU_BACKEND_PATH=unset:;XGPU_BACKEND_ORDER=unset:")
  # The library's GPU paths at scale, one test case each, rather than every area's per-type
  # sweeps: those compile a program per element type, about 4 CPU-minutes per profile with a
  # cold PoCL cache (all of them: docs/profiles.md, "In CI"), while these take about one.
  # The three-launch and single-pass scans and both sort layouts at 2^20 + 3, the float sum
  # of 2^24 + 2 ones and both reduce layouts, every transpose and softmax shape (tiles and a
  # work-group per row), float GEMM by every engine, and the element-wise errors (double on
  # a device without fp64). And the mixed-precision paths a GPU takes: half arithmetic
  # (native where the profile claims cl_khr_fp16, which the PoCL backing cannot honour: the
  # kernel falls back to float, so this checks the host's choice and the fallback) and casts
  # at sizes around the GPU layout's vectors. Quoted: Catch2 2.13 reads a comma inside quotes
  # as the name's.
  set(profile_algorithm_cases
    "half arithmetic natively or through float gives the stated results"
    "cast at sizes around the vector width and its errors"
    "scans in both layouts on every device" "sort in both layouts on every device"
    "summing 2^24 float ones is exact" "float sums meet their bound*"
    "transpose of every type and shape" "softmax_rows of every floating type and shape"
    "gemm of float:*" "element-wise operations in place" "element-wise errors:*")
  list(TRANSFORM profile_algorithm_cases PREPEND "\"")
  list(TRANSFORM profile_algorithm_cases APPEND "\"")
  string(JOIN "," profile_algorithm_filter ${profile_algorithm_cases})
  # The heavy runs (conformance, algorithms) on as few profiles as meet every value of every
  # limit a kernel can meet at least once (group and item sizes, local memory, argument and
  # constant sizes, the preferred multiple, fp16/fp64, images, unified memory, non-uniform
  # groups, the OpenCL C version): each profile's run costs about a CPU-minute with a cold PoCL
  # cache (its macros make the kernels new to PoCL), and two profiles with the same value of
  # a limit test the kernels' handling of it twice. Chosen greedily, the profile meeting the
  # most values not yet met first (name order breaks ties), until every value is met; the
  # others are checked by profile.shipped_files and docs/choosing-a-gpu.md's test. Keeps CI
  # inside its budget (docs/testing.md).
  set(profile_limit_keys max_work_group_size local_memory max_parameter_size
      max_constant_buffer_size work_group_multiple fp16 fp64 images host_unified_memory
      non_uniform_work_groups language_version)
  set(profile_names "")
  foreach(file IN LISTS shipped_profiles)
    get_filename_component(name ${file} NAME_WE)
    list(APPEND profile_names ${name})
    file(READ ${file} profile_text)
    set(profile_values_${name} "")
    foreach(key IN LISTS profile_limit_keys)
      string(JSON value GET "${profile_text}" ${key})
      list(APPEND profile_values_${name} "${key}=${value}")
    endforeach()
    foreach(d 0 1 2)
      string(JSON value GET "${profile_text}" max_work_item_sizes ${d})
      list(APPEND profile_values_${name} "items${d}=${value}")
    endforeach()
  endforeach()
  list(SORT profile_names)
  set(profile_values_met "")
  set(profiles_run "")
  while(TRUE)
    set(best "")
    set(best_count 0)
    foreach(name IN LISTS profile_names)
      set(new_values ${profile_values_${name}})
      if(NOT profile_values_met STREQUAL "")
        list(REMOVE_ITEM new_values ${profile_values_met})
      endif()
      list(LENGTH new_values count)
      if(count GREATER best_count)
        set(best ${name})
        set(best_count ${count})
      endif()
    endforeach()
    if(best STREQUAL "")
      break()
    endif()
    list(APPEND profiles_run ${best})
    list(APPEND profile_values_met ${profile_values_${best}})
  endwhile()
  list(SORT profiles_run)
  string(JOIN ", " profiles_run_text ${profiles_run})
  message(STATUS "Shipped profiles the tests run (every limit's values met): ${profiles_run_text}")
  foreach(name IN LISTS profiles_run)
    # By name, as a user would: the module finds it through shipped_profiles.hpp.
    add_test(NAME conform.profile.${name}
             COMMAND xgpu-cli conform --profile ${name} --quick)
    # Quick sizes: seconds each with a warm PoCL kernel cache; a cold one costs several times
    # that, and over a minute on a loaded 2-core machine (each profile's prelude makes its
    # sources new to PoCL's cache).
    # A check of a feature the profile claims and PoCL lacks (fp16, sub-groups,
    # non-uniform work-groups) skips naming the backing device; PoCL's known math deviations
    # are skipped as PoCL's. The timeout is the time budget: twice the cold time.
    set_tests_properties(conform.profile.${name} PROPERTIES
      LABELS "profile;conform"
      TIMEOUT 240
      ENVIRONMENT "OCL_ICD_VENDORS=${profile_icd_dir};XGPU_CACHE_DIR=${CMAKE_CURRENT_BINARY_DIR}/cache/conform.profile.${name}"
      ENVIRONMENT_MODIFICATION "POCL_DEVICES=unset:;XGPU_DEVICE=unset:;XGPU_VISIBLE_DEVICES=unset:;XGPU_PROFILE=unset:;XGPU_PROFILE_BACKING=unset:;XGPU_PROFILE_DIR=unset:;XGPU_BACKEND_PATH=unset:")
    xgpu_unit_test(profile.${name}.algorithms "${profile_algorithm_filter}"
                   ENV "OCL_ICD_VENDORS=${profile_icd_dir}" "XGPU_PROFILE=${name}"
                       "XGPU_VISIBLE_DEVICES=profile")
    # Not "unit": the sanitizer build's run (-L unit) stays as long as before.
    set_tests_properties(unit.profile.${name}.algorithms PROPERTIES LABELS profile)
  endforeach()
endif()
