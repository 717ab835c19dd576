// How C++ values become kernel arguments: each argument is described (kind, OpenCL type
// name, bytes) so the core can check it against the kernel's signature before launching.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>
#include <xgpu/bfloat16.hpp>
#include <xgpu/buffer.hpp>
#include <xgpu/half.hpp>

namespace xgpu {
class KernelArgs;
namespace detail {

enum class ArgKind : std::uint8_t { scalar, buffer, null_buffer, local, bytes };
enum class ScalarClass : std::uint8_t { none, signed_integer, unsigned_integer, floating };

/// OpenCL C's name for a C++ scalar type; nullptr for types OpenCL has no name for.
template <class T>
struct ClName {
  static constexpr const char* value = nullptr;
};
template <>
struct ClName<char> {
  static constexpr const char* value = "char";
};
template <>
struct ClName<signed char> {
  static constexpr const char* value = "char";
};
template <>
struct ClName<unsigned char> {
  static constexpr const char* value = "uchar";
};
template <>
struct ClName<short> {
  static constexpr const char* value = "short";
};
template <>
struct ClName<unsigned short> {
  static constexpr const char* value = "ushort";
};
template <>
struct ClName<int> {
  static constexpr const char* value = "int";
};
template <>
struct ClName<unsigned> {
  static constexpr const char* value = "uint";
};
template <>
struct ClName<long> {
  static constexpr const char* value = "long";
};
template <>
struct ClName<unsigned long> {
  static constexpr const char* value = "ulong";
};
template <>
struct ClName<long long> {
  static constexpr const char* value = "long";
};
template <>
struct ClName<unsigned long long> {
  static constexpr const char* value = "ulong";
};
template <>
struct ClName<float> {
  static constexpr const char* value = "float";
};
template <>
struct ClName<double> {
  static constexpr const char* value = "double";
};
template <>
struct ClName<half> {
  static constexpr const char* value = "half";
};
// OpenCL C has no bfloat16: kernels take its bits as ushort (kernels/xgpu_bfloat16.cl).
template <>
struct ClName<bfloat16> {
  static constexpr const char* value = "ushort";
};

template <class T>
constexpr ScalarClass scalar_class() {
  if constexpr (std::is_floating_point_v<T>)
    return ScalarClass::floating;
  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>)
    return ScalarClass::signed_integer;
  else if constexpr (std::is_integral_v<T>)
    return ScalarClass::unsigned_integer;
  else
    return ScalarClass::none;
}

/// One argument as the core sees it. `value` points at the caller's object, which lives
/// until the launch call returns.
struct KernelArg {
  ArgKind kind = ArgKind::bytes;
  ScalarClass scalar = ScalarClass::none;
  const char* type_name = nullptr;  ///< element/scalar type in OpenCL C, nullptr if none
  unsigned lanes = 1;               ///< vector width for std::array<T, N> arguments
  const void* value = nullptr;
  std::size_t size = 0;  ///< bytes of the value; for local memory, bytes to reserve
  const UntypedBuffer* buffer = nullptr;
};

/// One address per list of argument types (per shared library that launches with it). Every
/// property of a described argument but a buffer's identity, a value and Local<T>'s count
/// follows from its C++ type, so launches whose lists share a token have arguments of the same
/// kinds and types, and the core skips the checks it made for the first (one compare).
template <class... Args>
struct ArgTypes {
  static constexpr char token = 0;
};

template <class T>
struct IsStdArray : std::false_type {};
template <class T, std::size_t N>
struct IsStdArray<std::array<T, N>> : std::true_type {};

template <class T>
KernelArg make_arg(const Buffer<T>& buffer) {
  KernelArg arg;
  arg.kind = ArgKind::buffer;
  arg.type_name = ClName<T>::value;
  arg.buffer = &buffer.untyped();
  return arg;
}

template <class T>
KernelArg make_arg(const Local<T>& local) {
  KernelArg arg;
  arg.kind = ArgKind::local;
  arg.type_name = ClName<T>::value;
  arg.size = local.count * sizeof(T);
  return arg;
}

inline KernelArg make_arg(std::nullptr_t) {
  KernelArg arg;
  arg.kind = ArgKind::null_buffer;
  return arg;
}

template <class T>
KernelArg make_arg(const T& value) {
  static_assert(!std::is_same_v<T, KernelArgs>,
                "pass xgpu::KernelArgs with an xgpu::Launch: queue.launch(kernel, "
                "xgpu::Launch(range), args)");
  static_assert(!std::is_pointer_v<T>,
                "a raw pointer cannot be a kernel argument: pass an xgpu::Buffer");
  static_assert(!std::is_same_v<T, bool>, "OpenCL kernels cannot take bool arguments");
  static_assert(std::is_trivially_copyable_v<T>,
                "kernel arguments passed by value must be trivially copyable");
  KernelArg arg;
  arg.value = &value;
  arg.size = sizeof(T);
  if constexpr (std::is_arithmetic_v<T>) {
    arg.kind = ArgKind::scalar;
    arg.scalar = scalar_class<T>();
    arg.type_name = ClName<T>::value;
  } else if constexpr (IsStdArray<T>::value) {
    using Element = typename T::value_type;
    arg.kind = ArgKind::scalar;
    arg.scalar = scalar_class<Element>();
    arg.type_name = ClName<Element>::value;
    arg.lanes = static_cast<unsigned>(std::tuple_size<T>::value);
  } else {
    arg.kind = ArgKind::bytes;  // a struct: only the driver can check its size
  }
  return arg;
}

}  // namespace detail

