// The limits a profile enforces (tests/profile/data/limits-gpu.json: 256 work-items per
// group, [256, 256, 64] per dimension, 32 KiB local memory, 64 bytes of arguments, 64 KiB in a
// __constant buffer, 64 MiB per buffer, 256 MiB in all, no fp64, OpenCL C 1.1, no images), each
// refused under the profile with the driver's status and a text naming the profile, and each
// passing on the backing PoCL device without it. Run by unit.profile.limits, with XGPU_PROFILE set.
#include <xgpu/extension.hpp>

#include "profile_table.hpp"

namespace {

using Catch::Matchers::Contains;
using xgpu_test::buffer_arg;
using xgpu_test::capture_error;
using xgpu_test::check_error;
using xgpu_test::local_arg;
using xgpu_test::ProfileTable;
using xgpu_test::value_arg;

constexpr const char* kProfile = "this device (profile of Test GPU with small limits)";
constexpr std::size_t kMiB = 1 << 20;

const std::string kSource = R"(
__kernel void fill(__global int* out, int value) { out[get_global_id(0)] = value; }
__kernel void with_local(__global int* out, __local int* scratch) {
  scratch[get_local_id(0)] = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[0];
}
__kernel void with_tile(__global int* out, __local int* scratch) {
  __local int tile[1024];
  tile[get_local_id(0)] = 2;
  scratch[get_local_id(0)] = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[0] + tile[0];
}
__kernel void from_constant(__global int* out, __constant int* table) {
  out[get_global_id(0)] = table[get_global_id(0)];
}
__kernel void from_global(__global int* out, __global const int* table) {
  out[get_global_id(0)] = table[get_global_id(0)];
}
__kernel void many(__global long* out, long a, long b, long c, long d, long e, long f, long g,
                   long h) {
  out[0] = a + b + c + d + e + f + g + h;
}
)";

xgpu::Device pocl() { return xgpu::select("pocl"); }

xgpu_buffer make_buffer(ProfileTable& p, std::size_t bytes, xgpu_status& status) {
  xgpu_buffer buffer = nullptr;
  status = p.t->buffer_create(p.context, 0, bytes, &buffer);
  return buffer;
}

TEST_CASE("profile: the work-group size is the profile's", "[.profile_limits]") {
  ProfileTable p;
  xgpu_buffer out = nullptr;
  REQUIRE(p.t->buffer_create(p.context, 0, 4096 * sizeof(int), &out) == 0);
  xgpu_kernel fill = p.kernel(kSource, "fill");
  const int value = 7;

  CHECK(p.launch(fill, {buffer_arg(out), value_arg(value)}, {512}, {256}) == 0);
  CHECK(p.launch(fill, {buffer_arg(out), value_arg(value)}, {512}, {512}) == -54);
  CHECK(p.t->status_name(-54) == std::string("CL_INVALID_WORK_GROUP_SIZE"));
  CHECK_THAT(p.last_error(), Contains(std::string(kProfile) +
                                      " allows at most 256 work-items per group; the launch "
                                      "asked for 512"));
  // Dimension 2 allows 64, although 128 items fit the group.
  CHECK(p.launch(fill, {buffer_arg(out), value_arg(value)}, {1, 1, 128}, {1, 1, 128}) == -55);
  CHECK_THAT(p.last_error(), Contains("at most 64 work-items in dimension 2"));
  // The kernel's own limit as the core reads it: the profile's, not PoCL's 4096.
  std::uint64_t limit = 0;
  REQUIRE(p.t->kernel_limit(fill, p.device, XGPU_KERNEL_MAX_WORK_GROUP_SIZE, &limit) == 0);
  CHECK(limit <= 256);
  REQUIRE(p.t->kernel_limit(fill, p.device, XGPU_KERNEL_PREFERRED_MULTIPLE, &limit) == 0);
  CHECK(limit == 32);
  p.t->release(XGPU_OBJECT_BUFFER, out);

  // Through the public API the same launch is refused too (by the core, from the profile's
  // reported limits), and passes on the backing device itself.
  xgpu::Context ctx(xgpu::select("profile:0"));
  xgpu::Buffer<int> buffer = ctx.alloc<int>(512);
  xgpu::Queue q = ctx.queue();
  xgpu::Kernel k = ctx.build(xgpu::Source{"fill.cl", kSource}).kernel("fill");
  check_error(capture_error([&] { q.launch(k, xgpu::Range{512}, xgpu::Range{512}, buffer, 7); }),
              xgpu::Errc::invalid_range, {"512", "256"});
  xgpu::Context direct(pocl());
  xgpu::Buffer<int> direct_buffer = direct.alloc<int>(512);
  xgpu::Queue dq = direct.queue();
  xgpu::Kernel dk = direct.build(xgpu::Source{"fill.cl", kSource}).kernel("fill");
  dq.launch(dk, xgpu::Range{512}, xgpu::Range{512}, direct_buffer, 7);
  dq.finish();
}

