// Handle<Kind>: the one RAII wrapper over a backend object (queue, buffer, event, ...).
// Copying retains, moving steals, destruction releases and never throws.
#pragma once

#include <cstdint>
#include <utility>
#include <xgpu/export.hpp>

namespace xgpu {
namespace detail {

struct Module;  // a loaded backend module (runtime/src/module.hpp)

/// Kinds of backend objects; the values are the ABI's XGPU_OBJECT_* numbers.
enum class ObjectKind : std::uint32_t {
  device = 1,
  context = 2,
  queue = 3,
  buffer = 4,
  program = 5,
  kernel = 6,
  event = 7
};

XGPU_API void retain_object(const Module* module, ObjectKind kind, void* raw);
XGPU_API void release_object(const Module* module, ObjectKind kind, void* raw) noexcept;

template <ObjectKind Kind>
class Handle {
 public:
  Handle() = default;
  /// Takes over a reference the caller already owns (a freshly created object).
  static Handle adopt(const Module* module, void* raw) { return Handle(module, raw); }
  /// Adds a reference of its own to an object somebody else owns.
  static Handle retain(const Module* module, void* raw) {
    if (raw) retain_object(module, Kind, raw);
    return Handle(module, raw);
  }

  Handle(const Handle& other) : module_(other.module_), raw_(other.raw_) {
    if (raw_) retain_object(module_, Kind, raw_);
  }
  Handle(Handle&& other) noexcept
      : module_(other.module_), raw_(std::exchange(other.raw_, nullptr)) {}
  Handle& operator=(const Handle& other) {
    if (this != &other) {
      Handle copy(other);
      swap(copy);
    }
    return *this;
  }
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      Handle taken(std::move(other));
      swap(taken);
    }
    return *this;
  }
  ~Handle() {
    if (raw_) release_object(module_, Kind, raw_);
  }

  void* get() const noexcept { return raw_; }
  const Module* module() const noexcept { return module_; }
  explicit operator bool() const noexcept { return raw_ != nullptr; }
  void swap(Handle& other) noexcept {
    std::swap(module_, other.module_);
    std::swap(raw_, other.raw_);
  }

 private:
  Handle(const Module* module, void* raw) : module_(module), raw_(raw) {}
  const Module* module_ = nullptr;
  void* raw_ = nullptr;
};

}  // namespace detail
}  // namespace xgpu