/// Kernel arguments chosen at run time, for callers that know them only then (a language
/// binding, a generic dispatcher): queue.launch(kernel, xgpu::Launch(range), args). add() takes
/// what launch() takes as an argument, and the launch checks them the same way. Values are
/// copied in; buffers are referred to and must outlive the launch call (not the command: the
/// allocator's ordering covers that). Reuse one object with clear() to launch without
/// allocating.
class KernelArgs {
 public:
  template <class T>
  KernelArgs& add(const Buffer<T>& buffer) {
    return push(detail::make_arg(buffer), nullptr, 0);
  }
  template <class T>
  KernelArgs& add(const Local<T>& local) {
    return push(detail::make_arg(local), nullptr, 0);
  }
  KernelArgs& add(std::nullptr_t) { return push(detail::make_arg(nullptr), nullptr, 0); }
  /// A value: a scalar, a vector as std::array<T, N>, or a trivially copyable struct.
  template <class T>
  KernelArgs& add(const T& value) {
    return push(detail::make_arg(value), &value, sizeof(T));
  }

  /// A by-value struct given as its bytes (OpenCL reports no struct's size: the driver checks
  /// it), for callers that know the struct only at run time.
  KernelArgs& add_bytes(const void* data, std::size_t bytes) {
    detail::KernelArg arg;
    arg.kind = detail::ArgKind::bytes;
    arg.size = bytes;
    return push(arg, data, bytes);
  }

  std::size_t size() const noexcept { return args_.size(); }
  void clear() noexcept {
    args_.clear();
    value_at_.clear();
    values_.clear();
  }
  const detail::KernelArg* data() const noexcept { return args_.data(); }

 private:
  static constexpr std::size_t kNoValue = static_cast<std::size_t>(-1);
  // Copies the value into 8-byte aligned storage (the core reads integers through the pointer
  // to convert them), and points every argument back at its copy when the storage moved.
  KernelArgs& push(detail::KernelArg arg, const void* value, std::size_t bytes) {
    std::size_t at = kNoValue;
    if (value != nullptr) {
      at = values_.size();
      const auto* old = values_.data();
      values_.resize(at + (bytes + 7) / 8);
      std::memcpy(values_.data() + at, value, bytes);
      if (values_.data() != old) {
        for (std::size_t i = 0; i < args_.size(); ++i) {
          if (value_at_[i] != kNoValue) args_[i].value = values_.data() + value_at_[i];
        }
      }
      arg.value = values_.data() + at;
    }
    args_.push_back(arg);
    value_at_.push_back(at);
    return *this;
  }

  std::vector<detail::KernelArg> args_;
  std::vector<std::size_t> value_at_;  ///< where each value's copy is in values_
  std::vector<std::uint64_t> values_;
};

}  // namespace xgpu
