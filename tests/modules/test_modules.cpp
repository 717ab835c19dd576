// The module loader's side of the backend ABI, against the stub modules of
// tests/modules/stub_backend (their folder comes in XGPU_TEST_STUB_DIR): the registry lists
// them and keeps the real devices; a command failing on a device names itself. Each module
// file loaded on its own: test_module_files.cpp (white-box).
#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "xgpu/backend.h"

using Catch::Matchers::Contains;
using xgpu_test::capture_error;
using xgpu_test::check_error;

TEST_CASE("the module table keeps the layout of ABI v1", "[modules]") {
  // Pinned by hand: every member of xgpu_backend_v1 as ABI v1 has it (LP64), at the offset a
  // module built against it fills. A member moved, removed, resized or inserted before the end
  // breaks every module built earlier; a new one is appended after these.
  static_assert(sizeof(void*) == 8, "the offsets below are those of LP64");
  struct Member {
    std::string name;
    std::size_t offset;
  };
  const std::vector<Member> v1 = {{"struct_size", 0},
                                  {"abi_version", 4},
                                  {"name", 8},
                                  {"init", 16},
                                  {"status_name", 24},
                                  {"last_error", 32},
                                  {"retain", 40},
                                  {"release", 48},
                                  {"device_count", 56},
                                  {"device_get", 64},
                                  {"device_info", 72},
                                  {"context_create", 80},
                                  {"queue_create", 88},
                                  {"queue_flush", 96},
                                  {"queue_finish", 104},
                                  {"buffer_create", 112},
                                  {"buffer_write", 120},
                                  {"buffer_read", 128},
                                  {"buffer_copy", 136},
                                  {"buffer_fill", 144},
                                  {"buffer_map", 152},
                                  {"buffer_unmap", 160},
                                  {"program_create", 168},
                                  {"program_build", 176},
                                  {"program_build_log", 184},
                                  {"program_kernel_names", 192},
                                  {"kernel_create", 200},
                                  {"kernel_arg_count", 208},
                                  {"kernel_arg_info", 216},
                                  {"kernel_set_arg", 224},
                                  {"kernel_set_arg_buffer", 232},
                                  {"kernel_set_arg_local", 240},
                                  {"kernel_launch", 248},
                                  {"event_wait", 256},
                                  {"event_status", 264},
                                  {"event_profile", 272},
                                  {"program_binary", 280},
                                  {"program_create_binary", 288},
                                  {"native_handle", 296},
                                  {"kernel_limit", 304},
                                  {"blas_gemm", 312},
                                  {"kernel_launch_with_args", 320},
                                  {"queue_barrier", 328},
                                  {"buffer_create_sub", 336},
                                  {"buffer_copy_peer", 344}};
  // The table as xgpu/backend_members.def declares it now.
  std::vector<Member> now = {{"struct_size", offsetof(xgpu_backend_v1, struct_size)},
                             {"abi_version", offsetof(xgpu_backend_v1, abi_version)},
                             {"name", offsetof(xgpu_backend_v1, name)}};
#define XGPU_BACKEND_MEMBER(presence, result, member, parameters) \
  now.push_back({#member, offsetof(xgpu_backend_v1, member)});
#include "xgpu/backend_members.def"
#undef XGPU_BACKEND_MEMBER
  REQUIRE(now.size() >= v1.size());
  for (std::size_t i = 0; i < v1.size(); ++i) {
    INFO("member " << i);
    CHECK(now[i].name == v1[i].name);
    CHECK(now[i].offset == v1[i].offset);
  }
  // Members appended since follow one pointer apart, and the struct ends with the last.
  for (std::size_t i = v1.size(); i < now.size(); ++i)
    CHECK(now[i].offset == now[i - 1].offset + sizeof(void*));
  CHECK(sizeof(xgpu_backend_v1) == now.back().offset + sizeof(void*));
  CHECK(sizeof(xgpu_backend_v1) >= 352);
  CHECK(XGPU_BACKEND_V1_REQUIRED_SIZE == 280);
}

TEST_CASE("stub modules on XGPU_BACKEND_PATH are listed and real devices kept", "[modules]") {
  const auto dir = xgpu_test::stub_dir();
  if (!dir) return;
  const auto backend_path = xgpu_test::env("XGPU_BACKEND_PATH");
  if (!backend_path || backend_path->find(*dir) == std::string::npos) {
    WARN("XGPU_BACKEND_PATH does not list the stub folder: registry part skipped");
    return;
  }
  const std::vector<std::string> search = xgpu::backend_search_path();
  REQUIRE_FALSE(search.empty());
  CHECK(search.front() == *dir);

  const std::vector<xgpu::BackendReport> reports = xgpu::backends();
  auto report_of = [&](const std::string& file) -> const xgpu::BackendReport* {
    for (const xgpu::BackendReport& report : reports) {
      if (report.path == *dir + "/" + file) return &report;
    }
    return nullptr;
  };
  const xgpu::BackendReport* wrong_version = report_of("libxgpu-backend-stub-wrong_version.so");
  REQUIRE(wrong_version != nullptr);
  CHECK_FALSE(wrong_version->loaded);
  CHECK_THAT(wrong_version->message, Contains("99"));
  const xgpu::BackendReport* garbage = report_of("libxgpu-backend-garbage.so");
  REQUIRE(garbage != nullptr);
  CHECK_FALSE(garbage->loaded);
  CHECK_FALSE(garbage->message.empty());
  const xgpu::BackendReport* throws = report_of("libxgpu-backend-stub-throws.so");
  REQUIRE(throws != nullptr);
  CHECK_THAT(throws->message, Contains("stub: deliberate failure"));

  // The real module still loads, and its devices still work.
  CHECK(std::any_of(reports.begin(), reports.end(),
                    [](const xgpu::BackendReport& r) { return r.name == "opencl" && r.loaded; }));
  const xgpu::Device pocl = xgpu::select("pocl");
  xgpu::Context context(pocl);
  xgpu::Queue queue = context.queue();
  xgpu::Buffer<int> data = context.alloc<int>(4);
  queue.fill(data, 3);
  CHECK(queue.read(data) == std::vector<int>(4, 3));
  for (const xgpu::Device& device : xgpu::devices()) CHECK(device.info().backend == "opencl");
}

// A command that fails on the device after it was enqueued (the stub device module of
// stub_backend/stub_device_backend.cpp, on XGPU_BACKEND_PATH in ctest unit.modules.device):
// Event::wait and Event::status name the command and the status; Queue::finish reports the
// failure. Broken on purpose: the stub fails a fill, copy or kernel whose data begins with
// kPoison.
namespace {

constexpr int kPoison = -9001;  // as stub_device_backend.cpp

xgpu::Device stub_device() {
  for (const xgpu::Device& device : xgpu::devices()) {
    if (device.info().backend == "stubdevice") return device;
  }
  FAIL("no stub device: XGPU_BACKEND_PATH must hold the stub device module");
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("a command failing on the device names itself on wait and finish", "[.stub_device]") {
  xgpu::Context context(stub_device());
  xgpu::Queue queue = context.queue();
  xgpu::Buffer<int> data = context.alloc<int>(8), other = context.alloc<int>(8);
  xgpu::Kernel scale =
      context.build({"scale.cl", "kernel void scale(global int* data) {}"}).kernel("scale");

  SECTION("commands that succeed") {
    queue.fill(data, 3).wait();
    queue.launch(scale, xgpu::Range{8}, data).wait();
    queue.finish();
    CHECK(queue.read(data) == std::vector<int>(8, 6));
  }
  SECTION("a fill") {
    xgpu::Event filled = queue.fill(data, kPoison);  // enqueued without error
    check_error(capture_error([&] { filled.wait(); }), xgpu::Errc::backend,
                {"Event::wait", "Queue::fill", "failed on the device", "STUB_COMMAND_FAILED"});
    check_error(capture_error([&] { filled.status(); }), xgpu::Errc::backend,
                {"Event::status", "Queue::fill", "STUB_COMMAND_FAILED"});
    check_error(capture_error([&] { queue.finish(); }), xgpu::Errc::backend,
                {"Queue::finish", "STUB_COMMAND_FAILED"});
    queue.finish();  // reported once
  }
  SECTION("a copy") {
    queue.write(data, std::vector<int>(8, kPoison));
    xgpu::Event copied = queue.copy(data, other);
    check_error(capture_error([&] { copied.wait(); }), xgpu::Errc::backend,
                {"Queue::copy", "STUB_COMMAND_FAILED", "-9001"});
    CHECK(capture_error([&] { copied.wait(); }).native_status() == -9001);
  }
  SECTION("a kernel") {
    queue.write(data, std::vector<int>(8, kPoison));
    xgpu::Event ran = queue.launch(scale, xgpu::Range{8}, data);
    check_error(capture_error([&] { ran.wait(); }), xgpu::Errc::backend,
                {"kernel 'scale'", "failed on the device", "STUB_COMMAND_FAILED"});
  }
}

// The device and the command: an Event's error names the device the command failed on; a
// finish names which of its commands failed, also one whose Event was dropped (the driver's
// finish says only that one did), and says why it cannot when that was a submit().
TEST_CASE("a failure on the device names the device, and finish names the command",
          "[.stub_device]") {
  xgpu::Context context(stub_device());
  xgpu::Queue queue = context.queue();
  xgpu::Buffer<int> data = context.alloc<int>(8), other = context.alloc<int>(8);
  xgpu::Kernel scale =
      context.build({"scale.cl", "kernel void scale(global int* data) {}"}).kernel("scale");

  SECTION("an Event's error names the device") {
    xgpu::Event filled = queue.fill(data, kPoison);
    const xgpu::Error error = capture_error([&] { filled.wait(); });
    check_error(error, xgpu::Errc::backend,
                {"Queue::fill failed on the device stub device", "STUB_COMMAND_FAILED"});
    CHECK(error.device() == "stub device");
    CHECK(capture_error([&] { filled.status(); }).device() == "stub device");
    capture_error([&] { queue.finish(); });  // the queue's own report of it
  }
  SECTION("finish names a failed command whose Event was dropped") {
    queue.write(data, std::vector<int>(8, kPoison));
    queue.copy(data, other);  // its Event dropped at once
    queue.fill(data, 1);
    queue.launch(scale, xgpu::Range{8}, data);
    const xgpu::Error error = capture_error([&] { queue.finish(); });
    check_error(error, xgpu::Errc::backend,
                {"Queue::finish: Queue::copy failed on the device stub device",
                 "STUB_COMMAND_FAILED", "-9001"});
    CHECK(error.device() == "stub device");
    queue.finish();  // reported once
  }
  SECTION("finish names a failed kernel") {
    queue.write(data, std::vector<int>(8, kPoison));
    queue.launch(scale, xgpu::Range{8}, data);
    check_error(capture_error([&] { queue.finish(); }), xgpu::Errc::backend,
                {"Queue::finish: kernel 'scale' failed on the device stub device"});
  }
  SECTION("a submit() makes no Event: finish says it cannot name it") {
    queue.submit(scale, xgpu::Range{8}, data);  // the shape's first launch, which the kernel
    queue.finish();                             // cache asks an Event of; not the next one
    queue.write(data, std::vector<int>(8, kPoison));
    queue.submit(scale, xgpu::Range{8}, data);
    const xgpu::Error error = capture_error([&] { queue.finish(); });
    check_error(error, xgpu::Errc::backend,
                {"Queue::finish", "STUB_COMMAND_FAILED", "Queue::submit makes none"});
    CHECK(error.device() == "stub device");
  }
}

TEST_CASE("a work-group over the kernel's maximum, below the device's", "[.stub_device]") {
  // The stub's kernel allows 32 items per work-group, its device 256.
  xgpu::Context context(stub_device());
  xgpu::Queue queue = context.queue();
  xgpu::Buffer<int> data = context.alloc<int>(64);
  queue.fill(data, 1);
  xgpu::Kernel scale =
      context.build({"scale.cl", "kernel void scale(global int* data) {}"}).kernel("scale");
  REQUIRE(scale.limits().max_work_group_size == 32);
  check_error(capture_error([&] { queue.launch(scale, xgpu::Range{64}, xgpu::Range{64}, data); }),
              xgpu::Errc::invalid_range,
              {"scale", "64", "kernel's maximum of 32", "device allows 256"});
  queue.finish();
  CHECK(queue.read(data) == std::vector<int>(64, 1));  // nothing ran
  queue.launch(scale, xgpu::Range{64}, xgpu::Range{32}, data);
  CHECK(queue.read(data) == std::vector<int>(64, 2));
}

// The stub device module's table ends before kernel_launch_with_args, as a module built before
// it does: the core must set the arguments one call at a time before each launch. The stub's
// launch consumes its argument, so a launch without its per-argument call fails.
TEST_CASE("a module without the one-call launch gets its arguments one by one", "[.stub_device]") {
  xgpu::Context context(stub_device());
  xgpu::Queue queue = context.queue();
  xgpu::Buffer<int> first = context.alloc<int>(8), second = context.alloc<int>(8);
  queue.fill(first, 1);
  queue.fill(second, 10);
  xgpu::Kernel scale =
      context.build({"scale.cl", "kernel void scale(global int* data) {}"}).kernel("scale");
  for (int round = 0; round < 2; ++round) {
    queue.launch(scale, xgpu::Range{8}, first).wait();
    queue.submit(scale, xgpu::Range{8}, second);
    queue.submit(scale, xgpu::Range{8}, second);
  }
  queue.finish();
  CHECK(queue.read(first) == std::vector<int>(8, 4));
  CHECK(queue.read(second) == std::vector<int>(8, 160));
  // The core's checks come first, whichever way the module is called.
  xgpu::Buffer<float> floats = context.alloc<float>(8);
  check_error(capture_error([&] { queue.launch(scale, xgpu::Range{8}, floats); }),
              xgpu::Errc::argument_type, {"scale", "argument 0", "Buffer<float>"});
}