// Run by unit.profile.rocm, with tests/profile/data/rocm-rx7800xt.json (a published ROCm
// clinfo): the profile loads although each dimension allows more than the whole group, and a
// launch meets both limits, as ROCm's own enqueue does.
TEST_CASE("profile: ROCm's 1024 per dimension and 256 per group both apply", "[.profile_rocm]") {
  const xgpu::Device device = xgpu::select("profile:0");
  CHECK(device.info().name == "gfx1101");
  CHECK(device.info().max_work_item_sizes == std::array<std::size_t, 3>{1024, 1024, 1024});
  CHECK(device.info().max_work_group_size == 256);

  ProfileTable p;
  xgpu_buffer out = nullptr;
  REQUIRE(p.t->buffer_create(p.context, 0, 1024 * sizeof(int), &out) == 0);
  xgpu_kernel fill = p.kernel(kSource, "fill");
  const int value = 7;
  CHECK(p.launch(fill, {buffer_arg(out), value_arg(value)}, {1024}, {256}) == 0);
  // 256 along y: the dimension's limit is 1024, the group's 256.
  CHECK(p.launch(fill, {buffer_arg(out), value_arg(value)}, {1, 256}, {1, 256}) == 0);
  CHECK(p.launch(fill, {buffer_arg(out), value_arg(value)}, {1024}, {1024}) == -54);
  CHECK(p.t->status_name(-54) == std::string("CL_INVALID_WORK_GROUP_SIZE"));
  CHECK_THAT(p.last_error(), Contains("allows at most 256 work-items per group; the launch "
                                      "asked for 1024"));
  p.t->release(XGPU_OBJECT_BUFFER, out);

  // Through the public API: 256 runs, 1024 x 1 x 1 is refused before the driver is asked.
  xgpu::Context ctx(device);
  xgpu::Buffer<int> buffer = ctx.alloc<int>(1024);
  xgpu::Queue q = ctx.queue();
  xgpu::Kernel k = ctx.build(xgpu::Source{"fill.cl", kSource}).kernel("fill");
  q.launch(k, xgpu::Range{1024}, xgpu::Range{256}, buffer, 5);
  CHECK(q.read(buffer) == std::vector<int>(1024, 5));
  check_error(capture_error([&] { q.launch(k, xgpu::Range{1024}, xgpu::Range{1024}, buffer, 7); }),
              xgpu::Errc::invalid_range, {"1024", "256"});
}

TEST_CASE("profile: local memory is the profile's", "[.profile_limits]") {
  ProfileTable p;
  xgpu_buffer out = nullptr;
  REQUIRE(p.t->buffer_create(p.context, 0, 64 * sizeof(int), &out) == 0);
  xgpu_kernel kernel = p.kernel(kSource, "with_local");
  CHECK(p.launch(kernel, {buffer_arg(out), local_arg(16384)}, {64}, {64}) == 0);
  CHECK(p.launch(kernel, {buffer_arg(out), local_arg(40000)}, {64}, {64}) == -5);
  CHECK_THAT(p.last_error(), Contains(std::string(kProfile) + " has 32768 bytes of local memory"));
  CHECK_THAT(p.last_error(), Contains("40000 in local arguments"));
  p.t->release(XGPU_OBJECT_BUFFER, out);

  xgpu::Context direct(pocl());
  xgpu::Buffer<int> buffer = direct.alloc<int>(64);
  xgpu::Queue q = direct.queue();
  xgpu::Kernel k = direct.build(xgpu::Source{"local.cl", kSource}).kernel("with_local");
  q.launch(k, xgpu::Range{64}, xgpu::Range{64}, buffer, xgpu::Local<int>(10000));
  q.finish();
}

