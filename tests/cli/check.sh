#!/usr/bin/env bash
# Runs one command of the `xgpu` CLI in a clean environment and checks its exit code, its
# stdout and its stderr. Used by tests/cli/CMakeLists.txt; prints both streams on failure.
#
#   check.sh [--env NAME=VALUE]... [--exit N] [--stdout RE]... [--no-stdout RE]...
#            [--stderr RE]... [--no-stderr RE]... [--stdout-check CMD] [--tty] -- COMMAND...
#
# Each RE (Perl syntax, grep -P) must match (for --no-*: must not match) some line of the
# stream.
# --stdout-check runs CMD (through bash) with stdout on its stdin; it must exit 0.
# --tty runs the command under script(1), so that stdout is a terminal.
set -u

expected_exit=0
declare -a envs=() out_yes=() out_no=() err_yes=() err_no=() checks=()
tty=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --env) envs+=("$2"); shift 2 ;;
    --exit) expected_exit="$2"; shift 2 ;;
    --stdout) out_yes+=("$2"); shift 2 ;;
    --no-stdout) out_no+=("$2"); shift 2 ;;
    --stderr) err_yes+=("$2"); shift 2 ;;
    --no-stderr) err_no+=("$2"); shift 2 ;;
    --stdout-check) checks+=("$2"); shift 2 ;;
    --tty) tty=1; shift ;;
    --) shift; break ;;
    *) echo "check.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[[ $# -gt 0 ]] || { echo "check.sh: no command given" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Variables from the developer's shell must not change what the test sees (every XGPU_*
# setting among them), and kernels the test builds (--probe) go to a cache of its own.
for name in $(compgen -e); do
  if [[ $name == XGPU_* ]]; then unset "$name"; fi
done
unset NO_COLOR POCL_DEVICES OCL_ICD_VENDORS OCL_ICD_FILENAMES
export XGPU_CACHE_DIR="$work/cache"
for assignment in ${envs[@]+"${envs[@]}"}; do export "${assignment?}"; done
if [[ $tty -eq 1 ]]; then
  # script(1) merges the streams and adds carriage returns; only stdout checks make sense.
  printf -v quoted '%q ' "$@"
  script -qec "$quoted" /dev/null >"$work/out" 2>"$work/err" </dev/null
  status=$?
  sed -i 's/\r$//' "$work/out"
else
  "$@" >"$work/out" 2>"$work/err" </dev/null
  status=$?
fi

failures=()
[[ $status -eq $expected_exit ]] || failures+=("exit code $status, expected $expected_exit")
for re in ${out_yes[@]+"${out_yes[@]}"}; do
  grep -Pq -- "$re" "$work/out" || failures+=("stdout lacks /$re/")
done
for re in ${out_no[@]+"${out_no[@]}"}; do
  grep -Pq -- "$re" "$work/out" && failures+=("stdout has /$re/")
done
for re in ${err_yes[@]+"${err_yes[@]}"}; do
  grep -Pq -- "$re" "$work/err" || failures+=("stderr lacks /$re/")
done
for re in ${err_no[@]+"${err_no[@]}"}; do
  grep -Pq -- "$re" "$work/err" && failures+=("stderr has /$re/")
done
for check in ${checks[@]+"${checks[@]}"}; do
  bash -c "$check" <"$work/out" >"$work/check" 2>&1 || failures+=("stdout fails: $check
$(cat "$work/check")")
done

if [[ ${#failures[@]} -gt 0 ]]; then
  echo "command: $*"
  echo "environment: ${envs[*]-}"
  echo "--- stdout ---"; cat "$work/out"
  echo "--- stderr ---"; cat "$work/err"
  echo "--- failed ---"; printf '%s\n' "${failures[@]}"
  exit 1
fi
echo "ok: $* (exit $status)"
