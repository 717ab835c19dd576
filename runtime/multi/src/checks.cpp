// The argument checks the header's templates share: each throws one xgpu::Error naming the
// call and the mistake.
#include <string>

#include "group_state.hpp"

namespace xgpu::detail {

void check_owner(const GroupState& group, const GroupState* owner, const char* call) {
  if (owner == &group) return;
  throw Error(Errc::invalid_argument,
              std::string(call) + ": " +
                  (owner == nullptr ? "the Distributed is empty (default-constructed)"
                                    : "the Distributed was made by another DeviceGroup (a "
                                      "Distributed is used only with the group that made it)"),
              call);
}

void check_index(std::size_t index, std::size_t size, const char* call) {
  if (index < size) return;
  throw Error(Errc::out_of_range,
              std::string(call) + ": device " + std::to_string(index) + " of a group of " +
                  std::to_string(size),
              call);
}

void check_host(const void* host, std::size_t count, const char* call) {
  if (host != nullptr || count == 0) return;
  throw Error(
      Errc::invalid_argument,
      std::string(call) + ": the host pointer is null for " + std::to_string(count) + " elements",
      call);
}

void check_equal_sizes(const GroupState& group, const std::vector<std::size_t>& sizes,
                       const char* call) {
  for (std::size_t i = 1; i < sizes.size(); ++i) {
    if (sizes[i] == sizes[0]) continue;
    throw Error(Errc::invalid_argument,
                std::string(call) + ": device " + std::to_string(i) + " (" +
                    group.members[i].device.describe() + ") holds " + std::to_string(sizes[i]) +
                    " elements but device 0 holds " + std::to_string(sizes[0]) +
                    " (every device needs the same count, e.g. from broadcast())",
                call);
  }
}

}  // namespace xgpu::detail
