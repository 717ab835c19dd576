#!/usr/bin/env bash
# Runs every fuzz target of a build folder for SECONDS each, as many at once as there are
# cores, each on a fresh copy of its seed corpus (seeds.py), and fails when one finds a crash,
# a hang or a broken property. What a target found is kept as BUILD/findings/<target>/.
#   tests/fuzz/run.sh BUILD SECONDS [--programs DIR] [TARGET...]
# --programs: the conformance suite's programs as built (seeds.py says which folder).
set -euo pipefail

build="$1"
seconds="$2"
shift 2
programs=()
if [[ "${1-}" == --programs ]]; then
  programs=("$2")
  shift 2
fi
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
targets=("$@")
if ((${#targets[@]} == 0)); then
  for path in "${build}"/fuzz_*; do
    [[ -x "${path}" && -f "${path}" ]] && targets+=("$(basename "${path}")")
  done
fi
((${#targets[@]} > 0)) || { echo "run.sh: no fuzz target in ${build}" >&2; exit 1; }

corpora="${build}/corpus"
rm -rf "${corpora}" "${build}/findings" "${build}/logs"
mkdir -p "${build}/findings" "${build}/logs"
python3 "${here}/seeds.py" "${corpora}" "${programs[@]}" >/dev/null

# A dictionary where the grammar has words a mutation would seldom spell. The source targets'
# inputs are cut to 4 KiB: whole kernels (seeds of up to 30 KiB) run 10 times slower, and
# what a kernel holds is seldom longer.
options() {
  case "$1" in
    fuzz_opencl_translate | fuzz_preprocess) echo "-dict=${here}/opencl.dict -max_len=4096" ;;
    fuzz_profile_file | fuzz_trace_summary | fuzz_conform_baseline | fuzz_bench_compare)
      echo "-dict=${here}/json.dict" ;;
  esac
}

run_one() {
  local target="$1"
  mkdir -p "${build}/findings/${target}"
  # -timeout: an input that takes 10 s is a hang; -rss_limit_mb: so is one that eats memory.
  # shellcheck disable=SC2046
  "${build}/${target}" -max_total_time="${seconds}" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="${build}/findings/${target}/" \
    $(options "${target}") "${corpora}/${target}" >"${build}/logs/${target}.log" 2>&1
}

declare -A pids
failed=()
start=${SECONDS}
running=0
for target in "${targets[@]}"; do
  if ((running >= $(nproc))); then
    wait -n || true
    running=$((running - 1))
  fi
  run_one "${target}" &
  pids[${target}]=$!
  running=$((running + 1))
done
for target in "${targets[@]}"; do
  status=0
  wait "${pids[${target}]}" || status=$?
  log="${build}/logs/${target}.log"
  runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "${log}")"
  coverage="$(grep -o 'cov: [0-9]*' "${log}" | tail -1 || true)"
  if ((status == 0)); then
    printf '%-24s ok: %s runs, %s, corpus %s files\n' "${target}" "${runs:-?}" \
      "${coverage:-cov: ?}" "$(ls "${corpora}/${target}" | wc -l)"
  else
    printf '%-24s FAILED (exit %d); the input is in %s\n' "${target}" "${status}" \
      "${build}/findings/${target}/"
    tail -n 40 "${log}"
    failed+=("${target}")
  fi
done
echo "fuzzing: ${#targets[@]} targets for ${seconds} s each, $((SECONDS - start)) s in all"
((${#failed[@]} == 0)) || { echo "fuzz targets that failed: ${failed[*]}" >&2; exit 1; }
