// Names and sizes of libxgpu-mpi's enums.
#include <xgpu/mpi/types.hpp>

namespace xgpu::mpi {

const char* to_string(DataType type) noexcept {
  switch (type) {
    case DataType::f32:
      return "float";
    case DataType::f64:
      return "double";
    case DataType::f16:
      return "half";
    case DataType::i32:
      return "int32";
    case DataType::i64:
      return "int64";
    case DataType::u32:
      return "uint32";
  }
  return "unknown type";
}

const char* to_string(Op op) noexcept {
  switch (op) {
    case Op::sum:
      return "sum";
    case Op::min:
      return "min";
    case Op::max:
      return "max";
    case Op::prod:
      return "prod";
  }
  return "unknown operation";
}

const char* to_string(Transport transport) noexcept {
  switch (transport) {
    case Transport::automatic:
      return "auto";
    case Transport::mapped:
      return "mapped";
    case Transport::staged:
      return "staged";
    case Transport::nccl:
      return "nccl";
  }
  return "unknown transport";
}

std::size_t size_of(DataType type) noexcept {
  switch (type) {
    case DataType::f16:
      return 2;
    case DataType::f32:
    case DataType::i32:
    case DataType::u32:
      return 4;
    case DataType::f64:
    case DataType::i64:
      return 8;
  }
  return 0;
}

}  // namespace xgpu::mpi
