// The host BLAS engine of xgpu::gemm: a C BLAS found at run time (the core links no BLAS),
// computing on device buffers that the host maps without copy. Only chosen for devices whose
// memory the host shares, where mapping costs nothing; on others it would still be correct,
// through the driver's copies.
//
// Threads: the BLAS keeps its own defaults (OpenBLAS: one thread per core, or
// OPENBLAS_NUM_THREADS).
#include <algorithm>
#include <cctype>
#include <exception>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>
#include <xgpu/common/blas_libraries.hpp>
#include <xgpu/extension.hpp>

#include "gemm_host_blas.hpp"
#include "support.hpp"

#if defined(__x86_64__) || defined(__i386__)
#define XGPU_HOST_BLAS_X86 1
#endif

namespace xgpu::detail::algo {
namespace {

// The CBLAS interface, as every CBLAS exports it (the values of its enums and the two
// prototypes), so that no BLAS header is needed to build the core. 32-bit int sizes: the
// LP64 interface of libopenblas.so.0 and the reference libblas.so.3.
enum : int { kCblasRowMajor = 101, kCblasNoTrans = 111, kCblasTrans = 112 };
using SgemmFn = void (*)(int layout, int ta, int tb, int m, int n, int k, float alpha,
                         const float* a, int lda, const float* b, int ldb, float beta, float* c,
                         int ldc);
using DgemmFn = void (*)(int layout, int ta, int tb, int m, int n, int k, double alpha,
                         const double* a, int lda, const double* b, int ldb, double beta, double* c,
                         int ldc);

struct HostBlas {
  SgemmFn sgemm = nullptr;
  DgemmFn dgemm = nullptr;
  std::string file;     ///< the library that serves
  std::string core;     ///< OpenBLAS's kernel family ("SkylakeX"); empty for another BLAS
  bool named = false;   ///< the user named it (XGPU_HOST_BLAS)
  std::string why_not;  ///< set when no library was found
};

// Opens the library of kHostBlasLibrary (the one `xgpu bench library` measures too); it
// stays loaded for the process.
HostBlas open_host_blas() {
  HostBlas blas;
  const common::DynamicLibrary library =
      common::DynamicLibrary::open(common::kHostBlasLibrary, {"cblas_sgemm", "cblas_dgemm"});
  if (!library.loaded()) {
    blas.why_not = "no host BLAS could be opened (" + library.why_not() + ")";
    return blas;
  }
  blas.sgemm = library.function<SgemmFn>("cblas_sgemm");
  blas.dgemm = library.function<DgemmFn>("cblas_dgemm");
  blas.file = library.path();
  blas.named = library.overridden();
  using CorenameFn = char* (*)();
  if (auto corename = library.function<CorenameFn>("openblas_get_corename")) {
    const char* core = corename();
    blas.core = core != nullptr ? core : "";
  }
  return blas;
}

const HostBlas& host_blas() {
  static const HostBlas blas = open_host_blas();  // thread-safe, once per process
  return blas;
}

bool same_name(const std::string& a, const char* b) {
  const std::size_t length = std::char_traits<char>::length(b);
  if (a.size() != length) return false;
  for (std::size_t i = 0; i < length; ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}
bool one_of(const std::string& core, std::initializer_list<const char*> names) {
  for (const char* name : names)
    if (same_name(core, name)) return true;
  return false;
}

}  // namespace

bool host_blas_loaded(std::string* why) {
  const HostBlas& blas = host_blas();
  if (blas.sgemm != nullptr) return true;
  if (why != nullptr) *why = blas.why_not;
  return false;
}

// OpenBLAS picks its kernels by the CPU model; a model it does not know gets an old
// family's kernels. On an AVX-512 virtual machine it chose "Prescott" (SSE3), several times
// slower than with OPENBLAS_CORETYPE=SkylakeX and slower than xgpu's own kernel.
bool host_blas_tuned(std::string* why) {
  if (!host_blas_loaded(why)) return false;
  const HostBlas& blas = host_blas();
  if (blas.named) return true;  // the user's choice
  const auto refuse = [&](const std::string& reason) {
    if (why != nullptr) *why = reason;
    return false;
  };
  if (blas.core.empty())
    return refuse(blas.file +
                  " is not OpenBLAS, so its speed is unknown (it may be the "
                  "reference BLAS); name it in XGPU_HOST_BLAS to use it anyway");
#ifdef XGPU_HOST_BLAS_X86
  const bool avx512 = __builtin_cpu_supports("avx512f"), avx2 = __builtin_cpu_supports("avx2");
  const bool fits = avx512 ? one_of(blas.core, {"SkylakeX", "Cooperlake", "SapphireRapids"})
                    : avx2 ? one_of(blas.core, {"Haswell", "Zen", "Excavator", "SkylakeX",
                                                "Cooperlake", "SapphireRapids"})
                           : true;
  if (!fits) {
    return refuse("OpenBLAS runs its " + blas.core + " kernels, which leave this CPU's " +
                  (avx512 ? "AVX-512" : "AVX2") +
                  " unused (OPENBLAS_CORETYPE can name a better family)");
  }
#endif
  return true;
}

namespace {

// Host pointers to device buffers for the duration of one host BLAS call. The maps are
// enqueued together and waited for once, and so are the unmaps: each wait is a round trip
// through the driver's queue (on PoCL a worker thread's wake-up), which at small sizes
// costs more than the product. Each map asks only for the access it needs, so a device
// that does copy (no shared memory) copies A and B one way and, when beta == 0, C one way.
class HostView {
 public:
  explicit HostView(Queue& queue) : queue_(queue) {}
  HostView(const HostView&) = delete;
  HostView& operator=(const HostView&) = delete;
  ~HostView() {
    try {
      unmap();
    } catch (const std::exception& e) {
      ext::log(ext::LogLevel::error, "gemm",
               std::string("unmapping after the host BLAS failed: ") + e.what());
    }
  }

