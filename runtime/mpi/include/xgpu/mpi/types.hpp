// The vocabulary of libxgpu-mpi: element types, reduction operations and transports, each with
// its name. The typed API maps a C++ element type to its DataType at compile time; the untyped
// entry points (for bindings such as Python's, which know a dtype at run time) take it as a value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <xgpu/export.hpp>
#include <xgpu/half.hpp>

namespace xgpu::mpi {

/// The element types of the collectives.
enum class DataType : std::uint32_t { f32, f64, f16, i32, i64, u32 };
/// The reductions of allreduce, reduce, reduce_scatter and iallreduce.
enum class Op : std::uint32_t { sum, min, max, prod };

/// How a device's bytes reach MPI (docs/mpi.md):
/// - mapped: the buffer is mapped and MPI works on the mapping in place; chosen for devices that
///   are the host's own CPU (PoCL), whose mappings are ordinary process memory.
/// - staged: chunks move through pinned host staging buffers, double-buffered so the device's
///   copies of the neighbouring chunks overlap the MPI call on each chunk; every other device.
/// - nccl: allreduce runs on the device through NCCL (cuda-module devices, libnccl present).
/// automatic picks per device; XGPU_MPI_TRANSPORT forces one.
enum class Transport : std::uint32_t { automatic, mapped, staged, nccl };

XGPU_MPI_API const char* to_string(DataType type) noexcept;
XGPU_MPI_API const char* to_string(Op op) noexcept;
XGPU_MPI_API const char* to_string(Transport transport) noexcept;
/// Bytes of one element.
XGPU_MPI_API std::size_t size_of(DataType type) noexcept;

template <class T>
inline constexpr bool dependent_false = false;

/// The DataType of a C++ element type; any other type is a compile error.
template <class T>
constexpr DataType data_type_of() {
  if constexpr (std::is_same_v<T, float>)
    return DataType::f32;
  else if constexpr (std::is_same_v<T, double>)
    return DataType::f64;
  else if constexpr (std::is_same_v<T, half>)
    return DataType::f16;
  else if constexpr (std::is_same_v<T, std::int32_t>)
    return DataType::i32;
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return DataType::i64;
  else if constexpr (std::is_same_v<T, std::uint32_t>)
    return DataType::u32;
  else
    static_assert(dependent_false<T>, "xgpu::mpi takes float, double, half, int32, int64, uint32");
}

}  // namespace xgpu::mpi
