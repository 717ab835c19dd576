// The installed-package consumer: runs a vector add on every device xgpu finds and checks
// each result, so a broken install (headers, library, or module folder) fails loudly.
// Exit status: 0 when every device computed the right answer, 1 otherwise or with no device.
#include <cstdio>
#include <exception>
#include <vector>
#include <xgpu/device_group.hpp>
#include <xgpu/xgpu.hpp>

namespace {

const char* const kSource = R"(
__kernel void vector_add(__global const int* a, __global const int* b, __global int* sum,
                         uint n) {
  size_t i = get_global_id(0);
  if (i < n) sum[i] = a[i] + b[i];
}
)";

// Returns the number of wrong elements on this device.
unsigned run_on(const xgpu::Device& device) {
  const unsigned n = 1000;  // small: Oclgrind simulates every work-item
  std::vector<int> a(n), b(n);
  for (unsigned i = 0; i < n; ++i) {
    a[i] = static_cast<int>(i) * 3;
    b[i] = 7 - static_cast<int>(i);
  }
  xgpu::Context context(device);
  xgpu::Queue queue = context.queue();
  auto a_dev = context.alloc<int>(n), b_dev = context.alloc<int>(n), sum = context.alloc<int>(n);
  queue.write(a_dev, a);
  queue.write(b_dev, b);
  xgpu::Program program = context.build(xgpu::Source{"vector_add.cl", kSource});
  queue.launch(program.kernel("vector_add"), xgpu::Range{n}, a_dev, b_dev, sum, n);
  std::vector<int> result = queue.read(sum);
  unsigned wrong = 0;
  for (unsigned i = 0; i < n; ++i) wrong += result[i] != a[i] + b[i];
  return wrong;
}

// libxgpu-multi links and works from the install: every device as one group, a vector
// scattered across them and gathered back.
bool group_round_trip() {
  xgpu::DeviceGroup group("*");
  std::vector<int> data(1001);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<int>(i) * 5 - 9;
  const bool same = group.gather(group.scatter(data)) == data;
  std::printf("DeviceGroup of %zu devices: %s\n", group.size(), same ? "OK" : "WRONG RESULTS");
  return same;
}

}  // namespace

int main() {
  try {
    std::printf("xgpu %s (headers %s)\n", xgpu::version(), XGPU_VERSION_STRING);
    // Which module files were loaded: the test checks they come from the install prefix.
    for (const xgpu::BackendReport& backend : xgpu::backends()) {
      std::printf("backend %s: %s, %s, %zu devices %s\n", backend.name.c_str(),
                  backend.path.c_str(), backend.loaded ? "loaded" : "refused", backend.device_count,
                  backend.message.c_str());
    }
    std::vector<xgpu::Device> devices = xgpu::devices();
    std::printf("%zu devices\n", devices.size());
    if (devices.empty()) {
      std::fprintf(stderr, "consumer: no device found\n");
      return 1;
    }
    int failures = 0;
    for (const xgpu::Device& device : devices) {
      unsigned wrong = run_on(device);
      std::printf("%s: %s\n", device.describe().c_str(), wrong == 0 ? "OK" : "WRONG RESULTS");
      failures += wrong != 0;
    }
    failures += !group_round_trip();
    return failures == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 1;
  }
}
