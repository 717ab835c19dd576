// Kernel signatures: the driver's parameter descriptions, and the rules by which a C++
// argument fits one. Integers convert when the value fits the parameter's type; floating
// point never converts silently (2.0 to a float parameter is an error: write 2.0f).
#include "signature.hpp"

#include <cstdlib>
#include <cstring>
#include <limits>

#include "internals.hpp"
#include "log.hpp"

namespace xgpu::detail {
namespace {

struct ScalarType {
  const char* name;
  unsigned size;
  ScalarClass kind;
};
constexpr ScalarType kScalars[] = {
    {"char", 1, ScalarClass::signed_integer},  {"uchar", 1, ScalarClass::unsigned_integer},
    {"short", 2, ScalarClass::signed_integer}, {"ushort", 2, ScalarClass::unsigned_integer},
    {"int", 4, ScalarClass::signed_integer},   {"uint", 4, ScalarClass::unsigned_integer},
    {"long", 8, ScalarClass::signed_integer},  {"ulong", 8, ScalarClass::unsigned_integer},
    {"half", 2, ScalarClass::floating},        {"float", 4, ScalarClass::floating},
    {"double", 8, ScalarClass::floating}};

const ScalarType* scalar_named(const std::string& name) {
  for (const auto& scalar : kScalars) {
    if (name == scalar.name) return &scalar;
  }
  return nullptr;
}

std::string describe_parameter(const Parameter& parameter) {
  const char* space = parameter.address_space == XGPU_ADDRESS_GLOBAL     ? "__global "
                      : parameter.address_space == XGPU_ADDRESS_CONSTANT ? "__constant "
                      : parameter.address_space == XGPU_ADDRESS_LOCAL    ? "__local "
                                                                         : "";
  return space + parameter.type_name;
}

std::string describe_argument(const KernelArg& arg) {
  std::string element = arg.type_name ? arg.type_name : "a struct";
  switch (arg.kind) {
    case ArgKind::buffer:
      return "Buffer<" + element + ">";
    case ArgKind::local:
      return "Local<" + element + ">";
    case ArgKind::null_buffer:
      return "nullptr";
    case ArgKind::scalar:
      if (arg.lanes > 1) return "std::array<" + element + ", " + std::to_string(arg.lanes) + ">";
      return arg.type_name ? element : "a " + std::to_string(arg.size * 8) + "-bit scalar";
    case ArgKind::bytes:
      return "a value of " + std::to_string(arg.size) + " bytes";
  }
  return "?";
}

[[noreturn]] void mismatch(const KernelState& kernel, std::size_t index, const std::string& why) {
  std::string name = kernel.parameters.size() > index ? kernel.parameters[index].name : "";
  throw Error(Errc::argument_type,
              "kernel '" + kernel.name + "' argument " + std::to_string(index) +
                  (name.empty() ? "" : " (" + name + ")") + ": " + why,
              "Queue::launch");
}

// Converts an integer argument to the parameter's integer type when the value fits.
bool convert_integer(const KernelArg& arg, const ScalarType& target, std::uint64_t& out,
                     std::string& value_text) {
  bool negative = false;
  std::uint64_t magnitude = 0;  // the value's bits as unsigned; negative handled apart
  if (arg.scalar == ScalarClass::signed_integer) {
    std::int64_t value = 0;
    switch (arg.size) {
      case 1:
        value = *static_cast<const std::int8_t*>(arg.value);
        break;
      case 2:
        value = *static_cast<const std::int16_t*>(arg.value);
        break;
      case 4:
        value = *static_cast<const std::int32_t*>(arg.value);
        break;
      default:
        value = *static_cast<const std::int64_t*>(arg.value);
        break;
    }
    negative = value < 0;
    magnitude = static_cast<std::uint64_t>(value);
    value_text = std::to_string(value);
  } else {
    switch (arg.size) {
      case 1:
        magnitude = *static_cast<const std::uint8_t*>(arg.value);
        break;
      case 2:
        magnitude = *static_cast<const std::uint16_t*>(arg.value);
        break;
      case 4:
        magnitude = *static_cast<const std::uint32_t*>(arg.value);
        break;
      default:
        magnitude = *static_cast<const std::uint64_t*>(arg.value);
        break;
    }
    value_text = std::to_string(magnitude);
  }
  const unsigned bits = target.size * 8;
  if (target.kind == ScalarClass::unsigned_integer) {
    if (negative) return false;
    if (bits < 64 && magnitude >> bits) return false;
  } else {
    const std::int64_t max =
        bits == 64 ? std::numeric_limits<std::int64_t>::max() : (std::int64_t{1} << (bits - 1)) - 1;
    const std::int64_t min = -max - 1;
    if (negative) {
      if (static_cast<std::int64_t>(magnitude) < min) return false;
    } else if (magnitude > static_cast<std::uint64_t>(max)) {
      return false;
    }
  }
  out = 0;
  std::memcpy(&out, &magnitude, target.size);  // little-endian truncation keeps the value
  return true;
}

void prepare_scalar(const KernelState& kernel, std::size_t index, const Parameter& parameter,
                    const KernelArg& arg, xgpu_kernel_arg_v1& out, std::uint64_t& converted) {
  if (arg.kind != ArgKind::scalar) {
    mismatch(kernel, index,
             "expects " + describe_parameter(parameter) + ", got " + describe_argument(arg));
  }
  if (parameter.lanes > 1 || arg.lanes > 1) {
    bool lanes_fit = arg.lanes == parameter.lanes || (parameter.lanes == 3 && arg.lanes == 4);
    if (!lanes_fit || !arg.type_name || parameter.element != arg.type_name) {
      mismatch(kernel, index,
               "expects " + describe_parameter(parameter) + ", got " + describe_argument(arg) +
                   (parameter.lanes == 3 ? " (pass a 3-vector as std::array<T, 4>)" : ""));
    }
    // std::array<float, 3> for a float3: the lanes agree, the sizes do not (OpenCL pads a
    // 3-vector to 4), and the driver would read past the value.
    if (arg.size != parameter.value_size) {
      mismatch(
          kernel, index,
          "expects " + describe_parameter(parameter) + " of " +
              std::to_string(parameter.value_size) + " bytes, got " + describe_argument(arg) +
              " of " + std::to_string(arg.size) + " bytes" +
              (parameter.lanes == 3 ? " (a 3-vector takes the room of 4: pass std::array<T, 4>)"
                                    : ""));
    }
    return;
  }
  if (arg.type_name && parameter.element == arg.type_name) return;  // the common case
  const ScalarType* target = scalar_named(parameter.element);
  bool both_integers = target->kind != ScalarClass::floating &&
                       arg.scalar != ScalarClass::floating && arg.scalar != ScalarClass::none;
  if (!both_integers) {
    std::string hint = (parameter.element == "float" && arg.scalar == ScalarClass::floating)
                           ? " (write a float literal such as 2.0f)"
                           : "";
    mismatch(kernel, index,
             "expects " + describe_parameter(parameter) + ", got " + describe_argument(arg) + hint);
  }
  std::string value_text;
  if (!convert_integer(arg, *target, converted, value_text)) {
    mismatch(kernel, index,
             "expects " + describe_parameter(parameter) + ", and the value " + value_text +
                 " does not fit it");
  }
  out.value = &converted;
  out.size = target->size;
}

}  // namespace

void digest(Parameter& parameter) {
  std::string type = parameter.type_name;
  while (!type.empty() && type.back() == ' ') type.pop_back();
  if (!type.empty() && type.back() == '*') {
    parameter.pointer = true;
    type.pop_back();
    while (!type.empty() && type.back() == ' ') type.pop_back();
  }
  std::size_t digits = type.find_last_not_of("0123456789") + 1;
  std::string base = type.substr(0, digits);
  // At most 16 lanes: a longer run of digits is no OpenCL type (and would overflow stoul,
  // or wrap to a lane count that looks right).
  const std::size_t lane_digits = type.size() - digits;
  unsigned lanes = lane_digits == 0   ? 1
                   : lane_digits <= 2 ? static_cast<unsigned>(std::stoul(type.substr(digits)))
                                      : 0;
  const ScalarType* scalar = scalar_named(base);
  if (scalar &&
      (lanes == 1 || lanes == 2 || lanes == 3 || lanes == 4 || lanes == 8 || lanes == 16)) {
    parameter.element = base;
    parameter.lanes = lanes;
    parameter.value_size = std::size_t{scalar->size} * (lanes == 3 ? 4 : lanes);
  }
}

std::string encode_signatures(const std::map<std::string, std::vector<Parameter>>& signatures) {
  std::string text;
  for (const auto& [kernel, parameters] : signatures) {
    if (!text.empty()) text += ';';
    text += kernel + "(";
    for (std::size_t i = 0; i < parameters.size(); ++i) {
      text += (i ? "," : "") + parameters[i].name + "|" + parameters[i].type_name + "|" +
              std::to_string(parameters[i].address_space);
    }
    text += ")";
  }
  return text;
}

std::map<std::string, std::vector<Parameter>> decode_signatures(const std::string& text) {
  std::map<std::string, std::vector<Parameter>> signatures;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t open = text.find('(', at), close = text.find(')', at);
    if (open == std::string::npos || close == std::string::npos || close < open) break;
    std::vector<Parameter>& parameters = signatures[text.substr(at, open - at)];
    std::string list = text.substr(open + 1, close - open - 1);
    std::size_t item = 0;
    while (item < list.size()) {
      std::size_t end = list.find(',', item);
      if (end == std::string::npos) end = list.size();
      std::string field = list.substr(item, end - item);
      std::size_t bar1 = field.find('|'), bar2 = field.rfind('|');
      if (bar1 != std::string::npos && bar2 != bar1) {
        Parameter parameter;
        parameter.name = field.substr(0, bar1);
        parameter.type_name = field.substr(bar1 + 1, bar2 - bar1 - 1);
        parameter.address_space =
            static_cast<std::uint32_t>(std::strtoul(field.c_str() + bar2 + 1, nullptr, 10));
        digest(parameter);
        parameters.push_back(parameter);
      }
      item = end + 1;
    }
    at = close + 1;
    if (at < text.size() && text[at] == ';') ++at;
  }
  return signatures;
}

