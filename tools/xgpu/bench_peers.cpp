// Peers opened at run time through xgpu's one loader; see bench_peers.hpp.
#include "bench_peers.hpp"

#include <xgpu/common/blas_libraries.hpp>
#include <xgpu/opencl.hpp>

namespace xgpu::cli::bench {
namespace {

// CLBlast's C API (clblast_c.h), spelled out so that building xgpu needs no CLBlast headers.
constexpr int kClblastRowMajor = 101, kClblastNoTranspose = 111;
using ClblastSgemmFn = int (*)(int layout, int a_transpose, int b_transpose, std::size_t m,
                               std::size_t n, std::size_t k, float alpha, cl_mem a,
                               std::size_t a_offset, std::size_t a_ld, cl_mem b,
                               std::size_t b_offset, std::size_t b_ld, float beta, cl_mem c,
                               std::size_t c_offset, std::size_t c_ld, cl_command_queue* queue,
                               cl_event* event);

// The CBLAS interface (cblas.h): CblasRowMajor = 101, CblasNoTrans = 111.
using CblasSgemmFn = void (*)(int order, int a_transpose, int b_transpose, int m, int n, int k,
                              float alpha, const float* a, int lda, const float* b, int ldb,
                              float beta, float* c, int ldc);

}  // namespace

Peer::Peer(const common::LibrarySpec& spec, const char* symbol) {
  // Kept open for the process (DynamicLibrary never closes by itself).
  const common::DynamicLibrary library = common::DynamicLibrary::open(spec, {symbol});
  if (!library.loaded()) {
    description_ = "not found: " + library.why_not();
    return;
  }
  function_ = library.symbol(symbol);
  description_ = library.path();
}

ClblastSgemm::ClblastSgemm() : Peer(common::kClblastLibrary, "CLBlastSgemm") {}

void ClblastSgemm::run(Queue& queue, const Buffer<float>& a, const Buffer<float>& b,
                       const Buffer<float>& c, std::size_t n) const {
  cl_command_queue cl_queue = opencl::queue(queue);
  cl_event event = nullptr;
  const int status = reinterpret_cast<ClblastSgemmFn>(function_)(
      kClblastRowMajor, kClblastNoTranspose, kClblastNoTranspose, n, n, n, 1.0f, opencl::buffer(a),
      0, n, opencl::buffer(b), 0, n, 0.0f, opencl::buffer(c), 0, n, &cl_queue, &event);
  if (status != 0)
    throw Error(Errc::backend, "CLBlastSgemm failed with status " + std::to_string(status),
                "bench");
  clWaitForEvents(1, &event);
  clReleaseEvent(event);
}

HostSgemm::HostSgemm() : Peer(common::kHostBlasLibrary, "cblas_sgemm") {}

void HostSgemm::run(const float* a, const float* b, float* c, std::size_t n) const {
  const int size = static_cast<int>(n);
  reinterpret_cast<CblasSgemmFn>(function_)(101, 111, 111, size, size, size, 1.0f, a, size, b, size,
                                            0.0f, c, size);
}

}  // namespace xgpu::cli::bench
