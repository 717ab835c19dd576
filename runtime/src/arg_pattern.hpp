// The argument pattern of a kernel's last launch whose checks passed: the kind, element type,
// vector lanes and value size of each argument. A launch with the same pattern passes the same
// checks against the kernel's signature (kind, address space, type), so those run once per
// kernel and pattern instead of once per launch; what depends on the values (an empty buffer,
// a buffer of another context, local memory of 0 bytes, an integer converted to the
// parameter's type) is still checked at every launch. Matching the pattern is one
// comparison, where the signature's checks are most of what preparing a launch's arguments
// costs (docs/BENCHMARKS.md counts a launch's instructions).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "xgpu/kernel_args.hpp"

namespace xgpu::detail {

class ArgPattern {
 public:
  /// Whether arguments of the C++ types behind `types` (detail::ArgTypes) have the recorded
  /// pattern: the launch's one compare when the same call site launches again. Arguments
  /// chosen at run time (KernelArgs) have no token (nullptr): their pattern is compared.
  bool matches(const void* types) const { return recorded_ && types == types_ && types != nullptr; }

  /// Whether `args` have the recorded pattern (never before the first record()); when they
  /// do, `types` is remembered for the next launch (another library's token for one list).
  bool matches(const KernelArg* args, std::size_t count, const void* types) {
    if (!recorded_ || count != shapes_.size()) return false;
    for (std::size_t i = 0; i < count; ++i) {
      const Shape& shape = shapes_[i];
      const KernelArg& arg = args[i];
      if (shape.kind != arg.kind || shape.scalar != arg.scalar || shape.lanes != arg.lanes ||
          shape.size != value_size(arg) || !same_name(shape, arg.type_name)) {
        return false;
      }
    }
    types_ = types;
    return true;
  }

  /// Whether argument `index` of the recorded pattern was converted to the parameter's type:
  /// its check depends on the value and runs at every launch.
  bool converts(std::size_t index) const { return shapes_[index].converts; }

  /// Records the pattern of `args` (C++ types `types`), which passed every check.
  void record(const KernelArg* args, std::size_t count, const void* types) {
    types_ = types;
    shapes_.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
      const char* name = args[i].type_name;
      shapes_[i] = {args[i].kind,     args[i].scalar,      args[i].lanes, name != nullptr,
                    name ? name : "", value_size(args[i]), false};
    }
    recorded_ = true;
  }
  /// Argument `index` of the recorded pattern was converted: see converts().
  void mark_converted(std::size_t index) { shapes_[index].converts = true; }

 private:
  struct Shape {
    ArgKind kind;
    ScalarClass scalar;
    unsigned lanes;
    bool named;
    // A copy, not the pointer: the literal may live in a library unloaded since (a plugin
    // that launched this kernel and was dlclosed).
    std::string type_name;
    std::size_t size;
    bool converts;
  };

  // Local memory's size is this launch's choice, checked at every launch (0 is refused); the
  // other kinds' sizes are their C++ type's.
  static std::size_t value_size(const KernelArg& arg) {
    return arg.kind == ArgKind::local ? 0 : arg.size;
  }
  // By content: one OpenCL type name may sit at several addresses (one per library).
  static bool same_name(const Shape& shape, const char* name) {
    return name == nullptr ? !shape.named : shape.named && shape.type_name == name;
  }

  std::vector<Shape> shapes_;
  const void* types_ = nullptr;
  bool recorded_ = false;
};

}  // namespace xgpu::detail
