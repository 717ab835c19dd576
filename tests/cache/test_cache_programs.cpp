// The kernel cache from the inside, part 3: programs. The in-process layer (a program
// built twice in a context is built once) and the process-wide cache behind
// Context::build (a launched program is saved, and another context loads it), on every
// device.
#include <chrono>
#include <optional>
#include <random>
#include <thread>

#include "cache/kernel_cache.hpp"
#include "cache_test_support.hpp"
#include "internals.hpp"
#include "objects.hpp"
#include "queue_gate.hpp"

namespace {

// A source no earlier run can have cached: the disk layer cannot answer for it.
std::string unique_source(const std::string& kernel_name) {
  static std::mt19937_64 random(std::random_device{}());
  return "// " + std::to_string(random()) + "\nkernel void " + kernel_name +
         "(global int* x, int v) { x[get_global_id(0)] = v + (int)get_global_id(0); }\n";
}

// Whether a test may save programs: only into the folder CTest gives it (never the user's own
// cache), and only where that folder is writable. Says why not otherwise.
bool may_save_test_programs() {
  if (!xgpu_test::env("XGPU_CACHE_DIR")) {
    WARN("XGPU_CACHE_DIR is not set: not writing test programs into your own cache");
    return false;
  }
  const auto& store = xgpu::detail::KernelCache::instance().store();
  if (!store.writable()) {
    WARN("the kernel cache is not writable here (" << store.settings().note << "): case skipped");
    return false;
  }
  return true;
}

void check_runs(const xgpu::Context& context, const xgpu::Program& program,
                const std::string& kernel_name, int value) {
  xgpu::Queue queue = context.queue();
  const std::size_t n = 64;
  xgpu::Buffer<int> x = context.alloc<int>(n);
  queue.launch(program.kernel(kernel_name), xgpu::Range{n}, xgpu::Range{16}, x, value);
  std::vector<int> host = queue.read(x);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += host[i] != value + static_cast<int>(i);
  CHECK(wrong == 0);
}

}  // namespace

TEST_CASE("a program built twice in one context is built once", "[cache]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      const xgpu::Source source{"twice.cl", unique_source("twice")};
      xgpu::Program first = context.build(source, "-DA=1");
      xgpu::Program second = context.build(source, "-DA=1");
      CHECK(xgpu::detail::Internals::state(first) == xgpu::detail::Internals::state(second));
      CHECK(xgpu::detail::Internals::state(context.build(source, "  -DA=1 ")) ==
            xgpu::detail::Internals::state(first));  // same options
      xgpu::Program other = context.build(source, "-DA=2");
      CHECK(xgpu::detail::Internals::state(other) != xgpu::detail::Internals::state(first));
      xgpu::Program renamed = context.build({"renamed.cl", source.text}, "-DA=1");
      CHECK(renamed.kernel_names() == first.kernel_names());
      CHECK(renamed.source_name() == "renamed.cl");  // its own name, for its messages
      // Another context has its own programs.
      xgpu::Context another(device);
      xgpu::Program elsewhere = another.build(source, "-DA=1");
      CHECK(xgpu::detail::Internals::state(elsewhere) != xgpu::detail::Internals::state(first));
      check_runs(context, first, "twice", 5);
      check_runs(another, elsewhere, "twice", 7);
      // Saved now rather than at exit: this case is about the in-process layer, and
      // saving at exit is what check_cache.py tests, in processes of its own.
      xgpu::cache::flush();
    }
  }
}

TEST_CASE("a launched program is saved, and another context loads it", "[cache]") {
  if (!may_save_test_programs()) return;
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      const std::string name = "saved_" + std::to_string(device.index());
      const xgpu::Source source{name + ".cl", unique_source(name)};
      xgpu::Context context(device);
      xgpu::Program built = context.build(source);
      REQUIRE(xgpu::detail::Internals::state(built)->ticket);
      CHECK(xgpu::detail::Internals::state(built)->ticket->variants_text().empty());
      check_runs(context, built, name, 3);
      xgpu::cache::flush();  // written now, not 300 ms later

      bool listed = false;
      for (const auto& entry : xgpu::cache::list()) {
        if (entry.source != source.name) continue;
        listed = true;
        CHECK(entry.valid);
        CHECK(entry.kernels == name);
        CHECK(entry.device == device.info().name);
        CHECK(entry.driver == device.info().driver_version);
      }
      if (!listed) {
        // Allowed only for a driver that gives no binaries back.
        WARN(device.describe() << " left no cache entry for " << source.name);
        CHECK_FALSE(xgpu_test::is_pocl(device));
        continue;
      }
      xgpu::Context fresh(device);
      xgpu::Program loaded = fresh.build(source);
      CHECK(xgpu::detail::Internals::state(loaded) != xgpu::detail::Internals::state(built));
      REQUIRE(xgpu::detail::Internals::state(loaded)->ticket);
      // Loaded from the entry: it already knows the launch shape saved with it.
      CHECK_THAT(xgpu::detail::Internals::state(loaded)->ticket->variants_text(),
                 Catch::Matchers::Contains(name + "@1d:16"));
      CHECK(loaded.kernel_names() == built.kernel_names());
      check_runs(fresh, loaded, name, 11);
    }
  }
}

