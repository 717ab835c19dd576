// Devices: what the backends found, their properties, and how a program picks one.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
#include <xgpu/export.hpp>

namespace xgpu {
namespace detail {
struct DeviceRecord;
/// The library's own way to the state behind a public object (runtime/src/internals.hpp; not
/// installed).
struct Internals;
}  // namespace detail

/// Bits of DeviceInfo::type; a simulator such as Oclgrind may report several.
struct DeviceType {
  static constexpr std::uint32_t cpu = 1, gpu = 2, accelerator = 4;
};

/// Everything xgpu knows about a device, read once when the backend is loaded.
struct XGPU_API DeviceInfo {
  std::string backend;  ///< module name: "opencl"
  std::string platform_name, platform_vendor, platform_version;
  std::string name;
  std::string vendor;           ///< as the driver reports it
  std::uint32_t vendor_id = 0;  ///< PCI vendor id as reported (PoCL: 0x8086 for any CPU)
  std::string hardware_vendor;  ///< who made the silicon: nvidia, amd, intel, ..., unknown
  std::string implementation;   ///< who wrote the driver: nvidia, amd, intel, pocl, oclgrind, ...
  std::uint32_t type = 0;       ///< DeviceType bits
  std::string device_version, driver_version, language_version;
  std::uint64_t global_memory = 0, max_allocation = 0, local_memory = 0;
  std::uint64_t max_parameter_size = 0;
  /// Largest __constant buffer argument (CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE); 0: not reported.
  std::uint64_t max_constant_buffer_size = 0;
  /// Bytes a sub-buffer's offset must be a multiple of; 0 when the driver does not say.
  std::uint64_t base_address_alignment = 0;
  std::uint32_t compute_units = 0, clock_mhz = 0;
  std::size_t max_work_group_size = 0;
  std::array<std::size_t, 3> max_work_item_sizes{};
  std::size_t work_group_multiple = 1;  ///< preferred work-group size multiple
  bool fp16 = false, fp64 = false, ecc = false, host_unified_memory = false, images = false;
  /// The global size need not be a multiple of the work-group size (the last group is
  /// smaller), for programs built with -cl-std=CL2.0 or later.
  bool non_uniform_work_groups = false;
  std::vector<std::string> extensions;
  std::string uuid;        ///< 32 hex digits, empty when the driver does not say
  std::string pci_bus_id;  ///< "dddd:bb:dd.f", empty when the driver does not say
  std::vector<std::pair<std::string, std::string>> vendor_extras;  ///< compute_capability, ...
  /// Properties whose query failed, keyed by the field's name in this struct
  /// ("global_memory"), with the reason: shown in place of the value.
  std::map<std::string, std::string> query_errors;

  bool has_extension(std::string_view name) const;
  /// "gpu", "cpu", "accelerator", or several joined by '|'.
  std::string type_name() const;
};

/// One device of one backend. A cheap value: devices live as long as the process.
///
/// One GPU seen by two modules (NVIDIA's OpenCL and CUDA) is two Devices that are aliases of
/// each other: same physical_id(), each listed in the other's aliases(). xgpu::devices() and
/// every selector that names no backend show it once, through the module first in
/// XGPU_BACKEND_ORDER (docs/backends.md); "cuda:0" still names the CUDA one.
class XGPU_API Device {
 public:
  Device() = default;
  const DeviceInfo& info() const;
  /// Position in xgpu::devices() (one per physical device, the numbering of `xgpu query`);
  /// for an alias devices() does not list, the position of the alias it lists.
  std::size_t index() const;
  /// The selector that names exactly this device: "opencl:0", "cuda:1" (its module and its
  /// position among that module's visible devices).
  std::string selector() const;
  /// "opencl:0 pthread-skylake-avx512-Intel(R) Xeon(R) Processor (pocl)": selector(), name,
  /// driver maker.
  std::string describe() const;
  /// "uuid:<32 hex digits>" where the driver reports the device's UUID, else "pci:dddd:bb:dd.f",
  /// else empty: a device without an identity is never an alias. A simulated (profile)
  /// device has none.
  std::string physical_id() const;
  /// The same physical device through other modules, visible ones only; never a device of
  /// this one's module.
  std::vector<Device> aliases() const;
  /// Whether `other` is this physical device through another module.
  bool is_alias_of(const Device& other) const;
  /// Bytes of device memory free now, asked of the driver on each call, where it says
  /// (AMD's CL_DEVICE_GLOBAL_FREE_MEMORY_AMD); nothing where it does not (NVIDIA's OpenCL,
  /// PoCL, Oclgrind): never an estimate.
  std::optional<std::uint64_t> free_memory() const;
  explicit operator bool() const noexcept { return record_ != nullptr; }
  bool operator==(const Device& other) const noexcept { return record_ == other.record_; }
  bool operator!=(const Device& other) const noexcept { return record_ != other.record_; }

