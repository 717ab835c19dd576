// The cuda module's host side against tests/backends/cuda/fake_host_libcuda.c, a fake
// libcuda.so.1 whose GPU is host memory (run with XGPU_CUDA_LIBRARY naming it): what the
// module reports for a device, and its buffers, sub-buffers, copies, fills, maps, events,
// barriers, profiling times and argument checks, through xgpu's public API. The fake runs no
// kernel; a real GPU is tools/gpu-check.sh's.
#include <dlfcn.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <xgpu/cuda.hpp>
#include <xgpu/xgpu.hpp>

#include "test_support.hpp"

using Catch::Matchers::Contains;
using xgpu_test::capture_error;
using xgpu_test::check_error;

namespace {

struct Triple {
  int x, y, z;
};

xgpu::Device fake_device() {
  const xgpu::Device device = xgpu::select("cuda:0");
  REQUIRE(device.info().name == "Fake CUDA device (host memory)");
  return device;
}

}  // namespace

TEST_CASE("cuda module: the device as the fake driver describes it", "[cuda_fake]") {
  const xgpu::Device device = fake_device();
  const xgpu::DeviceInfo& info = device.info();
  CHECK(info.backend == "cuda");
  CHECK(info.vendor_id == 0x10DE);
  CHECK(info.hardware_vendor == "nvidia");
  CHECK(info.uuid == "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf");
  CHECK(info.pci_bus_id == "0000:65:00.0");
  CHECK(info.device_version == "CUDA sm_90");
  CHECK(info.driver_version == "12.4");
  // The translation's fingerprint is part of what keys the kernel cache.
  CHECK_THAT(info.platform_version, Catch::Matchers::StartsWith("CUDA 12.4 (prelude "));
  // ... and the NVRTC version (or its absence): an NVRTC upgrade must miss too.
  CHECK_THAT(info.platform_version, Contains(", NVRTC ") || Contains(", no NVRTC)"));
  CHECK(info.compute_units == 132);
  CHECK(info.clock_mhz == 1980);
  CHECK(info.global_memory == (std::uint64_t{1} << 30));
  CHECK(info.local_memory == 48 * 1024);
  CHECK(info.max_work_group_size == 1024);
  CHECK(info.max_work_item_sizes[2] == 64);
  CHECK_FALSE(info.non_uniform_work_groups);
  CHECK(info.base_address_alignment == 256);
  // A __constant pointer parameter is an ordinary pointer in the translation: any buffer the
  // device can allocate is taken, and that is what is reported (not CUDA's 64 KiB constant
  // bank, which nothing here checks a buffer against).
  CHECK(info.max_constant_buffer_size == info.max_allocation);
  CHECK(device.free_memory() == std::optional<std::uint64_t>(std::uint64_t{1} << 29));
  CHECK(info.work_group_multiple == 32);
  CHECK(info.fp16);  // compute capability 9.0 >= 5.3: native half arithmetic
  CHECK(info.has_extension("cl_khr_fp16"));
  CHECK(info.fp64);
  CHECK(info.ecc);
  CHECK_FALSE(info.images);
  // The opencl module's keys for NVIDIA first, in its order, then CUDA's own.
  REQUIRE(info.vendor_extras.size() >= 3);
  CHECK(info.vendor_extras[0] ==
        std::make_pair(std::string("compute_capability"), std::string("9.0")));
  CHECK(info.vendor_extras[1] == std::make_pair(std::string("warp_size"), std::string("32")));
  CHECK(std::count(info.vendor_extras.begin(), info.vendor_extras.end(),
                   std::make_pair(std::string("l2_cache_bytes"), std::string("62914560"))) == 1);
  CHECK(xgpu::cuda::device(device) == 0);
}