namespace {

// A kernel with a required work-group size, as GEMM's, that spins `rounds` steps of an integer
// generator (exact on every device), then one more kernel, slow to compile, after it in the
// program: PoCL compiles the kernels one by one when a binary is fetched, so the second one
// keeps the first one's fresh generic entry at a count of 0 for a while (known_drivers.def,
// finish_queues_before_binary).
std::string spinning_source() {
  static std::mt19937_64 random(std::random_device{}());
  // The number is in the code, not a comment: PoCL's own cache would see through a comment.
  std::string source = "#define SALT " + std::to_string(random() % 1000000) + "\n" +
                       "kernel __attribute__((reqd_work_group_size(8, 1, 1)))\n"
                       "void spin(global uint* x, int rounds) {\n"
                       "  uint v = (uint)get_global_id(0);\n"
                       "  for (int r = 0; r < rounds; ++r) v = v * 1103515245u + 12345u;\n"
                       "  x[get_global_id(0)] = v;\n"
                       "}\n"
                       "kernel void slow_to_compile(global float* y) {\n"
                       "  float v = y[get_global_id(0)];\n";
  for (int step = 0; step < 30; ++step) {
    source += "  v = sin(v * " + std::to_string(step + 1) + ".5f) + cos(v) * " +
              std::to_string(step) + ".25f;\n";
  }
  return source + "  y[get_global_id(0)] = v + SALT;\n}\n";
}

uint32_t spun(uint32_t v, int rounds) {
  for (int r = 0; r < rounds; ++r) v = v * 1103515245u + 12345u;
  return v;
}

}  // namespace

TEST_CASE("a program is saved while launches of it still run", "[cache]") {
  if (!may_save_test_programs()) return;
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      const bool slow_device = xgpu_test::is_oclgrind(device);
      const std::size_t n = slow_device ? 64 : 8192;
      const int rounds = slow_device ? 3 : 2000;
      const int launches = slow_device ? 2 : 16;
      const xgpu::Source source{"spinning_" + std::to_string(device.index()) + ".cl",
                                spinning_source()};
      xgpu::Context context(device);
      xgpu::Program program = context.build(source);
      xgpu::Kernel spin = program.kernel("spin");
      xgpu::Queue queue = context.queue();
      xgpu::Buffer<uint32_t> x = context.alloc<uint32_t>(n);
      // The first launch is the one the save waits for; the wider ones after it (another
      // work-group function in PoCL, for a larger grid) are still queued when the save starts.
      // Their rounds alternate, so the result also shows that the last one ran last.
      queue.launch(spin, xgpu::Range{8}, xgpu::Range{8}, x, rounds).wait();
      for (int i = 0; i < launches; ++i) {
        queue.launch(spin, xgpu::Range{n}, xgpu::Range{8}, x, rounds + (i % 2));
      }
      xgpu::cache::flush();
      std::vector<uint32_t> host = queue.read(x);
      const int last_rounds = rounds + ((launches - 1) % 2);
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < n; ++i) {
        wrong += host[i] != spun(static_cast<uint32_t>(i), last_rounds);
      }
      CHECK(wrong == 0);
      bool listed = false;
      for (const auto& entry : xgpu::cache::list()) listed |= entry.source == source.name;
      if (xgpu_test::is_pocl(device)) CHECK(listed);
    }
  }
}

