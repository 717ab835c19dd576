// select_device: a rank's device, from its rank among the ranks of its node.
#include <atomic>
#include <cstdlib>
#include <set>
#include <string>
#include <xgpu/extension.hpp>
#include <xgpu/mpi/comm.hpp>

#include "errors.hpp"
#include "xgpu/common/settings.hpp"

namespace xgpu::mpi {
namespace {

constexpr const char* kCall = "xgpu::mpi::select_device";

// Whether XGPU_DEVICE is set: then xgpu::select() reads it, as everywhere in xgpu.
bool device_variable_set() { return !common::setting_text(common::Setting::device).empty(); }

// The devices of the best kind present: GPUs, else accelerators, else CPUs. Type words never
// match a simulator (Oclgrind), which a program names itself when it wants one.
std::vector<Device> default_candidates() {
  for (const char* kind : {"gpu", "accelerator", "cpu"}) {
    std::vector<Device> found = select_all(kind);
    if (!found.empty()) return found;
  }
  return {};
}

// Each physical device once: two modules may show one GPU (the same UUID, else the same PCI
// bus id); the first, in xgpu's order, stands for it. Devices that report neither are distinct.
// (When xgpu::devices() lists each physical device once by itself, this keeps every device.)
std::vector<Device> one_per_physical(const std::vector<Device>& devices) {
  std::set<std::string> seen;
  std::vector<Device> kept;
  for (const Device& device : devices) {
    const DeviceInfo& info = device.info();
    const std::string identity = !info.uuid.empty()         ? "uuid:" + info.uuid
                                 : !info.pci_bus_id.empty() ? "pci:" + info.pci_bus_id
                                                            : std::string();
    if (!identity.empty() && !seen.insert(identity).second) continue;
    kept.push_back(device);
  }
  return kept;
}

}  // namespace

Device select_device(const Comm& comm, std::string_view selector) {
  // The node split is collective: every rank makes it, whichever way it then chooses.
  const Comm node = Comm::node(comm);
  if (device_variable_set()) return select();
  const std::vector<Device> candidates =
      one_per_physical(selector.empty() ? default_candidates() : select_all(selector));
  if (candidates.empty()) {
    detail::fail(Errc::no_device,
                 selector.empty()
                     ? std::string("no GPU, accelerator or CPU device is visible")
                     : "no device matches the selector '" + std::string(selector) + "'",
                 kCall);
  }
  const auto count = static_cast<int>(candidates.size());
  if (node.size() > count) {
    static std::atomic<bool> warned{false};
    if (!warned.exchange(true)) {
      ext::log(ext::LogLevel::warn, "mpi",
               std::to_string(node.size()) + " ranks on this node share " + std::to_string(count) +
                   " device(s): node rank r uses device r mod " + std::to_string(count));
    }
  }
  return candidates[static_cast<std::size_t>(node.rank() % count)];
}

}  // namespace xgpu::mpi
