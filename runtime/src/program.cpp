// Program and Kernel: kernel lookup by name, and each kernel's signature.
#include <algorithm>
#include <type_traits>

#include "internals.hpp"
#include "objects.hpp"
#include "util/closest_word.hpp"

namespace xgpu {
namespace {

// Per-kernel limits when the module can tell them, else the device's, which bound them.
KernelLimits read_limits(const detail::Module& module, xgpu_kernel kernel,
                         const detail::DeviceRecord* device) {
  KernelLimits limits;
  limits.max_work_group_size = device->info.max_work_group_size;
  limits.preferred_multiple = device->info.work_group_multiple;
  if (!module.has(&xgpu_backend_v1::kernel_limit)) return limits;
  auto read = [&](std::uint32_t property, auto& field) {
    std::uint64_t value = 0;
    if (module.table->kernel_limit(kernel, device->raw, property, &value) == XGPU_STATUS_SUCCESS)
      field = static_cast<std::remove_reference_t<decltype(field)>>(value);
  };
  read(XGPU_KERNEL_MAX_WORK_GROUP_SIZE, limits.max_work_group_size);
  read(XGPU_KERNEL_PREFERRED_MULTIPLE, limits.preferred_multiple);
  read(XGPU_KERNEL_LOCAL_MEMORY, limits.local_memory);
  read(XGPU_KERNEL_PRIVATE_MEMORY, limits.private_memory);
  if (limits.preferred_multiple == 0) limits.preferred_multiple = 1;
  return limits;
}

}  // namespace

Kernel Program::kernel(std::string_view name) const {
  const auto& program = detail::state_of(state_, "Program");
  const auto& names = program.kernel_names;
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    std::string known;
    for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
    throw Error(Errc::unknown_kernel,
                program.source_name + " has no kernel named '" + std::string(name) + "'" +
                    util::did_you_mean(name, names) +
                    "; its kernels are: " + (known.empty() ? "(none)" : known),
                "Program::kernel");
  }
  const detail::Module& module = program.module();
  auto state = std::make_shared<detail::KernelState>();
  state->program = state_;
  state->name = std::string(name);
  xgpu_kernel raw = nullptr;
  detail::check(module,
                module.table->kernel_create(static_cast<xgpu_program>(program.handle.get()),
                                            state->name.c_str(), &raw),
                "creating a kernel", program.record);
  state->handle = detail::Handle<detail::ObjectKind::kernel>::adopt(&module, raw);
  std::uint32_t count = 0;
  detail::check(module, module.table->kernel_arg_count(raw, &count), "counting kernel arguments",
                program.record);
  state->arg_count = count;
  state->parameters = detail::read_parameters(module, raw, count, state->signature_known);
  if (!state->signature_known) {
    // Some drivers keep no argument info in programs made from binaries: use the
    // signature the cache saved when the program was first built from source.
    auto saved = program.saved_signatures.find(state->name);
    if (saved != program.saved_signatures.end() && saved->second.size() == count) {
      state->parameters = saved->second;
      state->signature_known = true;
    }
  }
  state->limits = read_limits(module, raw, program.record);
  return detail::Internals::kernel(std::move(state));
}

std::vector<std::string> Program::kernel_names() const {
  return detail::state_of(state_, "Program").kernel_names;
}
const std::string& Program::build_log() const {
  return detail::state_of(state_, "Program").build_log;
}
const std::string& Program::source_name() const {
  return detail::state_of(state_, "Program").source_name;
}

const std::string& Kernel::name() const { return detail::state_of(state_, "Kernel").name; }
std::size_t Kernel::arg_count() const { return detail::state_of(state_, "Kernel").arg_count; }
const KernelLimits& Kernel::limits() const { return detail::state_of(state_, "Kernel").limits; }
std::vector<std::string> Kernel::arg_names() const {
  std::vector<std::string> names;
  for (const auto& parameter : detail::state_of(state_, "Kernel").parameters) {
    names.push_back(parameter.name);
  }
  return names;
}

std::vector<KernelParameter> Kernel::parameters() const {
  std::vector<KernelParameter> described;
  for (const auto& parameter : detail::state_of(state_, "Kernel").parameters) {
    KernelParameter out;
    out.name = parameter.name;
    out.type = parameter.type_name;
    out.space = parameter.address_space == XGPU_ADDRESS_GLOBAL ? KernelParameter::Space::global
                : parameter.address_space == XGPU_ADDRESS_CONSTANT
                    ? KernelParameter::Space::constant
                : parameter.address_space == XGPU_ADDRESS_LOCAL ? KernelParameter::Space::local
                                                                : KernelParameter::Space::value;
    out.pointer = parameter.pointer;
    out.element = parameter.element;
    out.lanes = parameter.lanes;
    described.push_back(std::move(out));
  }
  return described;
}

}  // namespace xgpu