std::vector<Parameter> read_parameters(const Module& module, xgpu_kernel kernel, std::size_t count,
                                       bool& known) {
  std::vector<Parameter> parameters(count);
  known = true;
  for (std::uint32_t i = 0; i < count && known; ++i) {
    Parameter& parameter = parameters[i];
    auto text = [&](std::uint32_t property, std::string& out) {
      auto query = [&](char* buffer, std::size_t capacity, std::size_t* size) {
        return module.table->kernel_arg_info(kernel, i, property, buffer, capacity, size);
      };
      return read_string(query, out);
    };
    std::uint64_t space = 0;
    std::size_t size = 0;
    xgpu_status status = text(XGPU_ARG_NAME, parameter.name);
    if (status == XGPU_STATUS_SUCCESS) status = text(XGPU_ARG_TYPE_NAME, parameter.type_name);
    if (status == XGPU_STATUS_SUCCESS) {
      status = module.table->kernel_arg_info(kernel, i, XGPU_ARG_ADDRESS_SPACE, &space,
                                             sizeof space, &size);
    }
    if (status != XGPU_STATUS_SUCCESS) {
      logger().debug("no argument info for a kernel ({}): only the argument count is checked",
                     module.status_name(status));
      known = false;
      break;
    }
    parameter.address_space = static_cast<std::uint32_t>(space);
    digest(parameter);
  }
  if (!known) parameters.clear();
  return parameters;
}

