// Device selectors: "gpu", "opencl:gpu:1", "nvidia:0", "cpu", "2", "pocl,cpu", ...
// A term is [backend:]what[:index]; the first device matching any term, in term order, wins.
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

/// Every device matched by any term, in term order, each once.
std::vector<const DeviceRecord*> match_selector_all(std::string_view selector,
                                                    const std::vector<const DeviceRecord*>& devices,
                                                    const std::vector<std::string>& backend_names);

/// The default when neither a selector nor XGPU_DEVICE is given.
inline constexpr const char* kDefaultSelector = "gpu,accelerator,cpu,*";

}  // namespace xgpu::detail
