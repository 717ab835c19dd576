// The choice of transport (transport_for) and the rule on drivers' host memory.
#include "transport.hpp"

#include <string>
#include <xgpu/extension.hpp>
#include <xgpu/mpi/comm.hpp>

#include "errors.hpp"
#include "nccl.hpp"
#include "settings.hpp"

namespace xgpu::mpi {

namespace detail {

bool host_memory_safe_for_mpi(const DeviceInfo& info) {
  return ext::is_cpu(info) || (ext::is_gpu(info) && info.hardware_vendor == "nvidia");
}

}  // namespace detail

Transport transport_for(const Device& device, Transport requested) {
  const Transport wanted =
      requested != Transport::automatic ? requested : detail::settings().transport;
  if (wanted == Transport::nccl) {
    std::string why;
    if (!detail::nccl_usable(device, nullptr, &why))
      detail::fail(Errc::unsupported,
                   "the nccl transport cannot serve " + device.describe() + ": " + why,
                   "xgpu::mpi::transport_for");
    return wanted;
  }
  if (wanted != Transport::automatic) return wanted;
  if (detail::nccl_usable(device, nullptr, nullptr)) return Transport::nccl;
  return ext::is_cpu(device.info()) ? Transport::mapped : Transport::staged;
}

}  // namespace xgpu::mpi
