// blas_gemm(): the ABI's row-major GEMM through cuBLAS, opened at run time, on the queue's
// stream. cuBLAS is column-major: a row-major matrix is its transpose, so C = op(A) op(B) is
// computed as C^T = op(B)^T op(A)^T, swapping the operands and m with n. Half precision
// multiplies in fp32 (CUBLAS_COMPUTE_32F, which cuBLAS runs on tensor cores where the GPU has
// them) and stores half, as the opencl module's CLBlast path does.
#include <climits>
#include <mutex>

#include "command.hpp"
#include "driver.hpp"
#include "entries.hpp"
#include "errors.hpp"
#include "handles.hpp"
#include "xgpu/common/blas_libraries.hpp"

namespace xgpu::backend_cuda {
namespace {

// cuBLAS's types and constants (cublas_api.h, library_types.h), declared for the same reason
// as cuda_driver_api.hpp's.
using Handle = void*;
using Status = int;
constexpr Status kSuccess = 0;
constexpr int kOpN = 0, kOpT = 1;
constexpr int kDataHalf = 2;      // CUDA_R_16F
constexpr int kCompute32F = 68;   // CUBLAS_COMPUTE_32F
constexpr int kGemmDefault = -1;  // CUBLAS_GEMM_DEFAULT

struct Cublas {
  Status (*create)(Handle*);
  Status (*destroy)(Handle);
  Status (*set_stream)(Handle, CUstream);
  Status (*sgemm)(Handle, int, int, int, int, int, const float*, const float*, int, const float*,
                  int, const float*, float*, int);
  Status (*dgemm)(Handle, int, int, int, int, int, const double*, const double*, int, const double*,
                  int, const double*, double*, int);
  Status (*gemm_ex)(Handle, int, int, int, int, int, const void*, const void*, int, int,
                    const void*, int, int, const void*, void*, int, int, int, int);
  std::string why_not;
};

const Cublas& cublas() {
  static const Cublas kCublas = [] {
    Cublas api{};
    auto library = common::DynamicLibrary::open(
        common::kCublasLibrary, {"cublasCreate_v2", "cublasDestroy_v2", "cublasSetStream_v2",
                                 "cublasSgemm_v2", "cublasDgemm_v2", "cublasGemmEx"});
    if (!library.loaded()) {
      api.why_not = library.why_not();
      return api;
    }
    api.create = library.function<decltype(api.create)>("cublasCreate_v2");
    api.destroy = library.function<decltype(api.destroy)>("cublasDestroy_v2");
    api.set_stream = library.function<decltype(api.set_stream)>("cublasSetStream_v2");
    api.sgemm = library.function<decltype(api.sgemm)>("cublasSgemm_v2");
    api.dgemm = library.function<decltype(api.dgemm)>("cublasDgemm_v2");
    api.gemm_ex = library.function<decltype(api.gemm_ex)>("cublasGemmEx");
    return api;
  }();
  return kCublas;
}

void check_blas(Status status, const char* call) {
  if (status != kSuccess) {
    fail(XGPU_STATUS_INVALID_VALUE,
         std::string(call) + " failed: cuBLAS status " + std::to_string(status));
  }
}

void destroy_handle(void* handle) { cublas().destroy(handle); }

// One handle per context, made on first use (cublasCreate is slow) and kept with it.
Handle handle_for(Context& context) {
  std::lock_guard<std::mutex> lock(context.blas_mutex);
  if (context.blas_handle == nullptr) {
    Handle handle = nullptr;
    check_blas(cublas().create(&handle), "cublasCreate_v2");
    context.blas_handle = handle;
    context.blas_destroy = destroy_handle;
  }
  return context.blas_handle;
}

int as_int(size_t value, const char* what) {
  if (value > static_cast<size_t>(INT_MAX)) {
    fail(XGPU_STATUS_INVALID_VALUE, std::string("blas_gemm: ") + what + " exceeds cuBLAS's int");
  }
  return static_cast<int>(value);
}

size_t element_size(uint32_t precision) {
  switch (precision) {
    case XGPU_PRECISION_F32:
      return 4;
    case XGPU_PRECISION_F64:
      return 8;
    case XGPU_PRECISION_F16:
      return 2;
  }
  fail(XGPU_STATUS_INVALID_VALUE, "blas_gemm: unknown precision " + std::to_string(precision));
}

CUdeviceptr element_at(const Queue& queue, xgpu_buffer handle, size_t offset, size_t element) {
  Buffer& buffer = buffer_of(handle);
  if (buffer.context.get() != queue.context.get()) {
    fail(XGPU_STATUS_INVALID_VALUE, "blas_gemm: a matrix belongs to another context");
  }
  if (offset > buffer.size / element)
    fail(XGPU_STATUS_INVALID_VALUE, "blas_gemm: offset too large");
  return buffer.pointer + offset * element;
}

void run_gemm(Queue& queue, const xgpu_gemm_v1& g, CUstream stream) {
  const size_t element = element_size(g.precision);
  Handle handle = handle_for(*queue.context);
  check_blas(cublas().set_stream(handle, stream), "cublasSetStream_v2");
  // Swapped operands (see the file comment).
  const int op_first = g.transpose_b ? kOpT : kOpN;
  const int op_second = g.transpose_a ? kOpT : kOpN;
  const int m = as_int(g.n, "n"), n = as_int(g.m, "m"), k = as_int(g.k, "k");
  const int ld_first = as_int(g.ldb, "ldb"), ld_second = as_int(g.lda, "lda");
  const int ldc = as_int(g.ldc, "ldc");
  auto* first = reinterpret_cast<void*>(element_at(queue, g.b, g.b_offset, element));
  auto* second = reinterpret_cast<void*>(element_at(queue, g.a, g.a_offset, element));
  auto* c = reinterpret_cast<void*>(element_at(queue, g.c, g.c_offset, element));
  if (g.precision == XGPU_PRECISION_F64) {
    const double alpha = g.alpha, beta = g.beta;
    check_blas(cublas().dgemm(handle, op_first, op_second, m, n, k, &alpha,
                              static_cast<const double*>(first), ld_first,
                              static_cast<const double*>(second), ld_second, &beta,
                              static_cast<double*>(c), ldc),
               "cublasDgemm_v2");
  } else if (g.precision == XGPU_PRECISION_F32) {
    const float alpha = static_cast<float>(g.alpha), beta = static_cast<float>(g.beta);
    check_blas(cublas().sgemm(handle, op_first, op_second, m, n, k, &alpha,
                              static_cast<const float*>(first), ld_first,
                              static_cast<const float*>(second), ld_second, &beta,
                              static_cast<float*>(c), ldc),
               "cublasSgemm_v2");
  } else {
    const float alpha = static_cast<float>(g.alpha), beta = static_cast<float>(g.beta);
    check_blas(cublas().gemm_ex(handle, op_first, op_second, m, n, k, &alpha, first, kDataHalf,
                                ld_first, second, kDataHalf, ld_second, &beta, c, kDataHalf, ldc,
                                kCompute32F, kGemmDefault),
               "cublasGemmEx");
  }
}

}  // namespace

xgpu_status blas_gemm(xgpu_queue queue, const xgpu_gemm_v1* gemm, const xgpu_wait_v1* wait,
                      xgpu_event* event) {
  return guard([&] {
    if (gemm == nullptr || gemm->struct_size < sizeof(xgpu_gemm_v1)) {
      fail(XGPU_STATUS_INVALID_VALUE, "blas_gemm: NULL or short description");
    }
    if (!cublas().why_not.empty() || cublas().create == nullptr) {
      fail(XGPU_STATUS_UNSUPPORTED, "no cuBLAS: " + cublas().why_not);
    }
    Queue& q = queue_of(queue);
    Command command(q, wait, event);
    run_gemm(q, *gemm, q.stream);
    command.enqueued();
    return XGPU_STATUS_SUCCESS;
  });
}

}  // namespace xgpu::backend_cuda
