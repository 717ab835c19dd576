// `xgpu query`: chooses the devices to show (all, -d, --select, --require) and the view
// (table, -l tree, detail, --json), and turns what it found into an exit code.
#include "query.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>
#include <xgpu/common/settings.hpp>
#include <xgpu/device.hpp>
#include <xgpu/log.hpp>

#include "color.hpp"
#include "device_json.hpp"
#include "exit_codes.hpp"
#include "probe.hpp"
#include "profile_list.hpp"
#include "query_views.hpp"
#include "xgpu/common/opencl_loader.hpp"

namespace xgpu::cli {
namespace {

struct QueryOptions {
  bool list = false;
  bool json = false;
  bool probe = false;
  bool profiles = false;      // --profiles: the shipped profiles, no device opened
  bool modules = false;       // --modules: every backend module and its state, no devices
  bool all_backends = false;  // --all-backends: one row per module device, aliases included
  // -d and --select take a selector; given without one they mean the default pick
  // (XGPU_DEVICE, else the best device), so the flags say whether they were given at all.
  bool detail = false, pick = false;
  std::string device;   // -d: detail of the device this selector picks
  std::string select;   // --select: which device this selector picks
  std::string require;  // --require: only devices meeting every term
  ColorMode color = ColorMode::automatic;
};

const char* kQueryFooter = R"(Examples:
  xgpu query                          table of every device
  xgpu query -l                       one line per device, under its platform
  xgpu query --all-backends           one row per backend's device: a GPU that both
                                      opencl and cuda see is two rows
  xgpu query -d 0                     every property of device 0
  xgpu query -d nvidia --json         one device as JSON
  xgpu query --select opencl:gpu:1    which device this selector picks (exit 4 if none)
  xgpu query --require mem>=24G,fp64  devices with 24 GiB and fp64 (exit 1 if none)
  xgpu query --modules                every backend module, and why one offers no device
  xgpu query --probe                  check fp16, fp64, work-group size by running kernels
  xgpu query --profiles               the shipped device profiles (XGPU_PROFILE=NAME uses one)

Selectors: [backend:]what[:index], comma-separated, first match wins; what is a type
(gpu, cpu, accelerator, *), a vendor (nvidia, amd, intel, pocl, ...) or an index.
Requirement terms: mem, alloc, local, cu, wg, clock with >=, >, <=, <, = and a number
(sizes may end in K, M, G or T); the flags fp16, fp64, ecc, images, unified; ext=NAME;
type=gpu; vendor=amd. Both are described in full in docs/selectors.md.

Environment: XGPU_VISIBLE_DEVICES hides devices, XGPU_DEVICE is the default selector,
XGPU_BACKEND_PATH adds module folders, OCL_ICD_VENDORS is the OpenCL ICD folder, NO_COLOR,
XGPU_PROFILE adds simulated devices (docs/profiles.md), XGPU_PROFILE_DIR more profile folders.

Exit codes: 0 ok, 1 requirement not met or failure, 2 usage error,
3 no platform or device at all, 4 no device matches.
)";

// Says why nothing is there and what to do about it. Returns the exit code. The backend
// notes go to stdout with the other results, except in JSON, whose document holds them.
int explain_no_device(const std::vector<BackendReport>& reports, bool json, const Style& out_style,
                      const Style& err_style) {
  std::size_t offered = 0;
  for (const auto& report : reports) offered += report.device_count;
  if (!json) print_backend_notes(std::cout, reports, out_style);
  if (offered > 0) {
    std::cerr << "xgpu: " << offered << " device(s) found, but XGPU_VISIBLE_DEVICES="
              << common::setting_text(common::Setting::visible_devices) << " hides them all\n";
    return kExitNoMatch;
  }
  std::cerr << "xgpu: " << err_style.red("no compute device found") << '\n';
  if (reports.empty()) {
    std::cerr << "hint: no backend module was found; searched:";
    for (const auto& folder : backend_search_path()) std::cerr << ' ' << folder;
    std::cerr << " (add folders with XGPU_BACKEND_PATH)\n";
  }
  // Without the ICD loader no OpenCL driver can be reached: that is the fix, not a driver.
  const std::string& no_loader = common::opencl_loader_problem();
  if (!no_loader.empty()) {
    std::cerr << "hint: the OpenCL ICD loader libOpenCL.so.1 could not be opened (" << no_loader
              << "): " << common::kOpenClLoaderFix << "; `xgpu doctor` checks the rest\n";
    return kExitNoPlatform;
  }
  const char* vendors = std::getenv("OCL_ICD_VENDORS");
  std::cerr << "hint: install an OpenCL driver (on Debian, `apt install pocl-opencl-icd` gives a "
               "CPU device); the ICD loader reads .icd files from "
            << (vendors ? "OCL_ICD_VENDORS=" + std::string(vendors) + " (not /etc/OpenCL/vendors)"
                        : std::string("/etc/OpenCL/vendors, or from OCL_ICD_VENDORS when set"))
            << '\n';
  return kExitNoPlatform;
}

// Keeps the devices meeting every requirement; says on stderr why each other one does not.
std::vector<Device> meeting(const std::vector<Device>& devices, const Requirements& needs) {
  std::vector<Device> kept;
  for (const Device& device : devices) {
    std::string why_not;
    if (needs.met_by(device.info(), &why_not)) {
      kept.push_back(device);
    } else {
      std::cerr << "xgpu: device " << device.index() << " (" << device.info().name
                << ") does not meet the requirement: " << why_not << '\n';
    }
  }
  return kept;
}

int run_query(const QueryOptions& options) {
  const Style out_style(color_enabled(options.color, stdout));
  const Style err_style(color_enabled(options.color, stderr));
  // query reports refused modules itself, one line each; the loader's warnings would say it
  // all a second time. XGPU_LOG_LEVEL, when set, still wins.
  if (!common::read_setting(common::Setting::log_level)) set_log_level("error");
  if (options.profiles) return print_profiles(std::cout, options.json, out_style);

  // Parse everything the user typed before looking at devices, so that a typo is a usage
  // error (exit 2) even on a machine with no device.
  std::optional<Requirements> needs;
  if (!options.require.empty()) needs = Requirements::parse(options.require);
  const std::string& selector = options.detail ? options.device : options.select;
  const bool picking = options.detail || options.pick;
  std::optional<Device> picked;
  if (picking) picked = find(selector);

  const std::vector<BackendReport> reports = backends();
  if (options.modules) {
    print_modules(std::cout, reports, out_style);
    return reports.empty() ? kExitNoPlatform : kExitOk;
  }
  const std::vector<Device> visible = devices();
  if (visible.empty()) {
    if (options.json) std::cout << dump_json(query_json(reports, {})) << '\n';
    return explain_no_device(reports, options.json, out_style, err_style);
  }
  if (picking && !picked) {
    std::cerr << "xgpu: no device matches the selector '" << selector << "' (" << visible.size()
              << " visible; see `xgpu query`)\n";
    return kExitNoMatch;
  }

  std::vector<Device> shown = picking                ? std::vector<Device>{*picked}
                              : options.all_backends ? backend_devices()
                                                     : visible;
  if (needs) shown = meeting(shown, *needs);

  std::vector<ProbedDevice> probes;
  if (options.probe) probes = probe_all(shown, err_style);

  if (options.json) {
    Json document = query_json(reports, shown);
    for (std::size_t d = 0; d < probes.size(); ++d) {
      document["devices"][d]["probe"] = probe_json(probes[d].checks);
    }
    std::cout << dump_json(document) << '\n';
  } else if (options.list) {
    print_tree(std::cout, shown, out_style);
  } else if (options.detail) {
    for (const Device& device : shown) print_detail(std::cout, device, out_style);
  } else if (options.pick) {
    for (const Device& device : shown) print_pick(std::cout, device, out_style);
  } else if (!shown.empty()) {
    print_table(std::cout, shown, out_style, options.all_backends);
    print_backend_notes(std::cout, reports, out_style);
  }

  if (options.probe && !options.json && !shown.empty()) {
    std::cout << '\n';
    print_probe(std::cout, probes, out_style);
  }

  if (needs && shown.empty()) {
    std::cerr << "xgpu: no device meets '" << options.require << "'\n";
    return kExitFailure;
  }
  return options.probe ? probe_exit_code(probes) : kExitOk;
}

}  // namespace

