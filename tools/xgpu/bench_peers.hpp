// The peers the `library` suite of `xgpu bench` measures xgpu against, loaded at run time so
// that the command runs (and says what is missing) on a machine without them: CLBlast's
// SGEMM on xgpu's own queue and a host BLAS's SGEMM (OpenBLAS) on host memory.
#pragma once

#include <string>
#include <xgpu/queue.hpp>

namespace xgpu::common {
struct LibrarySpec;
}

namespace xgpu::cli::bench {

/// A BLAS whose sgemm is row-major C = A * B on n x n matrices.
class Peer {
 public:
  /// Opens the library of `spec` (the same one xgpu opens for it, env override included) if
  /// it has `symbol`; loaded() says whether it did.
  Peer(const common::LibrarySpec& spec, const char* symbol);
  bool loaded() const { return function_ != nullptr; }
  /// Which library was loaded, or why none was.
  const std::string& description() const { return description_; }

 protected:
  void* function_ = nullptr;
  std::string description_;
};

/// CLBlast's SGEMM, enqueued on an xgpu queue (opencl backend) through the native handles.
class ClblastSgemm : public Peer {
 public:
  ClblastSgemm();
  /// Enqueues C = A * B (n x n) and waits for it; throws xgpu::Error on a CLBlast failure.
  void run(Queue& queue, const Buffer<float>& a, const Buffer<float>& b, const Buffer<float>& c,
           std::size_t n) const;
};

/// A host BLAS's cblas_sgemm on host arrays.
class HostSgemm : public Peer {
 public:
  HostSgemm();
  void run(const float* a, const float* b, float* c, std::size_t n) const;
};

}  // namespace xgpu::cli::bench
