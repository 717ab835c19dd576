// blas_gemm: the vendor-tuned GEMM of the opencl module, through CLBlast's C API.
//
// CLBlast is opened at first use through xgpu::common::DynamicLibrary (kClblastLibrary: the
// files tried and the XGPU_CLBLAST_LIBRARY override, named once for the module and `xgpu
// bench library`), never linked: the module loads and serves everything else without it,
// and blas_gemm then answers XGPU_STATUS_UNSUPPORTED with last_error saying what was tried.
//
// - A call with m == 0 or n == 0 enqueues nothing; it only opens the library (the core
//   probes availability that way). CLBlast refuses k == 0: the core never sends it.
// - The wait list: CLBlast's functions take none, so a barrier with the wait list is
//   enqueued first; later commands of the queue (CLBlast's kernels) start after it, without
//   blocking the caller.
// - The event out is the one CLBlast returns for its last kernel.
// - The body runs under guard_compiling(queue): CLBlast builds its kernels at its first call
//   on a device, and calls the driver directly, so the serialization quirks must cover it.
// - half: alpha and beta are rounded to half (to nearest even, by OpenCL's own cl_half.h,
//   as the core's xgpu::to_half rounds), as CLBlast's HGEMM takes them; it also
//   accumulates in half.
// - Lifetime: CLBlast keeps its programs (and so their contexts) in process-wide caches;
//   every context it ran on is reported to clblast_lifetime.cpp, which empties those caches
//   before the context's last release and at exit, while the drivers are whole. CLBlast is
//   never closed (the static below lives until exit): it may hold driver objects until then.
#include <string>

#include "cl.hpp"
#include "clblast_lifetime.hpp"
#include "entries.hpp"
#include "errors.hpp"
#include "event_queue_refs.hpp"
#include "serialized_call.hpp"
#include "wait_list.hpp"
#include "xgpu/common/blas_libraries.hpp"
#include "xgpu/common/dynamic_library.hpp"
#include "xgpu/common/log.hpp"
#include "xgpu/common/status_names.hpp"

namespace xgpu::backend_opencl {
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

// The three functions (and CLBlastClearCache, optional), all taken from one library that stays
// loaded for the process, or all NULL: a candidate lacking one is closed inside
// DynamicLibrary::open(), before any pointer into it is taken, so no pointer can outlive the
// library it points into.
struct Clblast {
  common::DynamicLibrary library;
  ClblastSgemm sgemm = nullptr;
  ClblastDgemm dgemm = nullptr;
  ClblastHgemm hgemm = nullptr;
  ClblastClearCache clear_cache = nullptr;
};

Clblast open_clblast() {
  Clblast clblast;
  clblast.library = common::DynamicLibrary::open(common::kClblastLibrary,
                                                 {"CLBlastSgemm", "CLBlastDgemm", "CLBlastHgemm"});
  if (!clblast.library.loaded()) return clblast;
  XGPU_LOG_DEBUGF("blas_gemm: CLBlast from %s", clblast.library.path().c_str());
  clblast.sgemm = clblast.library.function<ClblastSgemm>("CLBlastSgemm");
  clblast.dgemm = clblast.library.function<ClblastDgemm>("CLBlastDgemm");
  clblast.hgemm = clblast.library.function<ClblastHgemm>("CLBlastHgemm");
  clblast.clear_cache = clblast.library.function<ClblastClearCache>("CLBlastClearCache");
  return clblast;
}

const Clblast& clblast() {
  static const Clblast loaded = open_clblast();  // thread-safe, once per process
  return loaded;
}

// CLBlast's own statuses: kCLBlastNoHalfPrecision, ... and their names.
enum ClblastStatus : int {
#define XGPU_CLBLAST_STATUS(name, value) k##name = value,
#include "clblast_status_table.def"
#undef XGPU_CLBLAST_STATUS
};
constexpr common::StatusName kClblastStatusNames[] = {
#define XGPU_CLBLAST_STATUS(name, value) {value, #name},
#include "clblast_status_table.def"
#undef XGPU_CLBLAST_STATUS
};

// CLBlast's codes in OpenCL's range are OpenCL's: reported as the CL status they are. Its
// own codes keep their value, with their name in the text; a missing precision is
// XGPU_STATUS_UNSUPPORTED.
void check_clblast(int status, const char* function) {
  if (status == 0) return;
  if (status > -1000) fail_call(status, function);
  const char* name = common::find_status_name(kClblastStatusNames, status);
  const std::string text = std::string(function) +
                           " failed: " + (name != nullptr ? name : "CLBlast status") + " (" +
                           std::to_string(status) + ")";
  if (status == kCLBlastNoHalfPrecision || status == kCLBlastNoDoublePrecision)
    fail(XGPU_STATUS_UNSUPPORTED, text);
  fail(status, text);
}

// Tells clblast_lifetime.cpp which context and device CLBlast now holds programs of. Runs
// after the GEMM was enqueued, so it never throws: a failed query is logged, and that
// context is then emptied only at exit.
void note_clblast_used(cl_command_queue queue, const Clblast& library) {
  cl_context context = nullptr;
  cl_device_id device = nullptr;
  if (clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof context, &context, nullptr) !=
          CL_SUCCESS ||
      clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, nullptr) !=
          CL_SUCCESS) {
    XGPU_LOG_WARNF("CLBlast ran on a queue whose context or device cannot be read");
    return;
  }
  clblast_used(context, device, library.clear_cache);
}

}  // namespace

xgpu_status blas_gemm(xgpu_queue queue, const xgpu_gemm_v1* gemm, const xgpu_wait_v1* wait,
                      xgpu_event* event) {
  return guard_compiling(queue, [&] {
    if (gemm == nullptr || gemm->struct_size < sizeof(xgpu_gemm_v1))
      fail(XGPU_STATUS_INVALID_VALUE, "blas_gemm: gemm is NULL or older than xgpu_gemm_v1");
    const Clblast& library = clblast();
    if (!library.library.loaded()) fail(XGPU_STATUS_UNSUPPORTED, library.library.why_not());
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
        check_clblast(
            library.hgemm(kClblastRowMajor, ta, tb, gemm->m, gemm->n, gemm->k,
                          cl_half_from_float(static_cast<float>(gemm->alpha), CL_HALF_RTE), a,
                          gemm->a_offset, gemm->lda, b, gemm->b_offset, gemm->ldb,
                          cl_half_from_float(static_cast<float>(gemm->beta), CL_HALF_RTE), c,
                          gemm->c_offset, gemm->ldc, &cl_queue, list.event_out),
            "CLBlastHgemm");
        break;
      default:
        fail(XGPU_STATUS_INVALID_VALUE,
             "blas_gemm: unknown precision " + std::to_string(gemm->precision));
    }
    hold_queue_for_event(cl_queue, list.event_out);
    note_clblast_used(cl_queue, library);
    return XGPU_STATUS_SUCCESS;
  });
}

}  // namespace xgpu::backend_opencl