namespace {

// A fresh program launched once (so the cache saves it next), then launched again on `gated`,
// held there behind a QueueGate: pending until open() or the gate's watchdog.
struct HeldLaunch {
  explicit HeldLaunch(const xgpu::Device& device)
      : context(device),
        // Its own file name too, so that no entry an earlier run left can be the one listed.
        source{"gated_" + std::to_string(std::random_device{}()) + ".cl", unique_source("gated")},
        kernel(context.build(source).kernel("gated")),
        gated(context.queue()),
        free(context.queue()),
        held_output(context.alloc<int>(kSize)),
        free_output(context.alloc<int>(kSize)) {
    // The gate first: the save is due 300 ms after the first launch, which the save waits
    // for, and that launch's compile may take longer on a loaded machine. So the held launch
    // is queued before the first one can end, and no save can find the queues idle.
    gate.emplace(context, gated, std::chrono::seconds(5));
    xgpu::Event first = free.launch(kernel, xgpu::Range{kSize}, xgpu::Range{16}, free_output, 1);
    held = gated.launch(kernel, xgpu::Range{kSize}, xgpu::Range{16}, held_output, 3);
    gated.flush();
    first.wait();
  }
  void launch_free(int value) {
    free.launch(kernel, xgpu::Range{kSize}, xgpu::Range{16}, free_output, value).wait();
  }
  // Opens the gate and checks both outputs (the free one holds `free_value`'s launch).
  void open_and_check(int free_value) {
    gate->open();
    held.wait();
    std::vector<int> expected(kSize);
    for (std::size_t i = 0; i < kSize; ++i) expected[i] = 3 + static_cast<int>(i);
    CHECK(free.read(held_output) == expected);
    for (std::size_t i = 0; i < kSize; ++i) expected[i] = free_value + static_cast<int>(i);
    CHECK(free.read(free_output) == expected);
  }
  bool saved() const {
    bool listed = false;
    for (const auto& entry : xgpu::cache::list()) listed |= entry.source == source.name;
    return listed;
  }

  static constexpr std::size_t kSize = 64;
  xgpu::Context context;
  xgpu::Source source;
  xgpu::Kernel kernel;
  xgpu::Queue gated;
  xgpu::Queue free;
  xgpu::Buffer<int> held_output;
  xgpu::Buffer<int> free_output;
  std::optional<xgpu_test::QueueGate> gate;
  xgpu::Event held;
};

/// Joins a thread when the scope ends, if nothing joined it before: a joinable std::thread
/// destroyed by an exception would end the whole test run.
class JoinAtScopeEnd {
 public:
  explicit JoinAtScopeEnd(std::thread& thread) : thread_(thread) {}
  JoinAtScopeEnd(const JoinAtScopeEnd&) = delete;
  JoinAtScopeEnd& operator=(const JoinAtScopeEnd&) = delete;
  ~JoinAtScopeEnd() {
    if (thread_.joinable()) thread_.join();
  }

 private:
  std::thread& thread_;
};

/// Runs `body` on each PoCL device, whose binary fetch waits for its queues (known_drivers.def,
/// finish_queues_before_binary); on Oclgrind the gate's raw OpenCL calls would race the
/// module's, which xgpu serialises (serialize_all_calls). Checks that it ran where PoCL is.
template <class Body>
void on_each_pocl_device_with_a_cache(Body&& body) {
  if (may_save_test_programs()) xgpu_test::for_each_pocl_device(body);
}

}  // namespace

// A command held behind a user event (interop) must not hold every launch of the process while
// the cache saves a program: PoCL's binary is fetched only while its queues are idle, and the
// fetch takes the lock launches take. Before, it waited for the queues under that lock, so a
// thread that would open the gate after a launch of its own waited for the gate's watchdog.
TEST_CASE("saving a program does not hold launches behind a queue waiting for a user event",
          "[cache]") {
  on_each_pocl_device_with_a_cache([](const xgpu::Device& device) {
    HeldLaunch launches(device);
    // Saves now, with `held` pending.
    std::thread saver([] { xgpu::cache::flush(); });
    JoinAtScopeEnd join_saver(saver);                             // also when a check below throws
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the save is waiting
    launches.launch_free(2);
    // Still held: this launch did not wait for the gate's watchdog.
    CHECK(launches.held.status() != xgpu::EventStatus::complete);
    launches.open_and_check(2);
    saver.join();  // the save, tried again once the queue drained
    CHECK(launches.saved());
  });
}

