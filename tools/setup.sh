#!/usr/bin/env bash
# Sets up xgpu on Debian 12 from a fresh clone; safe to run again at any time.
#   tools/setup.sh        install missing Debian packages, build, run `xgpu query`, and install
#                         the Python package into .venv from the same build
#   tools/setup.sh test   the same, then the whole test suite, the Python tests, then the unit
#                         tests again under AddressSanitizer and UndefinedBehaviorSanitizer
# Exits non-zero on the first failure.
set -euo pipefail

readonly kPackages=(
  build-essential cmake pkg-config
  ocl-icd-opencl-dev opencl-headers opencl-clhpp-headers  # OpenCL loader and headers
  pocl-opencl-icd oclgrind clinfo                         # a CPU device and a simulator
  libspdlog-dev libfmt-dev catch2 libcli11-dev nlohmann-json3-dev python3
  python3-venv python3-dev  # the Python package's .venv and its extension's headers
  libclblast-dev libopenblas-dev libboost-dev  # GEMM peers and Boost.Compute (interop, bench)
  libopenmpi-dev openmpi-bin                   # libxgpu-mpi, its tests and `xgpu bench mpi`
)
# Only for `test`: clang and its libFuzzer runtime for the fuzz targets.
readonly kTestPackages=(clang libclang-rt-14-dev)
# From PyPI into .venv: what builds the package, what it needs, and (for `test`) what tests it.
readonly kPythonBuild=("scikit-build-core>=0.10" "nanobind>=2.2" "numpy>=2.0")
readonly kPythonTest=("pytest>=7" "hypothesis>=6" "pyopencl>=2023.1" "mako")
# The package's plotter (python -m xgpu.plot, xgpu bench --plot; the optional dependency "plot").
readonly kPythonPlot=("matplotlib>=3.6")
# NumPy's bfloat16 for xgpu.bfloat16 arrays (the optional dependency "bfloat16"; the tests use it).
readonly kPythonBfloat16=("ml_dtypes>=0.4")
# xgpu.mpi's mpi4py (the optional dependency "mpi"). Its binary wheel loads the system's MPI
# (Debian's Open MPI, libmpi.so.40) and xgpu.mpi checks at import that it is libxgpu-mpi's; a
# source build (pip install --no-binary mpi4py) takes about 4 minutes on 2 cores for nothing more.
readonly kPythonMpi=("mpi4py>=3.1")
# Debian's own Python (python3-venv and python3-dev are for it), whatever else is on PATH.
readonly kPython=/usr/bin/python3

mode="${1:-build}"
case "${mode}" in
  build | test) ;;
  *) echo "usage: tools/setup.sh [test]" >&2; exit 2 ;;
esac

cd "$(dirname "${BASH_SOURCE[0]}")/.."
jobs="$(nproc)"

