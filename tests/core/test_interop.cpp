// Interop: xgpu's objects handed to OpenCL libraries. The native handles are the OpenCL
// objects themselves (checked through the OpenCL API), and Boost.Compute's algorithms run
// on an xgpu buffer in xgpu's queue.
#include <algorithm>
#include <boost/compute/algorithm/sort.hpp>
#include <boost/compute/utility/program_cache.hpp>
#include <random>
#include <xgpu/boost_compute.hpp>  // first: it sets the OpenCL version for Boost.Compute
#include <xgpu/cuda.hpp>           // no CUDA header needed: it declares the handle types itself
#include <xgpu/opencl.hpp>

#include "test_support.hpp"

using xgpu_test::problem_size;

TEST_CASE("native handles are the backend's OpenCL objects", "[interop]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    INFO(device.describe());
    REQUIRE(xgpu::interop::backend(device) == "opencl");
    xgpu::Context context(device);
    xgpu::Queue queue = context.queue();
    xgpu::Buffer<float> buffer = context.alloc<float>(1000);

    cl_command_queue cl_queue = xgpu::opencl::queue(queue);
    cl_context queue_context = nullptr;
    REQUIRE(clGetCommandQueueInfo(cl_queue, CL_QUEUE_CONTEXT, sizeof(queue_context), &queue_context,
                                  nullptr) == CL_SUCCESS);
    CHECK(queue_context == xgpu::opencl::context(context));
    cl_device_id queue_device = nullptr;
    REQUIRE(clGetCommandQueueInfo(cl_queue, CL_QUEUE_DEVICE, sizeof(queue_device), &queue_device,
                                  nullptr) == CL_SUCCESS);
    CHECK(queue_device == xgpu::opencl::device(device));
    std::size_t bytes = 0;
    REQUIRE(clGetMemObjectInfo(xgpu::opencl::buffer(buffer), CL_MEM_SIZE, sizeof(bytes), &bytes,
                               nullptr) == CL_SUCCESS);
    CHECK(bytes == 1000 * sizeof(float));
    // An empty buffer has no OpenCL object.
    CHECK(xgpu::opencl::buffer(context.alloc<float>(0)) == nullptr);
  }
}

TEST_CASE("interop refuses empty objects with a clear error", "[interop]") {
  xgpu::Queue empty_queue;
  xgpu_test::check_error(xgpu_test::capture_error([&] { xgpu::interop::native(empty_queue); }),
                         xgpu::Errc::invalid_handle, {"Queue is empty"});
  xgpu::Context empty_context;
  xgpu_test::check_error(xgpu_test::capture_error([&] { xgpu::interop::native(empty_context); }),
                         xgpu::Errc::invalid_handle, {"Context"});
  const xgpu::Device device = xgpu::devices().at(0);
  xgpu::Context context(device);
  xgpu_test::check_error(
      xgpu_test::capture_error([&] { xgpu::boost_compute::buffer(context.alloc<int>(0)); }),
      xgpu::Errc::invalid_argument, {"empty"});
}

TEST_CASE("xgpu/cuda.hpp refuses objects of another backend, naming it", "[interop]") {
  const xgpu::Device device = xgpu::devices().at(0);
  REQUIRE(xgpu::interop::backend(device) != "cuda");
  xgpu::Context context(device);
  xgpu::Queue queue = context.queue();
  const std::string backend = xgpu::interop::backend(device);
  xgpu_test::check_error(xgpu_test::capture_error([&] { xgpu::cuda::stream(queue); }),
                         xgpu::Errc::invalid_argument,
                         {"xgpu::cuda::stream", "'" + backend + "' backend, not cuda"});
  xgpu_test::check_error(xgpu_test::capture_error([&] { xgpu::cuda::context(context); }),
                         xgpu::Errc::invalid_argument, {"xgpu::cuda::context"});
  xgpu_test::check_error(xgpu_test::capture_error([&] { xgpu::cuda::device(device); }),
                         xgpu::Errc::invalid_argument, {"xgpu::cuda::device"});
  // An empty buffer has no device memory, on any backend.
  CHECK(xgpu::cuda::device_pointer(context.alloc<float>(0)) == 0);
}

TEST_CASE("boost::compute::sort runs on an xgpu buffer in xgpu's queue", "[interop]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    INFO(device.describe());
    xgpu::Context context(device);
    xgpu::Queue queue = context.queue();
    const std::size_t n = problem_size(device, 5003);
    std::vector<int> values(n);
    std::mt19937 random(7);
    for (int& v : values) v = static_cast<int>(random() % 100000) - 50000;
    xgpu::Buffer<int> keys = context.alloc<int>(n);
    queue.write(keys, values);

    boost::compute::command_queue bc_queue = xgpu::boost_compute::queue(queue);
    boost::compute::sort(xgpu::boost_compute::begin(keys), xgpu::boost_compute::end(keys),
                         bc_queue);
    bc_queue.finish();

    std::sort(values.begin(), values.end());
    CHECK(queue.read(keys) == values);
    // Boost.Compute keeps the programs it built in a process-wide cache that is destroyed
    // after the drivers at exit; Oclgrind's heap does not survive that order.
    boost::compute::program_cache::get_global_cache(bc_queue.get_context())->clear();
  }
}