  /// Enqueues the map of the first `count` elements of `buffer`; the pointer is valid after
  /// wait().
  template <class T>
  T* map(const Buffer<T>& buffer, std::size_t count, std::uint32_t access) {
    T* pointer = nullptr;
    pending_.push_back(ext::map_async(queue_, buffer, count, access, pointer));
    const Buffer<unsigned char> bytes = ext::reinterpret<unsigned char>(buffer);
    mapped_.push_back({bytes, pointer});
    return pointer;
  }

  /// Blocks until every map so far has completed.
  void wait() {
    for (const Event& event : pending_) event.wait();
    pending_.clear();
  }

  /// Unmaps everything (each buffer even when another fails) and waits for it, so that the
  /// device sees the host's writes; then throws the first failure, if any.
  void unmap() {
    std::vector<Event> unmaps;
    std::exception_ptr failed;
    for (const Mapped& m : mapped_) {
      try {
        unmaps.push_back(
            ext::unmap_async(queue_, m.buffer, static_cast<unsigned char*>(m.pointer)));
      } catch (const std::exception&) {
        if (!failed) failed = std::current_exception();
      }
    }
    mapped_.clear();
    pending_.clear();
    for (const Event& event : unmaps) event.wait();
    if (failed) std::rethrow_exception(failed);
  }

 private:
  struct Mapped {
    Buffer<unsigned char> buffer;
    void* pointer;
  };
  Queue& queue_;
  std::vector<Event> pending_;
  std::vector<Mapped> mapped_;
};

}  // namespace

template <class T>
void host_blas_gemm(Queue& queue, std::size_t m, std::size_t n, std::size_t k, T alpha,
                    const Buffer<T>& a, const Buffer<T>& b, T beta, const Buffer<T>& c, bool ta,
                    bool tb) {
  const HostBlas& blas = host_blas();
  HostView view(queue);
  // One mapping per buffer: A * A^T passes one buffer twice, and C is never A or B (gemm()
  // refuses it).
  const bool b_is_a = ext::same_buffer(a, b);
  const std::size_t a_count = b_is_a ? std::max(m * k, k * n) : m * k;
  const T* pa = view.map(a, a_count, ext::host_read);
  const T* pb = b_is_a ? pa : view.map(b, k * n, ext::host_read);
  // beta == 0: C is only written, so its old contents need not reach the host.
  const std::uint32_t c_access =
      beta == T(0) ? ext::host_write_invalidate : ext::host_read | ext::host_write;
  T* pc = view.map(c, m * n, c_access);
  view.wait();
  const int ia = static_cast<int>(ta ? m : k), ib = static_cast<int>(tb ? k : n);
  const int opa = ta ? kCblasTrans : kCblasNoTrans, opb = tb ? kCblasTrans : kCblasNoTrans;
  if constexpr (std::is_same_v<T, float>) {
    blas.sgemm(kCblasRowMajor, opa, opb, static_cast<int>(m), static_cast<int>(n),
               static_cast<int>(k), alpha, pa, ia, pb, ib, beta, pc, static_cast<int>(n));
  } else {
    blas.dgemm(kCblasRowMajor, opa, opb, static_cast<int>(m), static_cast<int>(n),
               static_cast<int>(k), alpha, pa, ia, pb, ib, beta, pc, static_cast<int>(n));
  }
  view.unmap();
}

template void host_blas_gemm<float>(Queue&, std::size_t, std::size_t, std::size_t, float,
                                    const Buffer<float>&, const Buffer<float>&, float,
                                    const Buffer<float>&, bool, bool);
template void host_blas_gemm<double>(Queue&, std::size_t, std::size_t, std::size_t, double,
                                     const Buffer<double>&, const Buffer<double>&, double,
                                     const Buffer<double>&, bool, bool);

}  // namespace xgpu::detail::algo
