// blas_gemm: the vendor-tuned GEMM of the opencl module, through CLBlast's C API.
//
// CLBlast is opened with dlopen at first use (XGPU_CLBLAST_LIBRARY, else libclblast.so.1),
// never linked: the module loads and serves everything else without it, and blas_gemm then
// answers XGPU_STATUS_UNSUPPORTED with last_error saying what was tried.
//
// - A call with m == 0 or n == 0 enqueues nothing; it only opens the library (the core
//   probes availability that way). CLBlast refuses k == 0: the core never sends it.
// - The wait list: CLBlast's functions take none, so a barrier with the wait list is
//   enqueued first; later commands of the queue (CLBlast's kernels) start after it, without
//   blocking the caller.
// - The event out is the one CLBlast returns for its last kernel.
// - The body runs under guard_compiling(queue): CLBlast builds its kernels at its first call
//   on a device, and calls the driver directly, so the serialization quirks must cover it.
// - half: alpha and beta are rounded to half, as CLBlast's HGEMM takes them; it also
//   accumulates in half.
#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <xgpu/half.hpp>

#include "cl.hpp"
#include "entries.hpp"
#include "errors.hpp"
#include "event_queue_refs.hpp"
#include "serialized_call.hpp"
#include "wait_list.hpp"

namespace xgpu::opencl {
namespace {

// CLBlast's C API as clblast_c.h declares it (values of its enums, the three prototypes),
// so that the module builds without CLBlast installed.
enum : int { kClblastRowMajor = 101, kClblastNo = 111, kClblastYes = 112 };
using ClblastSgemm = int (*)(int layout, int ta, int tb, size_t m, size_t n, size_t k, float alpha,
                             cl_mem a, size_t a_offset, size_t lda, cl_mem b, size_t b_offset,
                             size_t ldb, float beta, cl_mem c, size_t c_offset, size_t ldc,
                             cl_command_queue* queue, cl_event* event);
using ClblastDgemm = int (*)(int layout, int ta, int tb, size_t m, size_t n, size_t k, double alpha,
                             cl_mem a, size_t a_offset, size_t lda, cl_mem b, size_t b_offset,
                             size_t ldb, double beta, cl_mem c, size_t c_offset, size_t ldc,
                             cl_command_queue* queue, cl_event* event);
using ClblastHgemm = int (*)(int layout, int ta, int tb, size_t m, size_t n, size_t k,
                             cl_half alpha, cl_mem a, size_t a_offset, size_t lda, cl_mem b,
                             size_t b_offset, size_t ldb, cl_half beta, cl_mem c, size_t c_offset,
                             size_t ldc, cl_command_queue* queue, cl_event* event);

struct Clblast {
  ClblastSgemm sgemm = nullptr;
  ClblastDgemm dgemm = nullptr;
  ClblastHgemm hgemm = nullptr;
  std::string why_not;  // set when the library is unusable
};

Clblast open_clblast() {
  const char* chosen = std::getenv("XGPU_CLBLAST_LIBRARY");
  const std::string file = chosen != nullptr && *chosen != '\0' ? chosen : "libclblast.so.1";
  Clblast clblast;
  void* library = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* error = dlerror();
    clblast.why_not =
        "CLBlast could not be opened: " + (error != nullptr ? std::string(error) : file);
    return clblast;
  }
  clblast.sgemm = reinterpret_cast<ClblastSgemm>(dlsym(library, "CLBlastSgemm"));
  clblast.dgemm = reinterpret_cast<ClblastDgemm>(dlsym(library, "CLBlastDgemm"));
  clblast.hgemm = reinterpret_cast<ClblastHgemm>(dlsym(library, "CLBlastHgemm"));
  if (clblast.sgemm == nullptr || clblast.dgemm == nullptr || clblast.hgemm == nullptr) {
    clblast.why_not = file + " lacks CLBlastSgemm, CLBlastDgemm or CLBlastHgemm";
    clblast.sgemm = nullptr;
    dlclose(library);
  }
  return clblast;  // a usable library stays loaded for the process
}

const Clblast& clblast() {
  static const Clblast loaded = open_clblast();  // thread-safe, once per process
  return loaded;
}

// The names of CLBlast's own status codes (those outside OpenCL's range), for last_error.
const char* clblast_status_name(int status) {
  switch (status) {
    case -1024:
      return "CLBlastNotImplemented";
    case -1022:
      return "CLBlastInvalidMatrixA";
    case -1021:
      return "CLBlastInvalidMatrixB";
    case -1020:
      return "CLBlastInvalidMatrixC";
    case -1017:
      return "CLBlastInvalidDimension";
    case -1016:
      return "CLBlastInvalidLeadDimA";
    case -1015:
      return "CLBlastInvalidLeadDimB";
    case -1014:
      return "CLBlastInvalidLeadDimC";
    case -1011:
      return "CLBlastInsufficientMemoryA";
    case -1010:
      return "CLBlastInsufficientMemoryB";
    case -1009:
      return "CLBlastInsufficientMemoryC";
    case -2046:
      return "CLBlastInvalidLocalMemUsage";
    case -2045:
      return "CLBlastNoHalfPrecision";
    case -2044:
      return "CLBlastNoDoublePrecision";
    case -2041:
      return "CLBlastDatabaseError";
    case -2040:
      return "CLBlastUnknownError";
    case -2039:
      return "CLBlastUnexpectedError";
    default:
      return "CLBlast status";
  }
}

constexpr int kClblastNoHalf = -2045, kClblastNoDouble = -2044;

// CLBlast's codes in OpenCL's range are OpenCL's: reported as the CL status they are. Its
// own codes keep their value, with their name in the text; a missing precision is
// XGPU_STATUS_UNSUPPORTED.
void check_clblast(int status, const char* function) {
  if (status == 0) return;
  if (status > -1000) fail_call(status, function);
  const std::string text = std::string(function) + " failed: " + clblast_status_name(status) +
                           " (" + std::to_string(status) + ")";
  if (status == kClblastNoHalf || status == kClblastNoDouble) fail(XGPU_STATUS_UNSUPPORTED, text);
  fail(status, text);
}

}  // namespace

