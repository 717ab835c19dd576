// sum_and_sort: the algorithms library on one device; no kernel to write.
#include <cstdio>
#include <vector>
#include <xgpu/algorithms.hpp>
#include <xgpu/xgpu.hpp>

int main(int argc, char** argv) {
  try {
    xgpu::Context context(xgpu::select(argc > 1 ? argv[1] : ""));
    xgpu::Queue queue = context.queue();
    std::vector<float> host = {3.5f, -1.0f, 2.0f, 0.25f, 8.0f};
    xgpu::Buffer<float> x = context.alloc<float>(host.size());
    queue.write(x, host);

    float total = xgpu::sum(queue, x);  // 12.75
    xgpu::sort(queue, x);               // ascending, stable, on the device
    std::vector<float> sorted = queue.read(x);

    std::printf("sum %g, sorted:", total);
    for (float v : sorted) std::printf(" %g", v);
    std::printf("\n");
    const bool ok = total == 12.75f && sorted.front() == -1.0f && sorted.back() == 8.0f;
    std::printf("sum_and_sort: %s\n", ok ? "OK" : "WRONG");
    return ok ? 0 : 1;
  } catch (const xgpu::Error& e) {
    std::fprintf(stderr, "sum_and_sort: %s\n", e.what());
    return 1;
  }
}
