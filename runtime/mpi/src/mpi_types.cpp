// MPI's datatypes and operations for xgpu's (mpi_types.hpp).
#include "mpi_types.hpp"

#include <array>
#include <mutex>
#include <xgpu/half.hpp>

#include "errors.hpp"

namespace xgpu::mpi::detail {
namespace {

// inout[i] = in[i] (op) inout[i] for half, through float: the nearest half of the exact float
// result (a sum or product of two halves is exact in float but for rare products' underflow).
template <class Combine>
void reduce_half(void* in, void* inout, int* length, MPI_Datatype*) {
  const auto* a = static_cast<const half*>(in);
  auto* b = static_cast<half*>(inout);
  for (int i = 0; i < *length; ++i) b[i] = to_half(Combine{}(to_float(a[i]), to_float(b[i])));
}
struct Sum {
  float operator()(float a, float b) const { return a + b; }
};
struct Min {
  float operator()(float a, float b) const { return b < a ? b : a; }
};
struct Max {
  float operator()(float a, float b) const { return b > a ? b : a; }
};
struct Prod {
  float operator()(float a, float b) const { return a * b; }
};

std::array<MPI_Op, 4> half_ops() {
  static std::once_flag once;
  static std::array<MPI_Op, 4> ops{};
  std::call_once(once, [] {
    MPI_User_function* functions[] = {reduce_half<Sum>, reduce_half<Min>, reduce_half<Max>,
                                      reduce_half<Prod>};
    for (std::size_t i = 0; i < ops.size(); ++i)
      check_mpi(MPI_Op_create(functions[i], 1, &ops[i]), "MPI_Op_create");
  });
  return ops;
}

}  // namespace

MPI_Datatype mpi_type(DataType type) {
  switch (type) {
    case DataType::f32:
      return MPI_FLOAT;
    case DataType::f64:
      return MPI_DOUBLE;
    case DataType::f16:
      return MPI_UINT16_T;
    case DataType::i32:
      return MPI_INT32_T;
    case DataType::i64:
      return MPI_INT64_T;
    case DataType::u32:
      return MPI_UINT32_T;
  }
  fail(Errc::invalid_argument, "unknown element type", "xgpu::mpi");
}

MPI_Op mpi_op(DataType type, Op op) {
  const auto index = static_cast<std::size_t>(op);
  if (index > 3) fail(Errc::invalid_argument, "unknown reduction operation", "xgpu::mpi");
  if (type == DataType::f16) return half_ops()[index];
  const MPI_Op builtin[] = {MPI_SUM, MPI_MIN, MPI_MAX, MPI_PROD};
  return builtin[index];
}

}  // namespace xgpu::mpi::detail