// The kernel's own local memory is measured once, at its creation: PoCL's answer after a
// launch counts that launch's local arguments too, and adding this launch's to it counted
// them twice (the double transpose's 64x65 tile refused under amd-mi300x).
TEST_CASE("profile: a local argument counts once, launch after launch", "[.profile_limits]") {
  ProfileTable p;
  xgpu_buffer out = nullptr;
  REQUIRE(p.t->buffer_create(p.context, 0, 64 * sizeof(int), &out) == 0);
  xgpu_kernel kernel = p.kernel(kSource, "with_local");
  for (int launch = 0; launch < 3; ++launch) {
    INFO("launch " << launch);
    CHECK(p.launch(kernel, {buffer_arg(out), local_arg(20000)}, {64}, {64}) == 0);
  }
  std::uint64_t own = 0;
  REQUIRE(p.t->kernel_limit(kernel, p.device, XGPU_KERNEL_LOCAL_MEMORY, &own) == 0);
  CHECK(own == 0);

  // A kernel's static local array is counted, and still once.
  xgpu_kernel tiled = p.kernel(kSource, "with_tile");
  REQUIRE(p.t->kernel_limit(tiled, p.device, XGPU_KERNEL_LOCAL_MEMORY, &own) == 0);
  CHECK(own == 4096);
  CHECK(p.launch(tiled, {buffer_arg(out), local_arg(28672)}, {64}, {64}) == 0);  // 32 KiB in all
  CHECK(p.launch(tiled, {buffer_arg(out), local_arg(28672)}, {64}, {64}) == 0);
  CHECK(p.launch(tiled, {buffer_arg(out), local_arg(28676)}, {64}, {64}) == -5);
  CHECK_THAT(p.last_error(), Contains("4096 of the kernel's own, 28676 in local arguments"));
  p.t->release(XGPU_OBJECT_BUFFER, out);

  // The public API, as the algorithms launch: the same kernel again and again.
  xgpu::Context ctx(xgpu::select("profile:0"));
  xgpu::Buffer<int> buffer = ctx.alloc<int>(64);
  xgpu::Queue q = ctx.queue();
  xgpu::Kernel k = ctx.build(xgpu::Source{"local.cl", kSource}).kernel("with_local");
  for (int launch = 0; launch < 2; ++launch)
    q.launch(k, xgpu::Range{64}, xgpu::Range{64}, buffer, xgpu::Local<int>(5000));
  q.finish();
  std::vector<int> host(64);
  q.read(buffer, host.data());
  CHECK(host[63] == 1);
}

TEST_CASE("profile: the argument size is the profile's", "[.profile_limits]") {
  ProfileTable p;
  xgpu_buffer out = nullptr;
  REQUIRE(p.t->buffer_create(p.context, 0, sizeof(long), &out) == 0);
  xgpu_kernel kernel = p.kernel(kSource, "many");
  const std::int64_t one = 1;
  std::vector<xgpu_kernel_arg_v1> args = {buffer_arg(out)};
  for (int i = 0; i < 8; ++i) args.push_back(value_arg(one));
  CHECK(p.launch(kernel, args, {1}, {1}) == -51);  // 8 + 8 * 8 bytes
  CHECK_THAT(p.last_error(),
             Contains("at most 64 bytes of kernel arguments; this launch passes 72"));
  p.t->release(XGPU_OBJECT_BUFFER, out);

  xgpu::Context direct(pocl());
  xgpu::Buffer<std::int64_t> buffer = direct.alloc<std::int64_t>(1);
  xgpu::Queue q = direct.queue();
  xgpu::Kernel k = direct.build(xgpu::Source{"many.cl", kSource}).kernel("many");
  const std::int64_t v = 1;
  q.launch(k, xgpu::Range{1}, buffer, v, v, v, v, v, v, v, v);
  std::int64_t sum = 0;
  q.read(buffer, &sum);
  CHECK(sum == 8);
}

