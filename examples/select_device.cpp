// select_device: lists the devices xgpu sees, shows which device a few selectors pick, and
// filters devices by requirements. Try it with your own selector and requirements:
//   ./select_device "nvidia,gpu,cpu" "mem>=8G,fp64"
// The same selectors work in XGPU_DEVICE and `xgpu query --select`.
#include <cstdio>
#include <optional>
#include <string>
#include <vector>
#include <xgpu/xgpu.hpp>

int main(int argc, char** argv) {
  try {
    // Every visible device, in the order selectors index them.
    std::vector<xgpu::Device> devices = xgpu::devices();
    std::printf("%zu device(s):\n", devices.size());
    for (const xgpu::Device& device : devices) {
      const xgpu::DeviceInfo& info = device.info();
      std::printf("  [%zu] %s  type=%s  memory=%llu MiB  compute units=%u  fp64=%s\n",
                  device.index(), device.describe().c_str(), info.type_name().c_str(),
                  static_cast<unsigned long long>(info.global_memory >> 20), info.compute_units,
                  info.fp64 ? "yes" : "no");
    }

    // A selector is a list of terms; the first term that matches a device wins.
    std::vector<std::string> selectors = {"gpu", "cpu", "pocl", "opencl:cpu:1", "gpu,cpu", "0"};
    if (argc > 1) selectors.insert(selectors.begin(), argv[1]);
    std::printf("\nselectors:\n");
    for (const std::string& selector : selectors) {
      // find() returns nothing when no device matches; select() would throw instead.
      std::optional<xgpu::Device> picked = xgpu::find(selector);
      std::printf("  %-14s -> %s\n", selector.c_str(),
                  picked ? picked->describe().c_str() : "(no device)");
    }
    // With no selector, select() honours XGPU_DEVICE, else prefers a real GPU.
    std::printf("  %-14s -> %s\n", "(default)", xgpu::select().describe().c_str());

    // Requirements narrow the choice to devices that can run your program at all.
    auto requirements = xgpu::Requirements::parse(argc > 2 ? argv[2] : "mem>=256M,wg>=64");
    std::printf("\nrequirements \"%s\":\n", argc > 2 ? argv[2] : "mem>=256M,wg>=64");
    for (const xgpu::Device& device : devices) {
      std::string why_not;
      bool ok = requirements.met_by(device.info(), &why_not);
      std::printf("  [%zu] %s\n", device.index(), ok ? "meets them" : why_not.c_str());
    }
    return 0;
  } catch (const xgpu::Error& e) {  // a selector that does not parse, or no device at all
    std::fprintf(stderr, "select_device: %s\n", e.what());
    return 1;
  }
}