TEST_CASE("cuda module: writes, reads, copies and fills of every pattern size", "[cuda_fake]") {
  xgpu::Context context(fake_device());
  xgpu::Queue queue = context.queue();
  std::vector<int> values(1000);
  std::iota(values.begin(), values.end(), 0);
  xgpu::Buffer<int> a = context.alloc<int>(1000);
  xgpu::Buffer<int> b = context.alloc<int>(1000);
  queue.write(a, values.data());
  queue.copy(a, b, 500, 100, 200);  // a[100, 600) to b[200, 700)
  std::vector<int> back = queue.read(b);
  CHECK(std::equal(values.begin() + 100, values.begin() + 600, back.begin() + 200));
  CHECK(xgpu::cuda::device_pointer(a) != 0);

  queue.fill(a, 7, 10, 990);  // 4 bytes: cuMemsetD32
  CHECK(queue.read(a)[995] == 7);
  CHECK(queue.read(a)[989] == 989);
  xgpu::Buffer<std::int16_t> shorts = context.alloc<std::int16_t>(77);
  queue.fill(shorts, std::int16_t{-3});  // 2 bytes: cuMemsetD16
  CHECK(queue.read(shorts) == std::vector<std::int16_t>(77, -3));
  xgpu::Buffer<std::uint8_t> bytes = context.alloc<std::uint8_t>(33);
  queue.fill(bytes, std::uint8_t{0xAB});  // 1 byte: cuMemsetD8
  CHECK(queue.read(bytes) == std::vector<std::uint8_t>(33, 0xAB));
  // 8 bytes and an odd count: the first copy, then doubling device copies.
  xgpu::Buffer<double> doubles = context.alloc<double>(1001);
  queue.fill(doubles, 2.5);
  CHECK(queue.read(doubles) == std::vector<double>(1001, 2.5));
  // 12 bytes, in part of a buffer.
  xgpu::Buffer<Triple> triples = context.alloc<Triple>(9);
  queue.fill(triples, Triple{0, 0, 0});
  queue.fill(triples, Triple{1, 2, 3}, 5, 3);
  const std::vector<Triple> filled = queue.read(triples);
  CHECK(filled[2].x == 0);
  CHECK(filled[3].z == 3);
  CHECK(filled[7].y == 2);
  CHECK(filled[8].x == 0);
}

TEST_CASE("cuda module: pooled buffers are independent sub-buffers", "[cuda_fake]") {
  xgpu::Context context(fake_device());
  xgpu::Queue queue = context.queue();
  std::vector<xgpu::Buffer<int>> buffers;
  for (int i = 0; i < 8; ++i) {
    buffers.push_back(context.alloc<int>(100 + i));
    queue.fill(buffers.back(), i);
  }
  for (int i = 0; i < 8; ++i) CHECK(queue.read(buffers[i]) == std::vector<int>(100 + i, i));
}

TEST_CASE("cuda module: maps show the buffer and write it back", "[cuda_fake]") {
  xgpu::Context context(fake_device());
  xgpu::Queue queue = context.queue();
  xgpu::Buffer<float> buffer = context.alloc<float>(64);
  queue.fill(buffer, 1.0f);
  {
    xgpu::Mapping<float> mapped = queue.map(buffer, 16, 8);
    REQUIRE(mapped.size() == 16);
    CHECK(mapped[0] == 1.0f);
    for (std::size_t i = 0; i < mapped.size(); ++i) mapped[i] = static_cast<float>(i);
  }
  const std::vector<float> back = queue.read(buffer);
  CHECK(back[7] == 1.0f);
  CHECK(back[8] == 0.0f);
  CHECK(back[23] == 15.0f);
  CHECK(back[24] == 1.0f);
}

TEST_CASE("cuda module: events, markers and profiling times", "[cuda_fake]") {
  xgpu::Context context(fake_device());
  xgpu::Queue queue = context.queue(xgpu::QueueOptions{true});
  xgpu::Queue other = context.queue();
  xgpu::Buffer<int> buffer = context.alloc<int>(1 << 16);
  std::vector<int> values(1 << 16, 5);
  xgpu::Event written = queue.write_async(buffer, values.data());
  other.wait(written);  // a barrier on another stream: cuStreamWaitEvent
  xgpu::Event marker = other.marker();
  marker.wait();
  CHECK(written.status() == xgpu::EventStatus::complete);
  const xgpu::EventTimes profile = written.profile();
  CHECK(profile.queued <= profile.submit);
  CHECK(profile.start <= profile.end);
  CHECK(profile.end > 0);
  check_error(capture_error([&] { marker.profile(); }), xgpu::Errc::unsupported,
              {"profiling was not enabled"});
}

TEST_CASE("cuda module: bad input is refused with the mistake named", "[cuda_fake]") {
  xgpu::Context context(fake_device());
  xgpu::Queue queue = context.queue();
  xgpu::Buffer<int> buffer = context.alloc<int>(10);
  // A build on a device that cannot load PTX (the fake's cuModuleLoadDataEx), or without
  // NVRTC: an error naming which, never a crash.
  const xgpu::Error error = capture_error([&] {
    context.build(xgpu::Source{"k.cl", "__kernel void k(__global int* x) { x[0] = 1; }"});
  });
  INFO(error.what());
  CHECK((error.code() == xgpu::Errc::build_failed || error.code() == xgpu::Errc::unsupported ||
         error.code() == xgpu::Errc::backend));
  // Another module's objects: the CUDA handles refuse an OpenCL queue, and the reverse.
  for (const xgpu::Device& device : xgpu::devices()) {
    if (device.info().backend != "opencl") continue;
    xgpu::Context cl_context(device);
    xgpu::Queue cl_queue = cl_context.queue();
    check_error(capture_error([&] { xgpu::cuda::stream(cl_queue); }), xgpu::Errc::invalid_argument,
                {"not cuda"});
    CHECK_NOTHROW(xgpu::cuda::stream(queue));
    break;
  }
}