TEST_CASE("profile: a __constant buffer fits the profile's constant buffer", "[.profile_limits]") {
  ProfileTable p;
  constexpr std::size_t kLimit = 65536;
  xgpu_status status = 0;
  xgpu_buffer out = make_buffer(p, 64 * sizeof(int), status);
  xgpu_buffer fits = make_buffer(p, kLimit, status);
  xgpu_buffer too_large = make_buffer(p, kLimit + sizeof(int), status);
  REQUIRE(status == 0);
  xgpu_kernel constant = p.kernel(kSource, "from_constant");
  CHECK(p.launch(constant, {buffer_arg(out), buffer_arg(fits)}, {64}, {64}) == 0);
  CHECK(p.launch(constant, {buffer_arg(out), buffer_arg(too_large)}, {64}, {64}) == -5);
  CHECK_THAT(p.last_error(),
             Contains(std::string(kProfile) + " allows at most 65536 bytes in a __constant buffer; "
                                              "argument 1 is a buffer of 65540 bytes"));
  // Set one argument at a time, then launched: the same refusal.
  REQUIRE(p.t->kernel_set_arg_buffer(constant, 0, out) == 0);
  REQUIRE(p.t->kernel_set_arg_buffer(constant, 1, too_large) == 0);
  const std::size_t global = 64, local = 64;
  CHECK(p.t->kernel_launch(p.queue, constant, 1, nullptr, &global, &local, nullptr, nullptr) == -5);
  // A sub-buffer counts its own bytes, not its parent's.
  xgpu_buffer part = nullptr;
  REQUIRE(p.t->buffer_create_sub(too_large, 0, 0, kLimit, &part) == 0);
  CHECK(p.launch(constant, {buffer_arg(out), buffer_arg(part)}, {64}, {64}) == 0);
  // A __global argument of the same size is no constant buffer.
  xgpu_kernel global_table = p.kernel(kSource, "from_global");
  CHECK(p.launch(global_table, {buffer_arg(out), buffer_arg(too_large)}, {64}, {64}) == 0);
  for (xgpu_buffer buffer : {part, out, fits, too_large}) p.t->release(XGPU_OBJECT_BUFFER, buffer);

  // The public API reports the driver's status; the backing PoCL device takes the same launch.
  CHECK(xgpu::select("profile:0").info().max_constant_buffer_size == kLimit);
  const xgpu::Source source{"constant.cl", kSource};
  xgpu::Context ctx(xgpu::select("profile:0"));
  xgpu::Queue q = ctx.queue();
  xgpu::Buffer<int> result = ctx.alloc<int>(64);
  xgpu::Buffer<int> table = ctx.alloc<int>(kLimit / sizeof(int) + 1);
  const xgpu::Error error = capture_error([&] {
    q.launch(ctx.build(source).kernel("from_constant"), xgpu::Range{64}, result, table);
    q.finish();
  });
  CHECK(error.native_name() == "CL_OUT_OF_RESOURCES");
  CHECK_THAT(std::string(error.what()), Contains("bytes in a __constant buffer"));
  xgpu::Context direct(pocl());
  REQUIRE(direct.device().info().max_constant_buffer_size > kLimit);
  xgpu::Queue dq = direct.queue();
  xgpu::Buffer<int> direct_result = direct.alloc<int>(64);
  xgpu::Buffer<int> direct_table = direct.alloc<int>(kLimit / sizeof(int) + 1);
  dq.launch(direct.build(source).kernel("from_constant"), xgpu::Range{64}, direct_result,
            direct_table);
  dq.finish();
}