 private:
  friend struct detail::Internals;
  explicit Device(const detail::DeviceRecord* record) : record_(record) {}
  const detail::DeviceRecord* record_ = nullptr;
};

/// The visible devices of every backend (XGPU_VISIBLE_DEVICES applied), one per physical
/// device (through its preferred module), in a stable order. Throws xgpu::Error if
/// XGPU_VISIBLE_DEVICES or XGPU_BACKEND_ORDER does not parse.
XGPU_API std::vector<Device> devices();

/// Every visible device of every module, aliases included (`xgpu query --all-backends`), in
/// module order. Throws as devices() does.
XGPU_API std::vector<Device> backend_devices();

/// A device that XGPU_VISIBLE_DEVICES hides: its position among all devices of all backends
/// (the numbering XGPU_VISIBLE_DEVICES's indices use) and its properties.
struct HiddenDevice {
  std::size_t index = 0;
  DeviceInfo info;
};

/// The devices XGPU_VISIBLE_DEVICES hides, in backend order; empty when it is unset. When it
/// does not parse, devices() throws and every device is listed here. For diagnostics such as
/// `xgpu doctor`: a hidden device cannot be selected or used.
XGPU_API std::vector<HiddenDevice> hidden_devices();

/// The device a selector picks (see docs/selectors.md): "gpu", "opencl:gpu:1", "nvidia:0",
/// "cpu", "2", or several terms separated by commas, the first matching term winning. A term
/// naming a backend ("cuda:0") sees every device of that module; one naming none sees each
/// physical device once, as devices() lists them.
/// An empty selector means XGPU_DEVICE, else the default: a real GPU, then an
/// accelerator, then a CPU, then anything. Type words (gpu, cpu, accelerator) never
/// match a simulator such as Oclgrind, which claims every type: name it ("oclgrind"),
/// or use "*" or its index.
/// Throws xgpu::Error (invalid_selector or no_device) naming the problem.
XGPU_API Device select(std::string_view selector = {});

/// Like select(), but returns nothing instead of throwing when no device matches.
/// A selector that does not parse still throws.
XGPU_API std::optional<Device> find(std::string_view selector);

/// Every visible device matched by any term of the selector, in term order (the matches
/// of the first term, then the new matches of the second, ...), each once.
XGPU_API std::vector<Device> select_all(std::string_view selector);

/// A requirement filter such as "mem>=24G,fp64,fp16,cu>=8,wg>=256,ext=cl_khr_fp64".
class XGPU_API Requirements {
 public:
  /// Throws xgpu::Error (invalid_selector) naming the term that does not parse.
  static Requirements parse(std::string_view text);
  /// True when the device meets every requirement; otherwise the first unmet one is
  /// described in *why_not when given.
  bool met_by(const DeviceInfo& info, std::string* why_not = nullptr) const;

  struct Term {
    std::string key;  ///< mem, alloc, local, cu, wg, clock, fp16, fp64, ext, type, vendor
    std::string op;   ///< ">=", ">", "<=", "<", "=", or empty for a flag
    std::string value;
    std::uint64_t number = 0;
  };
  const std::vector<Term>& terms() const { return terms_; }

 private:
  std::vector<Term> terms_;
};

/// What happened to one backend module: loaded with N devices, or refused and why.
struct BackendReport {
  std::string name;  ///< "opencl", or the file name when the module could not be read
  std::string path;
  bool loaded = false;           ///< the module passed the ABI checks and initialised
  std::size_t device_count = 0;  ///< devices it offers (before XGPU_VISIBLE_DEVICES)
  std::string message;           ///< why it was refused or found nothing; empty when fine
  /// The module's vendor driver is not installed here (its init() answered
  /// XGPU_STATUS_NOT_AVAILABLE): `xgpu query` leaves it out of its notes, `--modules` shows it.
  bool driver_absent = false;
};

/// Every module the loader found or tried, in search order.
XGPU_API std::vector<BackendReport> backends();

/// The order in which modules serve a physical device that several of them see, first
/// preferred: XGPU_BACKEND_ORDER when set, else opencl then cuda (docs/backends.md says why).
/// Modules it does not name come after, in load order. Throws as devices() does.
XGPU_API std::vector<std::string> backend_order();

/// The folders searched for modules, in order (XGPU_BACKEND_PATH first).
XGPU_API std::vector<std::string> backend_search_path();

}  // namespace xgpu
