// A profile that allows more than its backing device has (tests/profile/data/over-backing.json:
// 1 GiB of local memory and 16384 work-items per group, on PoCL's 512 KiB and 4096): it
// loads, and a launch that needs more than PoCL can give fails with a message saying the
// limit is the backing device's, not the profile's. Run by unit.profile.backing.
#include "profile_table.hpp"

namespace {

using Catch::Matchers::Contains;
using xgpu_test::buffer_arg;
using xgpu_test::local_arg;
using xgpu_test::ProfileTable;

const std::string kSource = R"(
__kernel void with_local(__global int* out, __local int* scratch) {
  scratch[get_local_id(0)] = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[0];
}
)";

TEST_CASE("profile: a limit above the backing device's is the backing's to refuse",
          "[.profile_backing]") {
  const xgpu::Device device = xgpu::select("profile:0");
  CHECK(device.info().local_memory == (1u << 30));
  CHECK(device.info().max_work_group_size == 16384);
  const std::uint64_t backing_local = xgpu::select("pocl").info().local_memory;
  REQUIRE(backing_local < (1u << 30));

  ProfileTable p;
  xgpu_buffer out = nullptr;
  REQUIRE(p.t->buffer_create(p.context, 0, 8192 * sizeof(int), &out) == 0);
  xgpu_kernel kernel = p.kernel(kSource, "with_local");
  CHECK(p.launch(kernel, {buffer_arg(out), local_arg(backing_local + 4096)}, {64}, {64}) == -5);
  CHECK_THAT(p.last_error(), Contains("the backing device"));
  CHECK_THAT(p.last_error(), Contains("(its limit, not the profile's)"));
  CHECK(p.launch(kernel, {buffer_arg(out), local_arg(8192 * sizeof(int))}, {8192}, {8192}) == -55);
  CHECK_THAT(p.last_error(), Contains("the backing device"));
  p.t->release(XGPU_OBJECT_BUFFER, out);

  // Through the public API: the core lets it pass (the profile allows it), the module refuses.
  xgpu::Context ctx(device);
  xgpu::Buffer<int> buffer = ctx.alloc<int>(64);
  xgpu::Queue q = ctx.queue();
  xgpu::Kernel k = ctx.build(xgpu::Source{"local.cl", kSource}).kernel("with_local");
  const xgpu::Error error = xgpu_test::capture_error([&] {
    q.launch(k, xgpu::Range{64}, xgpu::Range{64}, buffer,
             xgpu::Local<int>((backing_local + 4096) / sizeof(int)));
    q.finish();
  });
  CHECK_THAT(std::string(error.what()), Contains("(its limit, not the profile's)"));
  CHECK(error.native_name() == "CL_OUT_OF_RESOURCES");
}

}  // namespace

namespace {

// xgpu::add_profile, in a process that has not enumerated devices yet (unit.profile.add runs
// this case alone, with XGPU_PROFILE unset).
TEST_CASE("profile: add_profile before the devices are enumerated", "[.profile_add]") {
  using xgpu_test::capture_error;
  using xgpu_test::check_error;
  const std::string file = xgpu_test::env("XGPU_TEST_PROFILE_FILE").value_or("");
  REQUIRE_FALSE(file.empty());
  check_error(capture_error([] { xgpu::add_profile("/no/such/profile.json"); }),
              xgpu::Errc::invalid_argument, {"/no/such/profile.json", "cannot be read"});
  check_error(capture_error([] { xgpu::add_profile("a.json:b.json"); }),
              xgpu::Errc::invalid_argument, {"':' separates profiles"});
  xgpu::add_profile(file, "pocl");
  check_error(capture_error([&] { xgpu::add_profile(file, "oclgrind"); }),
              xgpu::Errc::invalid_argument, {"one backing device", "pocl"});
  const xgpu::Device device = xgpu::select("profile:0");
  CHECK(device.info().name == "Test GPU with small limits");
  CHECK(std::find_if(device.info().vendor_extras.begin(), device.info().vendor_extras.end(),
                     [](const auto& extra) {
                       return extra.first == "profile_backing" &&
                              extra.second == xgpu::select("pocl").info().name;
                     }) != device.info().vendor_extras.end());
  check_error(capture_error([&] { xgpu::add_profile(file); }), xgpu::Errc::invalid_argument,
              {"after the devices were enumerated"});
}

}  // namespace