TEST_CASE("profile: one buffer and all buffers fit the profile's memory", "[.profile_limits]") {
  ProfileTable p;
  xgpu_status status = 0;
  xgpu_buffer too_large = make_buffer(p, 64 * kMiB + 1, status);
  CHECK(too_large == nullptr);
  CHECK(status == -61);  // CL_INVALID_BUFFER_SIZE
  CHECK_THAT(p.last_error(), Contains(std::string(kProfile) + " allows at most 67108864 bytes"));

  // 256 MiB in all: four 64 MiB buffers fit, a fifth does not until one is released.
  std::vector<xgpu_buffer> blocks;
  for (int i = 0; i < 4; ++i) {
    blocks.push_back(make_buffer(p, 64 * kMiB, status));
    REQUIRE(status == 0);
  }
  CHECK(make_buffer(p, 64 * kMiB, status) == nullptr);
  CHECK(status == -4);  // CL_MEM_OBJECT_ALLOCATION_FAILURE
  CHECK_THAT(p.last_error(), Contains("268435456 bytes of global memory"));
  // A sub-buffer keeps its parent's memory in use after the parent's own release.
  xgpu_buffer sub = nullptr;
  REQUIRE(p.t->buffer_create_sub(blocks[0], 0, 0, kMiB, &sub) == 0);
  REQUIRE(p.t->release(XGPU_OBJECT_BUFFER, blocks[0]) == 0);
  CHECK(make_buffer(p, 64 * kMiB, status) == nullptr);
  REQUIRE(p.t->release(XGPU_OBJECT_BUFFER, sub) == 0);
  blocks[0] = make_buffer(p, 64 * kMiB, status);
  CHECK(status == 0);
  for (xgpu_buffer block : blocks)
    if (block) p.t->release(XGPU_OBJECT_BUFFER, block);

  // The public API: the core refuses the single buffer from the reported limit; the pool's
  // blocks count against the total.
  xgpu::Context ctx(xgpu::select("profile:0"));
  check_error(capture_error([&] { ctx.alloc<char>(64 * kMiB + 1); }),
              xgpu::Errc::allocation_too_large);
  std::vector<xgpu::Buffer<char>> held;
  check_error(capture_error([&] {
                for (int i = 0; i < 5; ++i) held.push_back(ctx.alloc<char>(60 * kMiB));
              }),
              xgpu::Errc::out_of_memory, {"Test GPU with small limits"});
  CHECK(held.size() == 4);
  xgpu::Context direct(pocl());
  direct.alloc<char>(64 * kMiB + 1);
}

TEST_CASE("profile: fp64, images and the OpenCL C version are the profile's", "[.profile_limits]") {
  xgpu::Context ctx(xgpu::select("profile:0"));
  xgpu::Context direct(pocl());
  const xgpu::Source uses_double{"double.cl",
                                 "__kernel void twice(__global double* x) {\n"
                                 "  x[0] = 2.0 * x[0];\n}\n"};
  const xgpu::Error error = capture_error([&] { ctx.build(uses_double); });
  check_error(error, xgpu::Errc::build_failed);
  CHECK_THAT(error.build_log(), Contains("cl_khr_fp64"));
  CHECK_THAT(error.build_log(), Contains("double.cl:1"));  // the kernel's own line numbers
  direct.build(uses_double);

  // The macros follow the profile: PoCL has fp64 and images, the profile neither.
  const xgpu::Source macros{"macros.cl",
                            "#if defined(cl_khr_fp64) || defined(__IMAGE_SUPPORT__)\n"
                            "#error the backing device's extensions show through\n#endif\n"
                            "__kernel void nothing(__global int* x) { x[0] = 0; }\n"};
  ctx.build(macros);
  CHECK_THROWS_AS(direct.build(macros), xgpu::Error);

  const xgpu::Source plain{"plain.cl", "__kernel void nothing(__global int* x) { x[0] = 0; }\n"};
  const xgpu::Error too_new = capture_error([&] { ctx.build(plain, "-cl-std=CL1.2"); });
  CHECK(too_new.native_name() == "CL_INVALID_BUILD_OPTIONS");
  CHECK_THAT(std::string(too_new.what()),
             Contains(std::string(kProfile) + " supports OpenCL C 1.1; the build asked for "
                                              "-cl-std=CL1.2"));
  ctx.build(plain, "-cl-std=CL1.1");
  direct.build(plain, "-cl-std=CL1.2");
  // Found fuzzing the profile reader: major * 10 + minor overflowed for such a version.
  const xgpu::Error far_too_new =
      capture_error([&] { ctx.build(plain, "-cl-std=CL2147483647.0"); });
  CHECK_THAT(std::string(far_too_new.what()),
             Contains("supports OpenCL C 1.1; the build asked for -cl-std=CL2147483647.0"));
}

