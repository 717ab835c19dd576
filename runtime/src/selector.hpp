// Device selectors: "gpu", "opencl:gpu:1", "nvidia:0", "cpu", "2", "pocl,cpu", ...
// A term is [backend:]what[:index]; the first device matching any term, in term order, wins.
// A term naming a backend sees every device of that module; a term naming none sees one
// device per physical device, its preferred alias (physical.hpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace xgpu::detail {

struct DeviceRecord;

struct SelectorTerm {
  std::string text;     ///< the term as written, for messages
  std::string backend;  ///< empty: any backend
  std::string what;     ///< gpu, cpu, accelerator, *, a vendor word, or empty for a plain index
  std::optional<std::size_t> index;  ///< n-th match (or n-th device for a plain index)
};

/// Throws xgpu::Error (invalid_selector) naming the part that does not parse.
std::vector<SelectorTerm> parse_selector(std::string_view selector,
                                         const std::vector<std::string>& backend_names);

/// The devices a term matches, in the order of `devices`.
std::vector<const DeviceRecord*> match_term(const SelectorTerm& term,
                                            const std::vector<const DeviceRecord*>& devices);

/// What a selector is matched against: `physical` (one device per physical device) for the
/// terms naming no backend, `backend` (every module's devices, aliases included) for the others.
struct DeviceLists {
  const std::vector<const DeviceRecord*>& physical;
  const std::vector<const DeviceRecord*>& backend;
};

/// Every device matched by any term, in term order, each once. With `with_aliases` (for
/// XGPU_VISIBLE_DEVICES), a term naming no backend matches a physical device together with
/// its aliases of `lists.backend`.
std::vector<const DeviceRecord*> match_selector_all(std::string_view selector,
                                                    const DeviceLists& lists,
                                                    const std::vector<std::string>& backend_names,
                                                    bool with_aliases = false);

/// The default when neither a selector nor XGPU_DEVICE is given.
inline constexpr const char* kDefaultSelector = "gpu,accelerator,cpu,*";

}  // namespace xgpu::detail
