#!/usr/bin/env bash
# Sets up xgpu on Debian 12 from a fresh clone; safe to run again at any time.
#   tools/setup.sh        install missing Debian packages, build, run `xgpu query`
#   tools/setup.sh test   the same, then the whole test suite, then the unit tests again
#                         under AddressSanitizer and UndefinedBehaviorSanitizer
# Exits non-zero on the first failure.
set -euo pipefail

readonly kPackages=(
  build-essential cmake pkg-config
  ocl-icd-opencl-dev opencl-headers opencl-clhpp-headers  # OpenCL loader and headers
  pocl-opencl-icd oclgrind clinfo                         # a CPU device and a simulator
  libspdlog-dev libfmt-dev catch2 libcli11-dev nlohmann-json3-dev python3
  libclblast-dev libopenblas-dev libboost-dev  # GEMM peers and Boost.Compute (interop, bench)
  libopenmpi-dev openmpi-bin                   # libxgpu-mpi, its tests and `xgpu bench mpi`
)
# Only for `test`: clang and its libFuzzer runtime for the fuzz targets.
readonly kTestPackages=(clang libclang-rt-14-dev)

mode="${1:-build}"
case "${mode}" in
  build | test) ;;
  *) echo "usage: tools/setup.sh [test]" >&2; exit 2 ;;
esac

cd "$(dirname "${BASH_SOURCE[0]}")/.."
jobs="$(nproc)"

step() { printf '\n==> %s\n' "$*"; }

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

step "Building xgpu in build/"
build_tree build -DCMAKE_BUILD_TYPE=RelWithDebInfo

step "Devices (build/bin/xgpu query)"
build/bin/xgpu query

if [[ "${mode}" == test ]]; then
  step "Test suite (ctest in build/)"
  ctest --test-dir build --no-tests=error --output-on-failure -j"${jobs}"
  # Kept as the run's artifact; timings are never asserted (shared, noisy machines).
  echo "Quick benchmark figures of this run: build/bench-quick.json" \
    "(compare a later run with: build/bin/xgpu bench --quick --compare build/bench-quick.json)"

  step "Sanitizers: unit tests under AddressSanitizer and UndefinedBehaviorSanitizer (build-asan/)"
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DXGPU_SANITIZE=address,undefined \
    -DXGPU_BUILD_EXAMPLES=OFF
  # Only what the unit tests run: the test program, the module and the stub modules.
  cmake --build build-asan -j"${jobs}" --target xgpu-tests xgpu-core-tests
  # Leak checking stays on: the tests' own LSAN suppressions cover only the OpenCL drivers.
  UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-asan -L unit --no-tests=error --output-on-failure -j"${jobs}"

  # One libFuzzer target per parser of outside text (tests/fuzz/README.md), under ASan and
  # UBSan, each for 25 s on its seed corpus, as many at once as there are cores; with the
  # conformance programs the cuda.capture_conform test recorded as seeds.
  step "Fuzz targets (build-fuzz/)"
  cmake -S tests/fuzz -B build-fuzz -DCMAKE_CXX_COMPILER=clang++
  cmake --build build-fuzz -j"${jobs}"
  tests/fuzz/run.sh build-fuzz 25 --programs build/tests/cuda/conform-sources
  step "All tests passed"
fi