# Each step with the minutes and seconds since the start, where a run's time goes (docs/testing.md).
step() { printf '\n==> [%d:%02d] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }

# Installs only what is missing, so a set-up machine needs no network and no root.
install_packages() {
  local missing=()
  for package in "$@"; do
    local status
    status="$(dpkg-query -W -f='${Status}' "${package}" 2>/dev/null || true)"
    [[ "${status}" == "install ok installed" ]] || missing+=("${package}")
  done
  if ((${#missing[@]} == 0)); then
    step "Debian packages: all present"
    return
  fi
  step "Installing Debian packages: ${missing[*]}"
  local sudo=()
  if ((EUID != 0)); then
    if ! command -v sudo >/dev/null; then
      echo "setup.sh: installing packages needs root or sudo" >&2
      exit 1
    fi
    sudo=(sudo)
  fi
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    "${missing[@]}"
}

# Configures (once) and builds one build folder: build_tree DIR [cmake options...]
build_tree() {
  local dir="$1"
  shift
  cmake -S . -B "${dir}" "$@"
  cmake --build "${dir}" -j"${jobs}"
}

if [[ "${mode}" == test ]]; then
  install_packages "${kPackages[@]}" "${kTestPackages[@]}"
  # The platforms the tests must find (tests/CMakeLists.txt): a missing one fails the
  # configuration and the discovery test instead of silently narrowing every device test.
  export XGPU_TEST_REQUIRE_PLATFORMS="${XGPU_TEST_REQUIRE_PLATFORMS-pocl,oclgrind}"
else
  install_packages "${kPackages[@]}"
fi

# .venv with the Python packages that build and (for `test`) test the xgpu package. pip asks the
# network only for what is missing.
make_venv() {
  [[ -x .venv/bin/python ]] || "${kPython}" -m venv .venv
  local wanted=("${kPythonBuild[@]}" "${kPythonPlot[@]}" "${kPythonBfloat16[@]}" "${kPythonMpi[@]}")
  if [[ "${mode}" == test ]]; then wanted+=("${kPythonTest[@]}"); fi
  step "Python packages in .venv: ${wanted[*]}"
  .venv/bin/python -m pip install --quiet --disable-pip-version-check "${wanted[@]}"
}

make_venv

step "Building xgpu in build/ (with the Python extension)"
build_tree build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DXGPU_BUILD_PYTHON=ON \
  -DPython_EXECUTABLE="${PWD}/.venv/bin/python" \
  -Dnanobind_DIR="$(.venv/bin/python -m nanobind --cmake_dir)"

step "Devices (build/bin/xgpu query)"
build/bin/xgpu query

# The package from the build above: scikit-build-core configures build/ again with the same
# generator and build type (nothing is out of date), builds the target xgpu-python (built) and
# installs its component into .venv (docs/python.md, "Installing").
step "Installing the Python package into .venv (from build/)"
CMAKE_GENERATOR="$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' build/CMakeCache.txt)" \
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-cache-dir \
  --no-build-isolation --force-reinstall --no-deps --config-settings=build-dir=build \
  --config-settings=cmake.build-type=RelWithDebInfo .
echo "Check it with: .venv/bin/python -c 'import xgpu; print(xgpu.devices())'"
.venv/bin/python -c 'import xgpu; print(xgpu.devices())'
echo "Pictures of a benchmark run: build/bin/xgpu bench --quick --plot plots/ (docs/plots.md)"

if [[ "${mode}" == test ]]; then
  step "Test suite (ctest in build/)"
  status=0
  ctest --test-dir build --no-tests=error --output-on-failure -j"${jobs}" \
    --output-junit "${PWD}/build/test-results.xml" || status=$?
  # The run's per-entry timings, the artifact docs/testing.md reads: build/test-timings.txt.
  "${kPython}" tests/timings.py build || true
  if ((status != 0)); then exit "${status}"; fi
  # Kept as the run's artifact; timings are never asserted (shared, noisy machines).
  echo "Quick benchmark figures of this run: build/bench-quick.json" \
    "(compare a later run with: build/bin/xgpu bench --quick --compare build/bench-quick.json)"

  # tests/python/test_mpi.py runs xgpu.mpi under mpirun (1 to 3 ranks, as root too).
  step "Python tests (pytest in .venv, on two PoCL devices and Oclgrind; xgpu.mpi under mpirun)"
  python_tests() {
    OCL_ICD_VENDORS="${PWD}/build/tests/icd" POCL_DEVICES="pthread pthread" \
      XGPU_CACHE_DIR="${PWD}/build/tests/python-cache" \
      .venv/bin/python -m pytest -q -p no:cacheprovider "$@"
  }
  python_tests tests/python
  step "Plotter tests (pytest tests/plot: recorded bench reports, xgpu bench --plot, the timeline)"
  python_tests tests/plot
  # The operations and kernels again as on an H100 (its limits, the GPU code paths), on PoCL.
  step "Python tests under a GPU profile (nvidia-h100, run on PoCL)"
  XGPU_PROFILE=nvidia-h100 python_tests --on profile tests/python/test_ops.py \
    tests/python/test_kernels.py tests/python/test_amp.py

  step "Sanitizers: unit tests under AddressSanitizer and UndefinedBehaviorSanitizer (build-asan/)"
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DXGPU_SANITIZE=address,undefined \
    -DXGPU_BUILD_EXAMPLES=OFF
  # Only what the unit tests run: the test program, the module and the stub modules.
  cmake --build build-asan -j"${jobs}" --target xgpu-tests xgpu-core-tests
  # Leak checking stays on: the tests' own LSAN suppressions cover only the OpenCL drivers.
  UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-asan -L unit --no-tests=error --output-on-failure -j"${jobs}"

  # One libFuzzer target per parser of outside text (tests/fuzz/README.md), under ASan and
  # UBSan, each for 15 s on its seed corpus, as many at once as there are cores; with the
  # conformance programs the cuda.capture_conform test recorded as seeds.
  step "Fuzz targets (build-fuzz/)"
  cmake -S tests/fuzz -B build-fuzz -DCMAKE_CXX_COMPILER=clang++
  cmake --build build-fuzz -j"${jobs}"
  tests/fuzz/run.sh build-fuzz 15 --programs build/tests/cuda/conform-sources
  step "All tests passed"
fi
