// xgpu::gemm: argument checks, the choice of engine, and the three engines (the backend's
// vendor BLAS, the host BLAS of host_blas.cpp, xgpu's own kernel of kernels/gemm.cl); and the
// mixed-precision form (half or bfloat16 in, float out) on the same engines.
#include "xgpu/algorithms/gemm.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <set>
#include <string>
#include <type_traits>
#include <utility>

#include "cast_launch.hpp"
#include "gemm_host_blas.hpp"
#include "support.hpp"

#if defined(__x86_64__) || defined(__i386__)
#define XGPU_GEMM_X86 1
#endif

namespace xgpu {

const char* to_string(GemmEngine engine) {
  switch (engine) {
    case GemmEngine::automatic:
      return "automatic";
    case GemmEngine::vendor_blas:
      return "vendor_blas";
    case GemmEngine::kernel:
      return "kernel";
    case GemmEngine::host_blas:
      return "host_blas";
  }
  return "unknown";
}

namespace detail {
namespace {

using namespace algo;
constexpr const char* kCall = "xgpu::gemm";

/// One call's matrices: op(A) is m x k, op(B) k x n, C m x n, all row-major and packed.
struct Problem {
  std::size_t m = 0, n = 0, k = 0;
  bool ta = false, tb = false;
  std::size_t lda() const { return ta ? m : k; }
  std::size_t ldb() const { return tb ? k : n; }
  std::size_t ldc() const { return n; }
};

template <class T>
using Real = scalar_t<T>;  // what the kernel computes in: float for half

// ---- Availability of each engine: "" when it can run, else the reason. ----

template <class T>
std::string vendor_missing(const Queue& queue) {
  if constexpr (std::is_same_v<T, half>) {
    if (!queue.device().info().fp16)
      return "the vendor BLAS's half GEMM needs cl_khr_fp16, which " + queue.device().describe() +
             " lacks";
  }
  return ext::vendor_gemm_missing(queue);
}

template <class T>
std::string host_missing(const Queue& queue, const Problem* problem) {
  if constexpr (std::is_same_v<T, half>) {
    return "a host BLAS has no half-precision GEMM";
  } else {
    const DeviceInfo& info = queue.device().info();
    if (!ext::shares_host_memory(info))
      return queue.device().describe() + " does not share memory with the host";
    constexpr std::size_t int_max = std::numeric_limits<int>::max();
    if (problem != nullptr &&
        (problem->m > int_max || problem->n > int_max || problem->k > int_max))
      return "the host BLAS takes sizes up to 2^31 - 1";
    std::string why;
    if (!host_blas_loaded(&why)) return why;
    return {};
  }
}

template <class T>
std::string engine_missing(const Queue& queue, GemmEngine engine, const Problem* problem) {
  switch (engine) {
    case GemmEngine::vendor_blas:
      return vendor_missing<T>(queue);
    case GemmEngine::host_blas:
      return host_missing<T>(queue, problem);
    default:
      return {};  // the kernel and the automatic choice always run
  }
}

// ---- The automatic choice ----

// The rule, per kind of device, from measurement: SGEMM at N = 1024 and 256 on a 2-core
// AVX-512 machine's PoCL CPU device, each engine in its own process, OpenBLAS once as it
// picked its kernels (it fell back to "Prescott") and once with OPENBLAS_CORETYPE=SkylakeX;
// CLBlast on PoCL was the slowest engine throughout.
// - A device that shares host memory, for float/double, with a tuned host BLAS (see
//   host_blas_tuned()): host_blas. A CPU BLAS that uses the vector units beats our kernel;
//   one that fell back to SSE kernels loses to it.
// - A real GPU with the vendor BLAS, for float/double: vendor_blas (CLBlast is tuned per
//   GPU; on a CPU it is the slowest engine). Not for half: CLBlast's HGEMM accumulates in
//   half, our kernel in float.
// - Otherwise xgpu's kernel: half, simulators (Oclgrind exists to check device code, so it
//   runs it), CPUs without a tuned host BLAS, devices without a library.
// Small sizes need no rule of their own: at N = 32 to 128 host_blas (map and unmap
// included) and the kernel measured close to each other.
template <class T>
GemmEngine rule(const Queue& queue, const Problem* problem) {
  const DeviceInfo& info = queue.device().info();
  if (ext::is_simulator(info)) return GemmEngine::kernel;
  if (host_missing<T>(queue, problem).empty() && host_blas_tuned(nullptr))
    return GemmEngine::host_blas;
  if (!std::is_same_v<T, half> && ext::is_gpu(info) && vendor_missing<T>(queue).empty())
    return GemmEngine::vendor_blas;
  return GemmEngine::kernel;
}

/// XGPU_GEMM (read once per process by the settings registry, whose words it allows).
GemmEngine engine_from_environment() {
  const std::string value = word_setting(common::Setting::gemm, kCall);
  if (value == "vendor_blas") return GemmEngine::vendor_blas;
  if (value == "kernel") return GemmEngine::kernel;
  if (value == "host_blas") return GemmEngine::host_blas;
  return GemmEngine::automatic;  // unset, auto or automatic
}

template <class T>
GemmEngine automatic_engine(const Queue& queue, const Problem* problem) {
  const GemmEngine forced = engine_from_environment();
  if (forced == GemmEngine::automatic) return rule<T>(queue, problem);
  const std::string missing = engine_missing<T>(queue, forced, problem);
  if (missing.empty()) return forced;
  // Said once per device and engine: a loop of GEMMs must not flood the log.
  static std::mutex mutex;
  static std::set<std::pair<std::string, GemmEngine>> warned;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (warned.emplace(queue.device().describe(), forced).second) {
      ext::log(ext::LogLevel::warn, "gemm",
               std::string("XGPU_GEMM=") + to_string(forced) + " ignored on " +
                   queue.device().describe() + ": " + missing);
    }
  }
  return rule<T>(queue, problem);
}

// ---- Engine: xgpu's kernel ----

/// The compile-time shape of kernels/gemm.cl (see the file's header).
struct Shape {
  std::size_t lx, ly, wm, wn, vw, tk;
  std::size_t tm() const { return wm * ly; }
  std::size_t tn() const { return wn * vw * lx; }
  std::size_t local_bytes(std::size_t real_size, bool ta, bool tb) const {
    const std::size_t pad = vw == 1 ? 1 : 0;
    const std::size_t a = ta ? tk * (tm() + pad) : tm() * (tk + pad);
    return (a + tk * (tn() + (tb ? pad : 0))) * real_size;
  }
};

/// Bytes of the host CPU's widest vector registers: a CPU OpenCL device runs on it.
std::size_t host_simd_bytes() {
#ifdef XGPU_GEMM_X86
  if (__builtin_cpu_supports("avx512f")) return 64;
  if (__builtin_cpu_supports("avx")) return 32;
#endif
  return 16;
}

/// The CPU shape for CPU devices, the GPU shape for the others, unless XGPU_GEMM_SHAPE says.
bool cpu_shape_wanted(const DeviceInfo& info) {
  return layout_for(info, common::Setting::gemm_shape, kCall) == Layout::cpu;
}

// The shape wanted for the device kind, before fitting it to the device's limits.
// CPU: one item holds WM x WN SIMD registers of C, fed per k step by WN vector loads and WM
// broadcasts; 64 items make 128 x 128 tiles of C (AVX-512, float), whose copy into local
// memory is cheap next to their multiply-adds. On PoCL at N = 1024 (GFLOP per CPU-second,
// the machine being shared), WM x WN = 8 x 2 with 4 x 16 items and K tiles of 64 beat
// 6 x 2, 8 x 3, 12 x 2 (4 x 8 items), 8 x 1 (8 x 16) and K tiles of 32 or 128. With 16
// registers (AVX2), 6 x 2 leaves room for the operands (not measured: no such machine).
// GPU: 16 x 16 items of 4 x 4 elements, a 64 x 64 tile of C, K tiles of 16: the classic
// shape, moderate in registers and local memory, for any vendor (on PoCL it makes 10).
Shape wanted_shape(const DeviceInfo& info, std::size_t real_size) {
  if (cpu_shape_wanted(info)) {
    const std::size_t simd = host_simd_bytes();
    const std::size_t vw = std::max<std::size_t>(simd / real_size, 1);
    return Shape{4, 16, simd >= 64 ? 8u : 6u, 2, vw, 64};
  }
  return Shape{16, 16, 4, 4, 1, 16};
}

constexpr std::uint64_t kNoLimit = std::numeric_limits<std::uint64_t>::max();

// Shrinks a shape until the device can run it: work-group size and item counts per
// dimension, then the tiles' local memory to `local` bytes (K tile first, then the register
// block). A transposed A is copied in vectors along M, so the M tile must stay a multiple of
// the vector width; the width is fitted before each measure of the tiles, so the shape
// returned fits with the width it keeps (a narrower width pads the tiles).
Shape fit_shape(Shape shape, const DeviceInfo& info, std::size_t max_items, std::uint64_t local,
                std::size_t real_size, bool ta, bool tb) {
  // A limit the driver did not report (0) limits nothing.
  max_items = std::max<std::size_t>(max_items, 1);
  const std::size_t max_x = info.max_work_item_sizes[0] ? info.max_work_item_sizes[0] : max_items;
  const std::size_t max_y = info.max_work_item_sizes[1] ? info.max_work_item_sizes[1] : max_items;
  while (shape.lx * shape.ly > max_items || shape.lx > max_x || shape.ly > max_y) {
    if ((shape.ly >= shape.lx || shape.lx == 1) && shape.ly > 1)
      shape.ly /= 2;
    else
      shape.lx /= 2;
  }
  const auto fit_vector = [&] {
    while (shape.vw > 1 && (shape.tk % shape.vw != 0 || (ta && shape.tm() % shape.vw != 0)))
      shape.vw /= 2;
  };
  fit_vector();
  // tk and vw are powers of two, so tk stays a multiple of vw.
  while (shape.local_bytes(real_size, ta, tb) > local && shape.tk > shape.vw) shape.tk /= 2;
  while (shape.local_bytes(real_size, ta, tb) > local && (shape.wm > 1 || shape.wn > 1)) {
    if (shape.wm >= shape.wn)
      shape.wm = (shape.wm + 1) / 2;
    else
      shape.wn /= 2;
    fit_vector();
  }
  return shape;
}

// The local memory the tiles of `shape` may take once `kernel` is built: the tiles are the
// kernel's own local memory (gemm.cl declares them), so what is free beside the kernel's
// declaration is added to theirs.
std::uint64_t tile_budget(const Kernel& kernel, const DeviceInfo& info, std::uint64_t tiles) {
  const std::uint64_t free = ext::free_local_memory(kernel, info);
  if (free == kNoLimit) return kNoLimit;
  if (free > 0) return free + tiles;
  // The kernel declares at least all the device has: what it declares beside the tiles.
  const std::uint64_t declared = kernel.limits().local_memory;
  const std::uint64_t beside = declared > tiles ? declared - tiles : 0;
  return info.local_memory > beside ? info.local_memory - beside : 0;
}

/// The build options of gemm.cl for inputs of T and output of C (C == T, or float for the
/// mixed-precision form).
template <class T, class C = T>
std::string kernel_options(const Shape& shape, bool ta, bool tb) {
  return std::string(Element<T>::options) + (std::is_same_v<T, C> ? "" : " -DXGPU_GEMM_C_FLOAT") +
         " -DXGPU_GEMM_LX=" + std::to_string(shape.lx) +
         " -DXGPU_GEMM_LY=" + std::to_string(shape.ly) +
         " -DXGPU_GEMM_WM=" + std::to_string(shape.wm) +
         " -DXGPU_GEMM_WN=" + std::to_string(shape.wn) +
         " -DXGPU_GEMM_VW=" + std::to_string(shape.vw) +
         " -DXGPU_GEMM_TK=" + std::to_string(shape.tk) + " -DXGPU_GEMM_TA=" + (ta ? "1" : "0") +
         " -DXGPU_GEMM_TB=" + (tb ? "1" : "0");
}

/// The shape for the queue's device, fitted to its limits (before the kernel's own).
template <class T>
Shape device_shape(const Queue& queue, bool ta, bool tb) {
  const DeviceInfo& info = queue.device().info();
  return fit_shape(wanted_shape(info, sizeof(Real<T>)), info, info.max_work_group_size,
                   info.local_memory ? info.local_memory : kNoLimit, sizeof(Real<T>), ta, tb);
}

template <class T, class C = T>
Event kernel_gemm(Queue& queue, const Problem& p, Real<T> alpha, const Buffer<T>& a,
                  const Buffer<T>& b, Real<T> beta, const Buffer<C>& c) {
  Shape shape = device_shape<T>(queue, p.ta, p.tb);
  Kernel kernel =
      library_kernel(queue, "gemm.cl", "xgpu_gemm", kernel_options<T, C>(shape, p.ta, p.tb));
  // The compiled kernel may allow fewer items than the device (registers), or declare local
  // memory beside its tiles: refit to it.
  const DeviceInfo& info = queue.device().info();
  for (;;) {
    const std::size_t allowed = kernel.limits().max_work_group_size, items = shape.lx * shape.ly;
    const std::uint64_t tiles = shape.local_bytes(sizeof(Real<T>), p.ta, p.tb);
    const std::uint64_t budget = tile_budget(kernel, info, tiles);
    const bool items_fit = allowed == 0 || items <= allowed || items == 1;
    if (items_fit && tiles <= budget) break;
    const Shape refitted =
        fit_shape(shape, info, items_fit ? items : allowed, budget, sizeof(Real<T>), p.ta, p.tb);
    if (refitted.lx == shape.lx && refitted.ly == shape.ly && refitted.wm == shape.wm &&
        refitted.wn == shape.wn && refitted.vw == shape.vw && refitted.tk == shape.tk)
      break;  // nothing smaller to try: the launch reports what the device refuses
    shape = refitted;
    kernel = library_kernel(queue, "gemm.cl", "xgpu_gemm", kernel_options<T, C>(shape, p.ta, p.tb));
  }
  const auto u = [](std::size_t value) { return static_cast<unsigned>(value); };
  const Range global{ceil_div(p.n, shape.tn()) * shape.lx, ceil_div(p.m, shape.tm()) * shape.ly};
  return queue.launch(kernel, global, Range{shape.lx, shape.ly}, u(p.m), u(p.n), u(p.k), alpha, a,
                      u(p.lda()), b, u(p.ldb()), beta, c, u(p.ldc()));
}

/// C = beta * C, for k == 0 or alpha == 0: no product to form, A and B not read. Its kernel
/// comes from the program of the untransposed GEMM, which is then built only once.
template <class T>
Event scale_c(Queue& queue, std::size_t count, Real<T> beta, const Buffer<T>& c) {
  if (beta == Real<T>(1)) return Event();
  const Kernel kernel =
      library_kernel(queue, "gemm.cl", "xgpu_gemm_scale",
                     kernel_options<T>(device_shape<T>(queue, false, false), false, false));
  const std::size_t group = work_group_size(kernel);
  return queue.launch(kernel, Range{round_up(count, group)}, Range{group},
                      static_cast<unsigned>(count), beta, c);
}

// ---- Engine: the backend's vendor BLAS ----

template <class T>
Event vendor_gemm(Queue& queue, const Problem& p, Real<T> alpha, const Buffer<T>& a,
                  const Buffer<T>& b, Real<T> beta, const Buffer<T>& c) {
  ext::VendorGemm call;
  call.precision = ext::precision_of<T>();
  call.transpose_a = p.ta;
  call.transpose_b = p.tb;
  call.m = p.m;
  call.n = p.n;
  call.k = p.k;
  call.alpha = static_cast<double>(alpha);
  call.beta = static_cast<double>(beta);
  call.lda = p.lda();
  call.ldb = p.ldb();
  call.ldc = p.ldc();
  return ext::vendor_gemm(queue, call, a, b, c);
}

// ---- Checks ----

std::size_t checked_product(std::size_t x, std::size_t y, const char* what) {
  if (x != 0 && y > std::numeric_limits<std::size_t>::max() / x)
    invalid(kCall, std::string(what) + " has more elements than memory can hold");
  return x * y;
}

// The buffer must hold its matrix and belong to the queue's context (not checked when the
// matrix is empty: then the buffer is not used).
template <class T>
void check_matrix(const Queue& queue, const Buffer<T>& buffer, const char* name, std::size_t rows,
                  std::size_t cols) {
  const std::size_t needed = checked_product(rows, cols, name);
  if (needed == 0) return;
  if (buffer.size() < needed) {
    invalid(kCall, std::string(name) + " (" + std::to_string(rows) + " x " + std::to_string(cols) +
                       ") needs at least " + std::to_string(needed) + " elements but has " +
                       std::to_string(buffer.size()));
  }
  if (!ext::belongs_to(buffer, queue.context())) {
    throw Error(Errc::context_mismatch,
                std::string(kCall) + ": " + name +
                    " belongs to another context than the queue's (allocate it from the "
                    "queue's Context)",
                kCall);
  }
  require_uint_size(needed, kCall);
}

// The product by `engine` (automatic: the rule), on buffers a kernel takes.
template <class T>
Event product(Queue& queue, const Problem& p, GemmEngine engine, scalar_t<T> alpha,
              const Buffer<T>& a, const Buffer<T>& b, scalar_t<T> beta, const Buffer<T>& c) {
  if (engine == GemmEngine::automatic) engine = automatic_engine<T>(queue, &p);
  switch (engine) {
    case GemmEngine::vendor_blas:
      return vendor_gemm<T>(queue, p, alpha, a, b, beta, c);
    case GemmEngine::host_blas:
      if constexpr (!std::is_same_v<T, half>) {
        host_blas_gemm<T>(queue, p.m, p.n, p.k, alpha, a, b, beta, c, p.ta, p.tb);
        return Event();
      }
      break;  // never chosen for half (host_missing says why)
    default:
      break;
  }
  return kernel_gemm<T>(queue, p, alpha, a, b, beta, c);
}

/// The mixed-precision form on the vendor or host BLAS: A and B converted to float on the
/// device (only their matrices' elements), then that engine's float GEMM. The temporaries may
/// go before the commands using them complete: the allocator keeps their memory until then.
template <class In>
Event converted_gemm(Queue& queue, const Problem& p, float alpha, const Buffer<In>& a,
                     const Buffer<In>& b, float beta, const Buffer<float>& c, GemmEngine engine) {
  const std::size_t a_count = p.m * p.k, b_count = p.k * p.n;
  Buffer<float> fa = queue.context().alloc<float>(a_count);
  launch_cast(queue, a, fa, a_count);
  // A * A^T passes one buffer twice: convert it once, as much of it as either matrix needs.
  Buffer<float> fb = fa;
  if (!ext::same_buffer(a, b) || b_count > a_count) {
    fb = queue.context().alloc<float>(b_count);
    launch_cast(queue, b, fb, b_count);
  }
  if (engine == GemmEngine::host_blas) {
    host_blas_gemm<float>(queue, p.m, p.n, p.k, alpha, fa, fb, beta, c, p.ta, p.tb);
    return Event();
  }
  return vendor_gemm<float>(queue, p, alpha, fa, fb, beta, c);
}

/// The checks of both forms, before any work: the engines' type `Compute` on the queue, the
/// matrices' sizes, C apart from its inputs, and an engine asked for (explicitly or in
/// XGPU_GEMM) available even when there is nothing to compute: a call's errors do not depend
/// on its sizes.
template <class Compute, class In, class Out>
Problem checked_problem(Queue& queue, std::size_t m, std::size_t n, std::size_t k,
                        const Buffer<In>& a, const Buffer<In>& b, const Buffer<Out>& c,
                        Transpose ta, Transpose tb, GemmEngine engine) {
  require_type<Compute>(queue, kCall);
  const Problem p{m, n, k, ta == Transpose::yes, tb == Transpose::yes};
  check_matrix(queue, a, "a", p.ta ? k : m, p.ta ? m : k);
  check_matrix(queue, b, "b", p.tb ? n : k, p.tb ? k : n);
  check_matrix(queue, c, "c", m, n);
  if (m != 0 && n != 0 && k != 0 && (ext::overlap(c, a) || ext::overlap(c, b)))
    invalid(kCall,
            "c must not be the buffer of a or b, nor overlap them (the product would overwrite "
            "its input)");
  if (engine == GemmEngine::automatic) engine_from_environment();
  if (engine != GemmEngine::automatic) {
    const std::string missing = engine_missing<Compute>(queue, engine, &p);
    if (!missing.empty()) {
      throw Error(
          Errc::unsupported,
          std::string(kCall) + ": the " + to_string(engine) + " engine is unavailable: " + missing,
          kCall);
    }
  }
  return p;
}

}  // namespace

template <class T>
Event gemm_impl(Queue& queue, std::size_t m, std::size_t n, std::size_t k, scalar_t<T> alpha,
                const Buffer<T>& a, const Buffer<T>& b, scalar_t<T> beta, const Buffer<T>& c,
                Transpose ta, Transpose tb, GemmEngine engine) {
  const Problem p = checked_problem<T>(queue, m, n, k, a, b, c, ta, tb, engine);
  if (m == 0 || n == 0) return Event();
  // beta == 0 never reads C; A and B are read only when there is a product to form.
  const algo::Staged<T> staged_c(queue, c,
                                 beta == scalar_t<T>(0) ? algo::Use::write : algo::Use::read_write);
  // BLAS semantics: no product to form, A and B are not read (whatever they hold).
  if (k == 0 || alpha == scalar_t<T>(0))
    return staged_c.finish(queue, scale_c<T>(queue, m * n, beta, staged_c.get()));
  const algo::Staged<T> staged_a(queue, a, algo::Use::read);
  const algo::Staged<T> staged_b(queue, ext::same_buffer(a, b) ? staged_a.get() : b,
                                 algo::Use::read);
  return staged_c.finish(queue, product<T>(queue, p, engine, alpha, staged_a.get(), staged_b.get(),
                                           beta, staged_c.get()));
}

template <class In>
Event gemm_mixed_impl(Queue& queue, std::size_t m, std::size_t n, std::size_t k, float alpha,
                      const Buffer<In>& a, const Buffer<In>& b, float beta, const Buffer<float>& c,
                      Transpose ta, Transpose tb, GemmEngine engine) {
  // The engines are float's (the kernel reads In itself; the others convert to float first),
  // so float's availability, rule and XGPU_GEMM apply.
  const Problem p = checked_problem<float>(queue, m, n, k, a, b, c, ta, tb, engine);
  if (m == 0 || n == 0) return Event();
  // Views staged as gemm_impl stages them.
  const algo::Staged<float> staged_c(queue, c,
                                     beta == 0.0f ? algo::Use::write : algo::Use::read_write);
  if (k == 0 || alpha == 0.0f)
    return staged_c.finish(queue, scale_c<float>(queue, m * n, beta, staged_c.get()));
  const algo::Staged<In> staged_a(queue, a, algo::Use::read);
  const algo::Staged<In> staged_b(queue, ext::same_buffer(a, b) ? staged_a.get() : b,
                                  algo::Use::read);
  if (engine == GemmEngine::automatic) engine = automatic_engine<float>(queue, &p);
  const Event done = engine == GemmEngine::vendor_blas || engine == GemmEngine::host_blas
                         ? converted_gemm(queue, p, alpha, staged_a.get(), staged_b.get(), beta,
                                          staged_c.get(), engine)
                         : kernel_gemm<In, float>(queue, p, alpha, staged_a.get(), staged_b.get(),
                                                  beta, staged_c.get());
  return staged_c.finish(queue, done);
}

template <class T>
GemmEngine chosen_gemm_engine_impl(const Queue& queue) {
  require_type<T>(queue, "xgpu::chosen_gemm_engine");
  return automatic_engine<T>(queue, nullptr);
}

template <class T>
bool gemm_engine_available_impl(const Queue& queue, GemmEngine engine, std::string* why) {
  require_type<T>(queue, "xgpu::gemm_engine_available");
  const std::string missing = engine_missing<T>(queue, engine, nullptr);
  if (!missing.empty() && why != nullptr) *why = missing;
  return missing.empty();
}

#define XGPU_GEMM_INSTANTIATE(T)                                                                 \
  template Event gemm_impl<T>(Queue&, std::size_t, std::size_t, std::size_t, scalar_t<T>,        \
                              const Buffer<T>&, const Buffer<T>&, scalar_t<T>, const Buffer<T>&, \
                              Transpose, Transpose, GemmEngine);                                 \
  template GemmEngine chosen_gemm_engine_impl<T>(const Queue&);                                  \
  template bool gemm_engine_available_impl<T>(const Queue&, GemmEngine, std::string*);
XGPU_GEMM_INSTANTIATE(float)
XGPU_GEMM_INSTANTIATE(double)
XGPU_GEMM_INSTANTIATE(half)
#undef XGPU_GEMM_INSTANTIATE
#define XGPU_GEMM_MIXED_INSTANTIATE(In)                                                    \
  template Event gemm_mixed_impl<In>(Queue&, std::size_t, std::size_t, std::size_t, float, \
                                     const Buffer<In>&, const Buffer<In>&, float,          \
                                     const Buffer<float>&, Transpose, Transpose, GemmEngine);
XGPU_GEMM_MIXED_INSTANTIATE(half)
XGPU_GEMM_MIXED_INSTANTIATE(bfloat16)
#undef XGPU_GEMM_MIXED_INSTANTIATE

}  // namespace detail
}  // namespace xgpu