// CUDA_ERROR_OUT_OF_MEMORY from cuMemAlloc (the fake's fake_cuda_set_max_alloc) is what the
// caching allocator frees its cache and retries for, then reports as out_of_memory naming the
// request; a smaller request afterwards is served.
TEST_CASE("cuda module: an allocation the GPU cannot hold is out_of_memory", "[cuda_fake]") {
  xgpu::Context context(fake_device());
  xgpu::Queue queue = context.queue();
  { xgpu::Buffer<char> cached = context.alloc<char>(1 << 20); }  // leaves a cached segment
  // The fake the cuda module opened (XGPU_CUDA_LIBRARY): dlopen of the same path gives it.
  const std::string fake = xgpu_test::env("XGPU_CUDA_LIBRARY").value_or("");
  void* library = dlopen(fake.c_str(), RTLD_NOW | RTLD_NOLOAD);
  REQUIRE(library != nullptr);
  using SetMaxAlloc = void (*)(std::size_t);
  const auto set_max_alloc =
      reinterpret_cast<SetMaxAlloc>(dlsym(library, "fake_cuda_set_max_alloc"));
  REQUIRE(set_max_alloc != nullptr);
  struct Lift {
    SetMaxAlloc set;
    ~Lift() { set(0); }
  } lift{set_max_alloc};
  set_max_alloc(8 << 20);
  const xgpu::Error error = capture_error([&] { context.alloc<char>(9 << 20); });
  check_error(error, xgpu::Errc::out_of_memory,
              {"tried to allocate 9 MiB", "Fake CUDA device", "CUDA_ERROR_OUT_OF_MEMORY"});
  const xgpu::MemoryStats stats = context.memory_stats();
  CHECK(stats.num_ooms == 1);
  CHECK(stats.num_retries >= 1);  // the cache went back to the driver before giving up
  xgpu::Buffer<int> smaller = context.alloc<int>(1 << 20);  // 4 MiB
  queue.fill(smaller, 7);
  CHECK(queue.read(smaller) == std::vector<int>(1 << 20, 7));
}

namespace {

// The fake driver's count of cuMemcpyPeerAsync calls, from the library the module loaded.
int peer_copies() {
  const auto path = xgpu_test::env("XGPU_CUDA_LIBRARY");
  REQUIRE(path);
  void* library = dlopen(path->c_str(), RTLD_NOW | RTLD_NOLOAD);
  REQUIRE(library != nullptr);
  auto count = reinterpret_cast<int (*)()>(dlsym(library, "fake_cuda_peer_copies"));
  dlclose(library);
  REQUIRE(count != nullptr);
  return count();
}

// A patterned source on `from`, copied to `to` at offsets 2 -> 1; true when every element of
// the destination is right.
bool copied_right(const xgpu::Device& from, const xgpu::Device& to, std::size_t count) {
  xgpu::Context a(from), b(to);
  xgpu::Queue qa = a.queue(), qb = b.queue();
  std::vector<int> host(count + 2);
  std::iota(host.begin(), host.end(), 11);
  xgpu::Buffer<int> src = a.alloc<int>(host.size());
  xgpu::Buffer<int> dst = b.alloc<int>(count + 1);
  qa.write(src, host);
  qb.fill(dst, -1);
  qb.copy(src, dst, count, 2, 1);
  std::vector<int> want(count + 1, -1);
  std::copy(host.begin() + 2, host.end(), want.begin() + 1);
  return qb.read(dst) == want;
}

}  // namespace

// Run with FAKE_CUDA_DEVICES=2 (unit.cuda.fake_peer): two CUDA devices, so a copy between them
// is the module's peer copy, one cuMemcpyPeerAsync whatever its size; a copy between a CUDA
// device and PoCL is staged through host memory instead, both ways.
TEST_CASE("cuda module: a copy between two CUDA devices is one peer copy", "[.cuda_fake_peer]") {
  const std::vector<xgpu::Device> cuda = xgpu::select_all("cuda");
  REQUIRE(cuda.size() == 2);
  CHECK(cuda[0].physical_id() != cuda[1].physical_id());
  CHECK_FALSE(cuda[0].is_alias_of(cuda[1]));  // two devices of one module are never one
  for (std::size_t count : {std::size_t{1}, std::size_t{1000}, std::size_t{3} << 20}) {
    INFO(count << " ints");
    const int before = peer_copies();
    CHECK(copied_right(cuda[0], cuda[1], count));
    CHECK(copied_right(cuda[1], cuda[0], count));
    CHECK(peer_copies() == before + 2);
  }
  const xgpu::Device pocl = xgpu::select("pocl");
  const int before = peer_copies();
  CHECK(copied_right(cuda[0], pocl, 5000));
  CHECK(copied_right(pocl, cuda[1], 5000));
  CHECK(peer_copies() == before);
}
