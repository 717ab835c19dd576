// saxpy: y = a*x + y on one device, the first program to copy.
//   ./saxpy            uses XGPU_DEVICE, else the best device (a GPU when there is one)
//   ./saxpy nvidia:0   uses the device a selector picks (see `xgpu query --select SEL`)
#include <cmath>
#include <cstdio>
#include <vector>
#include <xgpu/xgpu.hpp>

// OpenCL C, built at run time for whichever device is chosen.
const char* const kSaxpy = R"(
__kernel void saxpy(float a, __global const float* x, __global float* y, uint n) {
  uint i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

int main(int argc, char** argv) {
  try {
    xgpu::Device device = xgpu::select(argc > 1 ? argv[1] : "");
    std::printf("device: %s\n", device.describe().c_str());

    xgpu::Context context(device);
    xgpu::Queue queue = context.queue();

    const unsigned n = 1 << 16;
    const float a = 2.0f;
    std::vector<float> x(n), y(n);
    for (unsigned i = 0; i < n; ++i) {
      x[i] = static_cast<float>(i);
      y[i] = 1.0f;
    }

    xgpu::Buffer<float> x_dev = context.alloc<float>(n);
    xgpu::Buffer<float> y_dev = context.alloc<float>(n);
    queue.write(x_dev, x);
    queue.write(y_dev, y);

    // The file name appears in build errors as saxpy.cl:LINE.
    xgpu::Program program = context.build(xgpu::Source{"saxpy.cl", kSaxpy});
    // Arguments are checked against the kernel's parameters: passing a double for `a` or
    // a size_t for `n` is an xgpu::Error, not a wrong answer. launch() returns an
    // xgpu::Event; submit() is the same launch for a caller that keeps none.
    queue.launch(program.kernel("saxpy"), xgpu::Range{n}, a, x_dev, y_dev, n);
    queue.read(y_dev, y.data());  // blocks until the kernel is done

    for (unsigned i = 0; i < n; ++i) {
      float expected = a * static_cast<float>(i) + 1.0f;
      if (std::fabs(y[i] - expected) > 1e-5f * std::fabs(expected)) {
        std::fprintf(stderr, "saxpy: y[%u] = %g, expected %g\n", i, y[i], expected);
        return 1;
      }
    }
    std::printf("saxpy: OK\n");
    return 0;
  } catch (const xgpu::Error& e) {  // every xgpu failure says what went wrong
    std::fprintf(stderr, "saxpy: %s\n", e.what());
    return 1;
  }
}