Run setup_query(CLI::App& sub) {
  auto options = std::make_shared<QueryOptions>();
  sub.footer(kQueryFooter);
  auto* list = sub.add_flag("-l,--list", options->list,
                            "One line per device, as a tree under its backend and platform.\n"
                            "Example: xgpu query -l");
  auto* json = sub.add_flag("--json", options->json,
                            "Every backend, device and property as JSON on stdout (schema in "
                            "docs/query-json.md).\nExample: xgpu query --json");
  auto* device = sub.add_option("-d,--device", options->device,
                                "Every property of the device SEL picks, grouped; without SEL, of "
                                "the default pick.\n"
                                "Example: xgpu query -d 0, xgpu query -d opencl:cpu")
                     ->type_name("[SEL]")
                     ->expected(0, 1);
  auto* select = sub.add_option("--select", options->select,
                                "Print the device SEL picks, XGPU_VISIBLE_DEVICES honoured; exit 4 "
                                "when none. Without SEL, the default pick: XGPU_DEVICE, else the "
                                "best device.\nExample: xgpu query --select gpu,cpu")
                     ->type_name("[SEL]")
                     ->expected(0, 1);
  auto* require =
      sub.add_option("--require", options->require,
                     "Only devices meeting every comma-separated term; exit 1 when none does, "
                     "and say on stderr why each other device does not.\n"
                     "Example: xgpu query --require mem>=24G,fp64,cu>=8,wg>=256,"
                     "ext=cl_khr_int64_base_atomics")
          ->type_name("REQ");
  auto* probe = sub.add_flag(
      "--probe", options->probe,
      "Run tiny kernels on each device shown to check fp16 and fp64 arithmetic and the "
      "maximum work-group size against what the driver advertises; exit 1 when a "
      "driver promises more than its device does.\nExample: xgpu query --probe -d gpu");
  auto* profiles = sub.add_flag(
      "--profiles", options->profiles,
      "List the shipped device profiles (name, device, vendor, file, source); with --json as "
      "JSON. Opens no device.\nExample: XGPU_PROFILE=nvidia-h100 xgpu query");
  auto* modules = sub.add_flag("--modules", options->modules,
                               "Every backend module found, loaded or refused, with its device "
                               "count or the reason it offers none (a vendor driver not "
                               "installed, say).\nExample: xgpu query --modules");
  auto* all_backends = sub.add_flag(
      "--all-backends", options->all_backends,
      "One row per device of each backend module: a GPU that two modules see (NVIDIA's OpenCL "
      "and CUDA) is two rows with one number, the one selectors without a backend do not see "
      "marked (alias). Without it, one row per physical device.\n"
      "Example: xgpu query --all-backends");
  all_backends->excludes(device)->excludes(select);
  list->excludes(json);
  modules->excludes(json)->excludes(list);
  device->excludes(select);
  for (CLI::Option* other : {list, device, select, require, probe, modules, all_backends})
    profiles->excludes(other);
  add_color_option(sub, options->color);
  return [options, device, select] {
    options->detail = device->count() > 0;
    options->pick = select->count() > 0;
    return run_query(*options);
  };
}

}  // namespace xgpu::cli
