#!/usr/bin/env bash
# Runs a program twice with one fresh, empty kernel cache folder (cold, then warm) and fails
# unless both runs exit 0, print the expected line, and say nothing of a crash on stderr
# (glibc's heap checks, a driver's assertion). Used by tests/teardown/CMakeLists.txt.
#
#   run_cold_warm.sh EXPECTED_STDOUT_RE -- COMMAND...
set -u
[[ $# -ge 3 && "$2" == "--" ]] || { echo "usage: run_cold_warm.sh RE -- COMMAND..." >&2; exit 2; }
expected="$1"
shift 2

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XGPU_CACHE_DIR="$work/cache"

failed=0
for run in cold warm; do
  "$@" >"$work/$run.out" 2>"$work/$run.err" </dev/null
  status=$?
  problems=()
  [[ $status -eq 0 ]] || problems+=("exit code $status")
  grep -Pq -- "$expected" "$work/$run.out" || problems+=("stdout lacks /$expected/")
  grep -Piq -- "corrupted|double free|Assertion|Segmentation|Aborted|free\(\)" "$work/$run.err" &&
    problems+=("stderr reports a crash")
  echo "--- $run cache run: exit $status"
  cat "$work/$run.out"
  if [[ ${#problems[@]} -gt 0 ]]; then
    failed=1
    printf 'FAILED (%s cache): %s\n' "$run" "${problems[*]}"
    echo "--- stderr"
    cat "$work/$run.err"
  fi
done
entries=$(find "$work/cache" -type f 2>/dev/null | wc -l)
echo "--- $entries file(s) in the kernel cache after both runs"
exit $failed
