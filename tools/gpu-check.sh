#!/usr/bin/env bash
# Runs xgpu on an NVIDIA GPU through both of its ways there, side by side: the cuda module
# (driver API + NVRTC) and NVIDIA's OpenCL through the opencl module, and writes what it saw
# into docs/BENCHMARKS.md (the section between the "gpu-check" markers).
#
#   tools/gpu-check.sh [BUILD_DIR]      default: build (an xgpu build made for this machine)
#
# What it runs: `xgpu query` one row per GPU and per module (the GPU must be one device with
# both modules: same physical_id), then for each side (cuda:0, then opencl:nvidia:0):
# `xgpu query -d`, `xgpu conform`
# (--quick) and `xgpu bench --quick` with --json. First `xgpu query --modules`, which says why
# either side offers no device. Then, where libxgpu-mpi was built and mpirun is there,
# `xgpu bench mpi --quick` and examples/mpi_data_parallel on cuda:0 at one rank (NCCL: the
# toolkit's libnccl.so.2, or XGPU_NCCL_LIBRARY).
#
# What it finds on the machine (nothing is downloaded):
#   - libcuda.so.1 and libnvidia-opencl.so.1 in the driver folders (ldconfig's cache,
#     /usr/lib/x86_64-linux-gnu, /usr/lib64, /usr/local/nvidia/lib64, /usr/lib/nvidia*). NVIDIA's
#     OpenCL is reached through a folder of its own with one nvidia.icd naming that file
#     (OCL_ICD_VENDORS), since containers often mount the driver without /etc/OpenCL/vendors.
#   - NVRTC (libnvrtc.so.1x): the toolkit's (/usr/local/cuda*/lib64), or the pip wheel
#     nvidia-cuda-nvrtc's (site-packages/nvidia/*/lib), handed to the module through
#     XGPU_NVRTC_LIBRARY. NVRTC cannot be carried to a device machine of this workplace: it is
#     about 105 MiB, over the 64 MiB a call may carry. The H200 machines have CUDA 13.0's
#     toolkit (KINDS.md: nvcc 13.0), so their own NVRTC serves.
#   - libOpenCL.so.1 (the ICD loader, which the opencl module needs): when the machine lacks
#     it, put Debian's (ocl-icd-libopencl1, ~50 KiB) in a carried folder and name it in
#     XGPU_GPU_CHECK_LIBDIR; that folder goes first on LD_LIBRARY_PATH.
# Exit 0 when both sides ran; 3 when there is no NVIDIA driver (said on stderr, nothing
# written); 1 when a side failed (its output is still written).
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
build="${1:-build}"
xgpu="${build}/bin/xgpu"
doc=docs/BENCHMARKS.md
[[ -x "${xgpu}" ]] || { echo "gpu-check: no ${xgpu}: build xgpu first (tools/setup.sh)" >&2; exit 2; }

say() { printf 'gpu-check: %s\n' "$*" >&2; }

# The first file named $1 in the driver folders, or nothing.
find_driver_file() {
  local name="$1" dir
  local found
  found="$(ldconfig -p 2>/dev/null | awk -v n="${name}" '$1 == n { print $NF; exit }')"
  if [[ -n "${found}" ]]; then echo "${found}"; return; fi
  for dir in /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/local/nvidia/lib64 /usr/local/nvidia/lib \
             /usr/lib/nvidia /usr/lib/nvidia-* /usr/lib/x86_64-linux-gnu/nvidia/current; do
    if [[ -e "${dir}/${name}" ]]; then echo "${dir}/${name}"; return; fi
  done
}

find_nvrtc() {
  local candidate
  for candidate in /usr/local/cuda/lib64/libnvrtc.so.1[0-9]* /usr/local/cuda-*/lib64/libnvrtc.so.1[0-9]* \
                   /usr/local/cuda*/targets/x86_64-linux/lib/libnvrtc.so.1[0-9]*; do
    [[ -e "${candidate}" && "${candidate}" != *alt* && "${candidate}" != *builtins* ]] && { echo "${candidate}"; return; }
  done
  candidate="$(ldconfig -p 2>/dev/null | awk '$1 ~ /^libnvrtc\.so\.[0-9]+$/ { print $NF; exit }')"
  [[ -n "${candidate}" ]] && { echo "${candidate}"; return; }
  # The pip wheel (nvidia-cuda-nvrtc), as PyTorch images carry it.
  python3 - <<'PY' 2>/dev/null
import glob, site, sys
for root in site.getsitepackages() + [site.getusersitepackages()]:
    for path in sorted(glob.glob(root + "/nvidia/*/lib/libnvrtc.so.*")):
        if "builtins" not in path and "alt" not in path:
            print(path); sys.exit(0)
PY
}

# XGPU_CUDA_LIBRARY (the module's own override) names the driver, e.g. a test's fake one.
libcuda="${XGPU_CUDA_LIBRARY:-$(find_driver_file libcuda.so.1)}"
if [[ -z "${libcuda}" ]]; then
  say "no NVIDIA driver (libcuda.so.1 is in none of the driver folders): nothing to check"
  "${xgpu}" query --modules >&2
  exit 3
fi
say "NVIDIA driver: ${libcuda}"

work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
icd="${work}/icd"
mkdir -p "${icd}"
nvidia_opencl="$(find_driver_file libnvidia-opencl.so.1)"
if [[ -n "${nvidia_opencl}" ]]; then
  echo "${nvidia_opencl}" > "${icd}/nvidia.icd"
  say "NVIDIA OpenCL: ${nvidia_opencl}"
else
  say "no libnvidia-opencl.so.1: the OpenCL side is skipped"