xgpu_status blas_gemm(xgpu_queue queue, const xgpu_gemm_v1* gemm, const xgpu_wait_v1* wait,
                      xgpu_event* event) {
  return guard_compiling(queue, [&] {
    if (gemm == nullptr || gemm->struct_size < sizeof(xgpu_gemm_v1))
      fail(XGPU_STATUS_INVALID_VALUE, "blas_gemm: gemm is NULL or older than xgpu_gemm_v1");
    const Clblast& library = clblast();
    if (library.sgemm == nullptr) fail(XGPU_STATUS_UNSUPPORTED, library.why_not);
    if (event != nullptr) *event = nullptr;
    if (gemm->m == 0 || gemm->n == 0) return XGPU_STATUS_SUCCESS;

    auto cl_queue = reinterpret_cast<cl_command_queue>(queue);
    WaitList list(wait, event);
    if (list.count != 0) {
      check(clEnqueueBarrierWithWaitList(cl_queue, list.count, list.events, nullptr),
            "clEnqueueBarrierWithWaitList");
    }
    const int ta = gemm->transpose_a ? kClblastYes : kClblastNo;
    const int tb = gemm->transpose_b ? kClblastYes : kClblastNo;
    auto a = reinterpret_cast<cl_mem>(gemm->a), b = reinterpret_cast<cl_mem>(gemm->b),
         c = reinterpret_cast<cl_mem>(gemm->c);
    switch (gemm->precision) {
      case XGPU_PRECISION_F32:
        check_clblast(library.sgemm(kClblastRowMajor, ta, tb, gemm->m, gemm->n, gemm->k,
                                    static_cast<float>(gemm->alpha), a, gemm->a_offset, gemm->lda,
                                    b, gemm->b_offset, gemm->ldb, static_cast<float>(gemm->beta), c,
                                    gemm->c_offset, gemm->ldc, &cl_queue, list.event_out),
                      "CLBlastSgemm");
        break;
      case XGPU_PRECISION_F64:
        check_clblast(
            library.dgemm(kClblastRowMajor, ta, tb, gemm->m, gemm->n, gemm->k, gemm->alpha, a,
                          gemm->a_offset, gemm->lda, b, gemm->b_offset, gemm->ldb, gemm->beta, c,
                          gemm->c_offset, gemm->ldc, &cl_queue, list.event_out),
            "CLBlastDgemm");
        break;
      case XGPU_PRECISION_F16:
        check_clblast(library.hgemm(kClblastRowMajor, ta, tb, gemm->m, gemm->n, gemm->k,
                                    to_half(static_cast<float>(gemm->alpha)).bits, a,
                                    gemm->a_offset, gemm->lda, b, gemm->b_offset, gemm->ldb,
                                    to_half(static_cast<float>(gemm->beta)).bits, c, gemm->c_offset,
                                    gemm->ldc, &cl_queue, list.event_out),
                      "CLBlastHgemm");
        break;
      default:
        fail(XGPU_STATUS_INVALID_VALUE,
             "blas_gemm: unknown precision " + std::to_string(gemm->precision));
    }
    hold_queue_for_event(cl_queue, list.event_out);
    return XGPU_STATUS_SUCCESS;
  });
}

}  // namespace xgpu::opencl
