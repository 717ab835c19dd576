# The test suite's time budget (docs/testing.md) as CTest labels, given by entry name so that
# every folder's entries follow one rule; each folder that makes entries calls
# xgpu_budget_labels() at its end (a label can only be set where the entry is made).
#   quick  the fast, broad subset to run after every edit (ctest -L quick, about 2 minutes on
#          2 cores): the core, the library and the module interface on two PoCL devices, the
#          entries that need no device, the command's checks; no Oclgrind, no profiles, no
#          second allocator, no benchmarks.
#   long   an entry over 60 s on a 2-core machine with warm caches, each with its reason:
set(XGPU_LONG_ENTRIES
    # NVRTC compiles every kernel of kernels/ for each element type and two architectures,
    # and every recorded conformance program (only where the CUDA toolkit is installed).
    cuda.nvrtc_kernels
    # Every sort of the library on Oclgrind, which simulates each work-item.
    unit.icd.algorithms.sort)

function(xgpu_budget_labels)
  get_property(entries DIRECTORY PROPERTY TESTS)
  foreach(entry IN LISTS entries)
    set(quick FALSE)
    if(entry MATCHES "^unit\\.two_pocl\\.")
      set(quick TRUE)
    elseif(entry MATCHES "^unit\\." AND NOT entry MATCHES "^unit\\.(icd|direct|profile|system)\\.")
      set(quick TRUE)
    elseif(entry MATCHES "^cli\\." AND NOT entry MATCHES "bench")
      set(quick TRUE)
    elseif(entry MATCHES "^(settings|core|docs)\\.")
      set(quick TRUE)
    endif()
    if(quick)
      set_property(TEST ${entry} APPEND PROPERTY LABELS quick)
    endif()
    if(entry IN_LIST XGPU_LONG_ENTRIES)
      set_property(TEST ${entry} APPEND PROPERTY LABELS long)
    endif()
  endforeach()
endfunction()