void bad_value(const KernelState& kernel, std::size_t index, const KernelArg& arg,
               const void* context) {
  auto name = [&] {
    return index < kernel.parameters.size() ? " (" + kernel.parameters[index].name + ")"
                                            : std::string();
  };
  if (arg.buffer && !detail::Internals::core(*arg.buffer).context) {
    throw Error(Errc::invalid_handle,
                "kernel '" + kernel.name + "' argument " + std::to_string(index) + name() +
                    ": the buffer is empty (default-constructed or moved-from)",
                "Queue::launch");
  }
  if (arg.buffer && detail::Internals::core(*arg.buffer).context != context) {
    throw Error(Errc::context_mismatch,
                "kernel '" + kernel.name + "' argument " + std::to_string(index) + name() +
                    ": the buffer belongs to another context than "
                    "the queue's",
                "Queue::launch");
  }
  if (arg.buffer && detail::Internals::core(*arg.buffer).offset != 0) {
    const std::size_t alignment =
        detail::Internals::core(*arg.buffer).device->info.base_address_alignment;
    throw Error(Errc::invalid_argument,
                "kernel '" + kernel.name + "' argument " + std::to_string(index) + name() +
                    ": the view starts " +
                    std::to_string(detail::Internals::core(*arg.buffer).start) +
                    " bytes into its buffer, not on a multiple of the device's base-address "
                    "alignment (" +
                    (alignment != 0 ? std::to_string(alignment) + " bytes"
                                    : std::string("unknown, taken as 4096 bytes")) +
                    "), so it is no buffer of its own a kernel can take; pass the whole buffer "
                    "and the element offset, or a view that starts on that alignment",
                "Queue::launch");
  }
  mismatch(kernel, index, "local memory of 0 bytes is not allowed");
}

void check_against_signature(const KernelState& kernel, std::size_t index, const KernelArg& arg,
                             xgpu_kernel_arg_v1& out, std::uint64_t& converted) {
  if (!kernel.signature_known) return;  // the driver will check sizes itself

  const Parameter& parameter = kernel.parameters[index];
  bool element_fits =
      parameter.element.empty() || (arg.type_name && parameter.element == arg.type_name);
  switch (parameter.address_space) {
    case XGPU_ADDRESS_GLOBAL:
    case XGPU_ADDRESS_CONSTANT:
      if (arg.kind == ArgKind::null_buffer) return;
      if (arg.kind != ArgKind::buffer || !element_fits) {
        mismatch(kernel, index,
                 "expects " + describe_parameter(parameter) + ", got " + describe_argument(arg));
      }
      return;
    case XGPU_ADDRESS_LOCAL:
      if (arg.kind != ArgKind::local || !element_fits) {
        mismatch(kernel, index,
                 "expects " + describe_parameter(parameter) +
                     " (pass xgpu::Local<T>(count)), got " + describe_argument(arg));
      }
      return;
    default:
      if (!parameter.element.empty())
        return prepare_scalar(kernel, index, parameter, arg, out, converted);
      if (arg.kind != ArgKind::bytes && arg.kind != ArgKind::scalar) {
        mismatch(kernel, index,
                 "expects " + describe_parameter(parameter) + ", got " + describe_argument(arg));
      }
  }
}

}  // namespace xgpu::detail