// The profile has neither images nor sub-groups: a kernel using their built-ins fails to
// build with a log naming what is missing, as on such a device, although PoCL has images.
TEST_CASE("profile: image and sub-group built-ins fail to build", "[.profile_limits]") {
  xgpu::Context ctx(xgpu::select("profile:0"));
  xgpu::Context direct(pocl());
  const xgpu::Source uses_image{
      "image.cl",
      "__kernel void copy(__read_only image2d_t in, __global float4* out) {\n"
      "  const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_FILTER_NEAREST;\n"
      "  out[0] = read_imagef(in, s, (int2)(0, 0));\n}\n"};
  const xgpu::Error no_images = capture_error([&] { ctx.build(uses_image); });
  check_error(no_images, xgpu::Errc::build_failed);
  CHECK_THAT(no_images.build_log(), Contains("image_support_is_missing_on_this_device"));
  CHECK_THAT(no_images.build_log(), Contains("image.cl:1"));
  direct.build(uses_image);

  const xgpu::Source uses_sub_groups{"sub_groups.cl",
                                     "__kernel void size(__global uint* out) {\n"
                                     "  out[0] = get_sub_group_size();\n}\n"};
  const xgpu::Error no_sub_groups = capture_error([&] { ctx.build(uses_sub_groups); });
  check_error(no_sub_groups, xgpu::Errc::build_failed);
  CHECK_THAT(no_sub_groups.build_log(), Contains("cl_khr_subgroups_is_missing_on_this_device"));
  const xgpu::Source reduce{"reduce.cl",
                            "__kernel void sum(__global int* x) {\n"
                            "  x[0] = sub_group_reduce_add(x[get_global_id(0)]);\n}\n"};
  CHECK_THAT(capture_error([&] { ctx.build(reduce); }).build_log(),
             Contains("cl_khr_subgroups_is_missing_on_this_device"));
  // Names that merely contain a built-in's are untouched.
  ctx.build(xgpu::Source{"names.cl",
                         "__kernel void k(__global int* my_get_sub_group_size) {\n"
                         "  my_get_sub_group_size[0] = 1;\n}\n"});
}

TEST_CASE("profile: the device reports the profile", "[.profile_limits]") {
  const xgpu::Device device = xgpu::select("profile:0");
  const xgpu::DeviceInfo& info = device.info();
  CHECK(info.backend == "profile");
  CHECK(info.name == "Test GPU with small limits");
  CHECK(xgpu::ext::is_gpu(info));
  CHECK_FALSE(xgpu::ext::is_cpu(info));
  CHECK(info.max_work_group_size == 256);
  // Vendor selectors and requirements see the profiled device.
  CHECK(xgpu::select("nvidia") == device);
  CHECK(xgpu::select("pocl").info().backend == "opencl");
}

}  // namespace

// When the measurement of a kernel's own local memory at its creation fails (here the first
// such query of each kernel, failed by tests/profile/fail_first_local_query.c under LD_PRELOAD):
// the module answers what the driver answers, and a launch counts it, where both read 0. Run by
// unit.profile.unmeasured only.
TEST_CASE("profile: an unmeasured kernel's own local memory is the driver's answer",
          "[.profile_unmeasured]") {
  const char* preload = std::getenv("LD_PRELOAD");
  REQUIRE(preload != nullptr);
  REQUIRE_THAT(preload, Contains("fail-first-local-query"));
  xgpu::Context context(xgpu::select("profile:0"));
  xgpu::Kernel tiled = context.build(xgpu::Source{"local.cl", kSource}).kernel("with_tile");
  CHECK(tiled.limits().local_memory >= 1024 * sizeof(int));  // its tile
  xgpu::Queue queue = context.queue();
  xgpu::Buffer<int> out = context.alloc<int>(64);
  // 4 KiB of its own and 30,000 bytes of arguments: over the profile's 32 KiB (refused by the
  // core's check or the module's, each counting the kernel's own).
  const xgpu::Error refused = capture_error([&] {
    queue.launch(tiled, xgpu::Range{64}, xgpu::Range{64}, out, xgpu::Local<int>(7500));
  });
  CHECK_THAT(refused.what(), Contains("32768"));
  queue.launch(tiled, xgpu::Range{64}, xgpu::Range{64}, out, xgpu::Local<int>(64));
  CHECK(queue.read(out) == std::vector<int>(64, 3));
}
