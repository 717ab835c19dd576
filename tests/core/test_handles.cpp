// Handles are values: copies share, moves move, self-assignment and self-move leave a
// working object, a moved-from handle is empty, and objects outlive the handles they came from.
#include "test_support.hpp"

using xgpu_test::capture_error;
using xgpu_test::check_error;

namespace {

// Puts a handle through every copy and move, calling `use` (which must throw or fail a
// check when the handle does not work) on each holder that should still work. is_set
// says whether a holder owns an object; a moved-from holder must not.
template <class Handle, class Use, class IsSet>
void exercise(Handle original, Use use, IsSet is_set, bool moves_empty = true) {
  use(original);

  Handle copy(original);  // copies share
  use(copy);
  use(original);

  Handle assigned;
  CHECK_FALSE(is_set(assigned));
  assigned = copy;
  use(assigned);

#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wself-assign-overloaded"
#pragma clang diagnostic ignored "-Wself-move"
#elif defined(__GNUC__)
#pragma GCC diagnostic push
#if __GNUC__ >= 13
#pragma GCC diagnostic ignored "-Wself-move"
#endif
#endif
  copy = copy;  // self-assignment
  use(copy);
  copy = std::move(copy);  // self-move: still the same working object
  use(copy);
#if defined(__clang__)
#pragma clang diagnostic pop
#elif defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

  Handle moved(std::move(original));
  if (moves_empty) CHECK_FALSE(is_set(original));  // moved-from is empty
  use(moved);

  Handle move_assigned;
  move_assigned = std::move(moved);
  if (moves_empty) CHECK_FALSE(is_set(moved));
  use(move_assigned);

  moved = assigned;  // a moved-from handle takes a new value
  use(moved);
  assigned = Handle();  // dropping one copy leaves the others working
  use(moved);
  use(move_assigned);
}

auto bool_of = [](const auto& handle) { return static_cast<bool>(handle); };

const char* const kAddOne =
    "kernel void add_one(global int* data) { data[get_global_id(0)] += 1; }\n";

}  // namespace

TEST_CASE("handle copy and move and self-assignment and self-move", "[handles]") {
  const xgpu::Device device = xgpu::select("pocl");
  xgpu::Context context(device);
  xgpu::Queue queue = context.queue();
  xgpu::Buffer<int> data = context.alloc<int>(8);
  queue.fill(data, 0);
  int expected = 0;

  SECTION("Device") {
    // A Device is a plain value (a pointer to a record that lives as long as the process):
    // moving copies it.
    exercise(
        device, [&](const xgpu::Device& d) { CHECK(d.info().name == device.info().name); }, bool_of,
        false);
  }
  SECTION("Context") {
    exercise(
        context,
        [&](const xgpu::Context& c) {
          CHECK(c.device() == device);
          CHECK(c.alloc<int>(2).size() == 2);
        },
        bool_of);
  }
  SECTION("Queue") {
    exercise(
        queue,
        [&](xgpu::Queue q) {
          q.fill(data, ++expected);
          q.finish();
          CHECK(queue.read(data) == std::vector<int>(8, expected));
        },
        bool_of);
  }
  SECTION("Buffer") {
    exercise(
        data,
        [&](xgpu::Buffer<int> b) {
          REQUIRE(b.size() == 8);
          queue.fill(b, ++expected);
          CHECK(queue.read(data) == std::vector<int>(8, expected));  // the same memory
        },
        [](const xgpu::Buffer<int>& b) {
          return xgpu::interop::native(b) != nullptr || !b.empty();
        });
  }
  SECTION("Program") {
    xgpu::Program program = context.build({"add_one.cl", kAddOne});
    exercise(
        program, [&](const xgpu::Program& p) { CHECK(p.kernel("add_one").name() == "add_one"); },
        bool_of);
  }
  SECTION("Kernel") {
    xgpu::Kernel kernel = context.build({"add_one.cl", kAddOne}).kernel("add_one");
    exercise(
        kernel,
        [&](const xgpu::Kernel& k) {
          queue.launch(k, xgpu::Range{8}, data);
          ++expected;
          CHECK(queue.read(data) == std::vector<int>(8, expected));
        },
        bool_of);
  }
  SECTION("Event") {
    exercise(
        queue.fill(data, 5),
        [&](const xgpu::Event& e) {
          e.wait();
          CHECK(e.status() == xgpu::EventStatus::complete);
        },
        bool_of);
  }
}

TEST_CASE("a moved-from handle is refused and not dereferenced", "[handles]") {
  xgpu::Context context(xgpu::select("pocl"));
  xgpu::Queue queue = context.queue();
  xgpu::Buffer<int> data = context.alloc<int>(8);
  xgpu::Buffer<int> taken = std::move(data);
  std::vector<int> host(8);
  CHECK(data.size() == 0);
  check_error(capture_error([&] { queue.read(data, host.data(), 8); }), xgpu::Errc::invalid_handle);
  queue.read(taken, host.data(), 8);

  xgpu::Queue other = std::move(queue);
  check_error(capture_error([&] { queue.finish(); }), xgpu::Errc::invalid_handle);
  other.finish();
  xgpu::Context moved_context = std::move(context);
  check_error(capture_error([&] { context.queue(); }), xgpu::Errc::invalid_handle);
}

TEST_CASE("objects outlive the handles they were made from", "[handles]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Queue queue;
      xgpu::Kernel kernel;
      xgpu::Buffer<int> data;
      {
        xgpu::Context context(device);
        queue = context.queue();
        data = context.alloc<int>(16);
        kernel = context.build({"add_one.cl", kAddOne}).kernel("add_one");
      }  // the Context and the Program handles are gone; their objects live on
      queue.fill(data, 41);
      queue.launch(kernel, xgpu::Range{16}, data);
      CHECK(queue.read(data) == std::vector<int>(16, 42));
      CHECK(queue.context().device() == device);
    }
  }
}