fi
export OCL_ICD_VENDORS="${icd}"
if [[ -n "${XGPU_GPU_CHECK_LIBDIR:-}" ]]; then
  export LD_LIBRARY_PATH="${XGPU_GPU_CHECK_LIBDIR}${LD_LIBRARY_PATH:+:${LD_LIBRARY_PATH}}"
fi

nvrtc="${XGPU_NVRTC_LIBRARY:-$(find_nvrtc)}"
if [[ -n "${nvrtc}" ]]; then
  export XGPU_NVRTC_LIBRARY="${nvrtc}"
  say "NVRTC: ${nvrtc}"
else
  say "no NVRTC found (toolkit or nvidia-cuda-nvrtc wheel): the cuda module cannot build kernels"
fi
export XGPU_CACHE_DIR="${work}/cache"

out="${work}/report.md"
status=0
run() {  # run TITLE COMMAND...: into the report, fenced, with the command line
  local title="$1"; shift
  {
    printf '\n%s\n\n```\n$ %s\n' "${title}" "$*"
    "$@" 2>&1
    local rc=$?
    printf '(exit %d)\n```\n' "${rc}"
    return "${rc}"
  } >> "${out}"
}

{
  printf '<!-- gpu-check: begin (written by tools/gpu-check.sh; edit outside the markers) -->\n'
  printf '## NVIDIA GPU: the cuda module beside NVIDIA OpenCL\n\n'
  printf -- '- date: %s, commit %s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  printf -- '- driver: %s\n' "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1 || echo unknown)"
  printf -- '- NVRTC: %s\n' "${nvrtc:-none}"
  printf -- '- NVIDIA OpenCL: %s\n' "${nvidia_opencl:-none}"
} > "${out}"

run "Modules" "${xgpu}" query --modules || status=1
run "Devices" "${xgpu}" query -l || status=1
# One GPU is one device: with NVIDIA's OpenCL beside the cuda module, each GPU is one row of
# `xgpu query`, both modules in it (docs/backends.md); --all-backends shows the two sides, and
# the doctor why the default order picks one.
run "Devices, one row per GPU" "${xgpu}" query || status=1
run "Devices, one row per module" "${xgpu}" query --all-backends || status=1
run "Backend choice" "${xgpu}" doctor --ascii || true
if [[ -n "${nvidia_opencl}" ]]; then
  run "The same GPU through both modules" python3 -c '
import json, subprocess, sys
doc = json.loads(subprocess.run([sys.argv[1], "query", "--json", "--all-backends"],
                                capture_output=True, text=True, check=True).stdout)
ids = {d["selector"]: d["physical_id"] for d in doc["devices"]}
print("cuda:0", ids.get("cuda:0"), "aliases", [d["aliases"] for d in doc["devices"] if d["selector"] == "cuda:0"])
sys.exit(0 if ids.get("cuda:0") and list(ids.values()).count(ids["cuda:0"]) == 2 else 1)
' "${xgpu}" || status=1
fi
sides=(cuda:0)
[[ -n "${nvidia_opencl}" ]] && sides+=(opencl:nvidia:0)
for side in "${sides[@]}"; do
  run "${side}: query" "${xgpu}" query -d "${side}" || status=1
  run "${side}: conform" "${xgpu}" conform -d "${side}" --quick || status=1
  run "${side}: bench" "${xgpu}" bench -d "${side}" --quick --json "${work}/bench-${side//:/-}.json" \
    || status=1
done
# libxgpu-mpi on the GPU, one rank: allreduce through NCCL (the toolkit's libnccl) beside the
# mapped and staged transports and host MPI (`xgpu bench mpi`), and the data-parallel example.
mpirun_bin="$(command -v mpirun || true)"
if [[ -x "${build}/bin/xgpu-bench-mpi" && -n "${mpirun_bin}" ]]; then
  nccl="${XGPU_NCCL_LIBRARY:-$(ls /usr/local/cuda*/lib*/libnccl.so.2 /usr/local/cuda*/targets/x86_64-linux/lib/libnccl.so.2 2>/dev/null | head -1)}"
  [[ -n "${nccl}" ]] && export XGPU_NCCL_LIBRARY="${nccl}"
  say "NCCL: ${nccl:-none (the nccl transport is not checked)}"
  mpi_env=(env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 XGPU_DEVICE=cuda:0)
  run "cuda:0: bench mpi (NCCL: ${nccl:-none})" "${mpi_env[@]}" "${mpirun_bin}" -np 1 \
    "${xgpu}" bench mpi --quick || status=1
  [[ -x "${build}/examples/mpi_data_parallel" ]] &&
    { run "cuda:0: mpi_data_parallel" "${mpi_env[@]}" "${mpirun_bin}" -np 1 \
        "${build}/examples/mpi_data_parallel" || status=1; }
else
  say "no ${build}/bin/xgpu-bench-mpi or no mpirun: libxgpu-mpi is not checked"
fi
printf '<!-- gpu-check: end -->\n' >> "${out}"

# Replace the section between the markers, or append it.
python3 - "${doc}" "${out}" <<'PY'
import re, sys
doc_path, section_path = sys.argv[1], sys.argv[2]
doc = open(doc_path).read()
section = open(section_path).read()
pattern = re.compile(r"<!-- gpu-check: begin.*?<!-- gpu-check: end -->\n", re.S)
doc = pattern.sub(lambda _: section, doc) if pattern.search(doc) else doc.rstrip("\n") + "\n\n" + section
open(doc_path, "w").write(doc)
PY
say "wrote the section of ${doc} (exit ${status})"
exit "${status}"