// A queue held for good must not hold the save, nor the flush waiting for it, for good (a
// process whose thread ends flushes its saves): the fetch gives up. The CTest entry loads the
// tests' copy of the opencl module, whose give-up is 0.5 s (backends/opencl/CMakeLists.txt);
// the gate's watchdog opens after 5 s. Hidden: it runs only in that entry.
TEST_CASE("a save gives up on a queue held behind a user event", "[.cache_give_up]") {
  bool short_give_up = false;
  for (const xgpu::BackendReport& report : xgpu::backends()) {
    if (report.name == "opencl" && report.loaded)
      short_give_up = report.path.rfind(XGPU_TEST_SHORT_GIVE_UP_MODULE_DIR, 0) == 0;
  }
  REQUIRE(short_give_up);  // else the save would wait 10 s: the watchdog would open first
  on_each_pocl_device_with_a_cache([](const xgpu::Device& device) {
    HeldLaunch launches(device);
    xgpu::cache::flush();  // returns once the save has given up
    CHECK(launches.held.status() != xgpu::EventStatus::complete);
    CHECK_FALSE(launches.saved());
    launches.launch_free(2);  // launches go on
    launches.open_and_check(2);
  });
}

// The launch a save waits for held for good: a program's first launch, behind a user event. A
// thread that built and launched it flushes the pending saves when it ends (as the main thread
// does at exit); that flush waits for the launch a bounded time only (shortened here from 10 s
// to 0.3 s), not until the gate opens, and the save, left pending, is made once the launch ends.
TEST_CASE("a thread's end does not wait without bound for a held launch of a program to save",
          "[cache]") {
  on_each_pocl_device_with_a_cache([](const xgpu::Device& device) {
    auto& cache = xgpu::detail::KernelCache::instance();
    const auto launch_wait = cache.launch_wait();
    cache.set_launch_wait(std::chrono::milliseconds(300));
    struct Restore {
      std::chrono::milliseconds wait;
      ~Restore() { xgpu::detail::KernelCache::instance().set_launch_wait(wait); }
    } restore{launch_wait};
    constexpr std::size_t n = 64;
    constexpr auto kWatchdog = std::chrono::seconds(8);
    xgpu::Context context(device);
    const xgpu::Source source{"held_first_" + std::to_string(std::random_device{}()) + ".cl",
                              unique_source("held_first")};
    xgpu::Queue gated = context.queue();
    xgpu::Buffer<int> out = context.alloc<int>(n);
    xgpu_test::QueueGate gate(context, gated, kWatchdog);
    xgpu::Event held;
    std::thread builder([&] {  // builds, launches behind the gate, ends
      held = gated.launch(context.build(source).kernel("held_first"), xgpu::Range{n},
                          xgpu::Range{16}, out, 5);
      gated.flush();
    });
    const auto start = std::chrono::steady_clock::now();
    builder.join();
    const auto took = std::chrono::steady_clock::now() - start;
    CHECK(took < kWatchdog / 2);  // without the bound: until the watchdog opens the gate
    CHECK(held.status() != xgpu::EventStatus::complete);
    auto saved = [&] {
      bool listed = false;
      for (const auto& entry : xgpu::cache::list()) listed |= entry.source == source.name;
      return listed;
    };
    CHECK_FALSE(saved());
    gate.open();
    held.wait();
    xgpu::cache::flush();  // the save left pending, now that its launch has ended
    CHECK(saved());
    std::vector<int> expected(n);
    for (std::size_t i = 0; i < n; ++i) expected[i] = 5 + static_cast<int>(i);
    CHECK(gated.read(out) == expected);
  });
}

// Found by fuzzing (tests/fuzz/fuzz_signature.cpp): a cache entry's type name with a long run
// of digits threw std::out_of_range out of the build, and one of 10 digits wrapped to a lane
// count that looked right ("int4294967297" read as an int).
TEST_CASE("saved kernel signatures read back as written; odd type names stay opaque", "[cache]") {
  const std::string text =  // in kernel-name order, as encode writes them
      "empty();k(x|float4|0,y|global float*|1,z|float99999999999999999999|0,w|int4294967297|0)";
  const auto signatures = xgpu::detail::decode_signatures(text);
  REQUIRE(signatures.size() == 2);
  const auto& k = signatures.at("k");
  REQUIRE(k.size() == 4);
  CHECK(k[0].element == "float");
  CHECK(k[0].lanes == 4);
  CHECK(k[0].value_size == 16);
  CHECK(k[1].pointer);
  CHECK(k[1].address_space == 1);
  CHECK(k[2].element.empty());
  CHECK(k[3].element.empty());
  CHECK(signatures.at("empty").empty());
  CHECK(xgpu::detail::encode_signatures(signatures) == text);
}
