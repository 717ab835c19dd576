// libFuzzer target for kernel signatures (runtime/src/signature.cpp): decode_signatures reads
// the "kernel(name|type|space,...)" text of a cache entry, digest() the driver's type names
// in it; then the argument checks of a launch run against what was read. Whatever decodes
// must encode and decode to the same parameters.
#include <array>
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "log.hpp"
#include "objects.hpp"
#include "signature.hpp"
#include "xgpu/error.hpp"

namespace {

using xgpu::detail::Parameter;

bool same(const Parameter& a, const Parameter& b) {
  return a.name == b.name && a.type_name == b.type_name && a.address_space == b.address_space &&
         a.pointer == b.pointer && a.element == b.element && a.lanes == b.lanes &&
         a.value_size == b.value_size;
}

void check_digest(const Parameter& p) {
  if (p.element.empty()) return;
  const bool lanes_ok =
      p.lanes == 1 || p.lanes == 2 || p.lanes == 3 || p.lanes == 4 || p.lanes == 8 || p.lanes == 16;
  if (!lanes_ok || p.value_size == 0 || (p.value_size % p.lanes != 0 && p.lanes != 3))
    xgpu_fuzz::fail("digest('" + p.type_name + "') gave " + std::to_string(p.lanes) + " lanes of " +
                    p.element + " in " + std::to_string(p.value_size) + " bytes");
}

// The arguments a launch can pass without a buffer: each is checked against every parameter
// read, and either fits or is refused with argument_type.
void check_arguments(const std::string& kernel_name, const std::vector<Parameter>& parameters) {
  static const std::int32_t int_value = -7;
  static const std::uint64_t ulong_value = ~std::uint64_t{0};
  static const float float_value = 2.0f;
  static const std::array<float, 4> float4_value{};
  xgpu::detail::KernelArg args[5];
  args[0] = xgpu::detail::make_arg(int_value);
  args[1] = xgpu::detail::make_arg(ulong_value);
  args[2] = xgpu::detail::make_arg(float_value);
  args[3] = xgpu::detail::make_arg(float4_value);
  args[4] = xgpu::detail::make_arg(xgpu::Local<float>(16));
  xgpu::detail::KernelState kernel;
  kernel.name = kernel_name;
  kernel.parameters = parameters;
  kernel.arg_count = parameters.size();
  kernel.signature_known = true;
  for (std::size_t index = 0; index < parameters.size(); ++index) {
    for (const auto& arg : args) {
      xgpu_kernel_arg_v1 out{};
      std::uint64_t converted = 0;
      try {
        xgpu::detail::prepare_argument(kernel, index, arg, nullptr, out, converted);
      } catch (const xgpu::Error& error) {
        if (error.code() != xgpu::Errc::argument_type)
          xgpu_fuzz::fail(std::string("a refused argument with another code: ") + error.what());
      }
    }
  }
}

}  // namespace

// Link-only: what signature.cpp's read_parameters (the driver's side, not fuzzed here) and
// the kernel state's handle would call. Never called; fail if they were.
spdlog::logger& xgpu::detail::logger(const std::string&) { xgpu_fuzz::fail("link stub"); }
std::string xgpu::detail::Module::status_name(xgpu_status) const { xgpu_fuzz::fail("link stub"); }
void xgpu::detail::release_object(const Module*, ObjectKind, void*) noexcept {
  xgpu_fuzz::fail("link stub");
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(xgpu_fuzz::as_text(data, size));
  const auto decoded = xgpu::detail::decode_signatures(text);
  const auto again = xgpu::detail::decode_signatures(xgpu::detail::encode_signatures(decoded));
  for (const auto& [kernel, parameters] : decoded) {
    for (const Parameter& parameter : parameters) check_digest(parameter);
    check_arguments(kernel, parameters);
  }
  auto round_trips = [&] {
    if (again.size() != decoded.size()) return false;
    for (const auto& [kernel, parameters] : decoded) {
      auto found = again.find(kernel);
      if (found == again.end() || found->second.size() != parameters.size()) return false;
      for (std::size_t i = 0; i < parameters.size(); ++i)
        if (!same(parameters[i], found->second[i])) return false;
    }
    return true;
  };
  if (!round_trips()) xgpu_fuzz::fail("decode(encode(decode(text))) differs from decode(text)");
  return 0;
}
