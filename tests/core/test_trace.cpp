// The trace (xgpu/trace.hpp): a small program's trace parses as JSON, before stop() (cut
// short, closed here as Perfetto's importer tolerates) and after; it has one event per
// command with consistent times, one process per device and one track per queue.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <xgpu/opencl.hpp>
#include <xgpu/trace.hpp>

#include "test_support.hpp"

namespace {

using nlohmann::json;
using xgpu_test::problem_size;

constexpr const char* kScale =
    "kernel void scale(global float* x, float a) { x[get_global_id(0)] *= a; }\n";

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string trace_path(const char* name) {
  return (std::filesystem::temp_directory_path() /
          ("xgpu-test-" + std::to_string(::getpid()) + "-" + name + ".json"))
      .string();
}

// The complete ("X") events of one category, in file order.
std::vector<json> events_of(const json& trace, const std::string& category) {
  std::vector<json> found;
  for (const json& event : trace["traceEvents"]) {
    if (event.value("ph", "") == "X" && event.value("cat", "") == category) found.push_back(event);
  }
  return found;
}

// The name a metadata event ("process_name", "thread_name") gives pid (and tid).
std::string metadata_name(const json& trace, const char* kind, int pid, int tid = -1) {
  for (const json& event : trace["traceEvents"]) {
    if (event.value("ph", "") != "M" || event.value("name", "") != kind) continue;
    if (event.value("pid", -1) != pid) continue;
    if (tid >= 0 && event.value("tid", -1) != tid) continue;
    return event["args"].value("name", "");
  }
  return {};
}

struct DeviceRun {
  std::string name;
  std::size_t bytes = 0;
  xgpu::MemoryStats held;  ///< the context's memory_stats() while its buffer lived
};

// A build, a write, two launches (on two queues, one asked for with profiling) and a read,
// inside a user range; returns what the trace should show for it. While a trace runs every
// queue is profiled, the one not asked for too.
DeviceRun run_small_program(const xgpu::Device& device) {
  xgpu::trace::range step("step on " + device.info().name);
  xgpu::Context context(device);
  xgpu::Queue profiled = context.queue(xgpu::QueueOptions{true});
  xgpu::Queue plain = context.queue();
  CHECK(plain.profiling());
  const std::size_t n = problem_size(device, 4096);
  std::vector<float> host(n, 1.0f);
  xgpu::Buffer<float> x = context.alloc<float>(n);
  xgpu::Kernel scale = context.build({"scale.cl", kScale}).kernel("scale");
  profiled.write(x, host);
  profiled.launch(scale, xgpu::Range{n}, x, 2.0f);
  profiled.finish();
  plain.launch(scale, xgpu::Range{n}, x, 3.0f);
  const std::vector<float> result = plain.read(x);
  CHECK(result == std::vector<float>(n, 6.0f));
  return {device.info().name, n * sizeof(float), context.memory_stats()};
}

void check_small_program_trace(const json& trace, const std::vector<DeviceRun>& runs) {
  REQUIRE(trace.contains("traceEvents"));
  const std::vector<json> builds = events_of(trace, "build");
  const std::vector<json> launches = events_of(trace, "launch");
  const std::vector<json> copies = events_of(trace, "copy");
  const std::vector<json> ranges = events_of(trace, "range");
  CHECK(builds.size() == runs.size());
  CHECK(launches.size() == 2 * runs.size());
  CHECK(copies.size() == 2 * runs.size());
  REQUIRE(ranges.size() == runs.size());

  for (const auto& kind : {builds, launches, copies, ranges}) {
    for (const json& event : kind) {
      INFO(event.dump());
      CHECK(event["ts"].get<double>() >= 0);
      CHECK(event["dur"].get<double>() >= 0);  // start <= end
    }
  }
  std::set<int> device_pids;
  for (std::size_t d = 0; d < runs.size(); ++d) {
    INFO("device " << runs[d].name);
    const json& range = ranges[d];
    const double begin = range["ts"].get<double>();
    const double end = begin + range["dur"].get<double>();
    // This device's commands: those inside its range.
    std::vector<json> mine;
    for (const auto& kind : {builds, launches, copies}) {
      for (const json& event : kind) {
        const double ts = event["ts"].get<double>();
        if (ts >= begin && ts <= end) mine.push_back(event);
      }
    }
    std::string listed;
    for (const json& event : mine) listed += event.dump() + "\n";
    INFO("range " << range.dump() << "\nevents in it:\n" << listed);
    REQUIRE(mine.size() == 5);
    const int pid = mine[0]["pid"].get<int>();
    CHECK(pid != 1);  // pid 1 is the host
    CHECK(metadata_name(trace, "process_name", pid).find(runs[d].name) != std::string::npos);
    device_pids.insert(pid);
    std::set<int> launch_tids;
    std::map<std::string, std::uint64_t> bytes_by_direction;
    for (const json& event : mine) {
      INFO(event.dump());
      CHECK(event["pid"].get<int>() == pid);
      // Within the range: device times placed on the host clock included.
      CHECK(event["ts"].get<double>() + event["dur"].get<double>() <= end);
      if (event["cat"] != "build") {
        // Every queue profiled: every command on the device's clock.
        CHECK(
            metadata_name(trace, "thread_name", pid, event["tid"].get<int>()).find("(profiling)") !=
            std::string::npos);
        CHECK(event["args"]["clock"].get<std::string>().rfind("device", 0) == 0);
      }
      if (event["cat"] == "launch") {
        CHECK(event["name"] == "scale");
        CHECK(event["args"]["global"] == json::array({runs[d].bytes / sizeof(float)}));
        launch_tids.insert(event["tid"].get<int>());
      }
      if (event["cat"] == "copy") {
        bytes_by_direction[event["args"]["direction"].get<std::string>()] +=
            event["args"]["bytes"].get<std::uint64_t>();
      }
      if (event["cat"] == "build") CHECK(event["tid"] == 1);
    }
    CHECK(launch_tids.size() == 2);  // one track per queue
    CHECK(bytes_by_direction["host to device"] == runs[d].bytes);
    CHECK(bytes_by_direction["device to host"] == runs[d].bytes);
  }
  CHECK(device_pids.size() == runs.size());  // one process per device
}

}  // namespace

TEST_CASE("the trace of a small program", "[trace]") {
  const std::string path = trace_path("small");
  xgpu::trace::start(path);
  CHECK(xgpu::trace::running());
  std::vector<DeviceRun> runs;
  for (const xgpu::Device& device : xgpu::devices()) runs.push_back(run_small_program(device));
  REQUIRE(!runs.empty());

  SECTION("cut short before stop: the file so far, closed as Perfetto does, parses") {
    xgpu::trace::flush();
    const std::string text = file_text(path);
    CHECK(text.rfind("{\"traceEvents\":[", 0) == 0);
    CHECK(!json::accept(text));  // not closed yet
    const json trace = json::parse(text + "]}");
    check_small_program_trace(trace, runs);
    xgpu::trace::stop();
  }
  SECTION("after stop: the file is complete JSON") {
    xgpu::trace::stop();
    CHECK(!xgpu::trace::running());
    const json trace = json::parse(file_text(path));
    check_small_program_trace(trace, runs);
    // The allocator's counters: reserved never below allocated; each context's values while
    // its buffer lived are memory_stats()' exactly, and its buffer's free is seen (0 again).
    std::set<std::pair<std::uint64_t, std::uint64_t>> values;
    std::size_t counters = 0, back_to_zero = 0;
    for (const json& event : trace["traceEvents"]) {
      if (event.value("ph", "") != "C") continue;
      ++counters;
      const auto allocated = event["args"]["allocated"].get<std::uint64_t>();
      const auto reserved = event["args"]["reserved"].get<std::uint64_t>();
      CHECK(reserved >= allocated);
      values.insert({allocated, reserved});
      if (allocated == 0) ++back_to_zero;
    }
    CHECK(counters >= 2 * runs.size());
    CHECK(back_to_zero >= runs.size());
    for (const DeviceRun& run : runs) {
      INFO(run.name << ": memory_stats allocated " << run.held.allocated << ", reserved "
                    << run.held.reserved);
      CHECK(run.held.allocated == run.bytes);
      CHECK(values.count({run.held.allocated, run.held.reserved}) == 1);
    }
  }
  std::remove(path.c_str());
}

TEST_CASE("launches that are never synchronised are written at stop", "[trace]") {
  const std::string path = trace_path("unsynchronised");
  xgpu::Device device = xgpu::devices().front();
  xgpu::Context context(device);
  xgpu::Queue queue = context.queue(xgpu::QueueOptions{true});
  xgpu::Kernel scale = context.build({"scale.cl", kScale}).kernel("scale");
  xgpu::Buffer<float> x = context.alloc<float>(64);
  xgpu::trace::start(path);
  for (int i = 0; i < 3; ++i) queue.launch(scale, xgpu::Range{64}, x, 1.0f);
  xgpu::trace::stop();  // waits for the three launches, writes them
  const json trace = json::parse(file_text(path));
  CHECK(events_of(trace, "launch").size() == 3);
  CHECK(events_of(trace, "build").empty());  // built before the trace started
  // Nothing more is traced after stop.
  queue.launch(scale, xgpu::Range{64}, x, 1.0f);
  queue.finish();
  CHECK(events_of(json::parse(file_text(path)), "launch").size() == 3);
  std::remove(path.c_str());
}

TEST_CASE("a trace file that cannot be written is a named error", "[trace]") {
  const std::string path = "/nonexistent-xgpu-folder/trace.json";
  const xgpu::Error error = xgpu_test::capture_error([&] { xgpu::trace::start(path); });
  CHECK(error.code() == xgpu::Errc::invalid_argument);
  CHECK_THAT(error.what(), Catch::Contains(path));
  CHECK(!xgpu::trace::running());
}

// Run alone, with XGPU_TRACE set to a path that cannot be written (tests/CMakeLists.txt):
// the program runs, untraced.
TEST_CASE("an unwritable XGPU_TRACE leaves the program untraced", "[trace_unwritable]") {
  REQUIRE(xgpu_test::env("XGPU_TRACE"));
  xgpu::Device device = xgpu::devices().front();
  xgpu::Context context(device);
  xgpu::Queue queue = context.queue();
  xgpu::Buffer<float> x = context.alloc<float>(16);
  queue.write(x, std::vector<float>(16, 4.0f));
  CHECK(queue.read(x) == std::vector<float>(16, 4.0f));
  CHECK(!xgpu::trace::running());
}

namespace {

constexpr const char* kTouch = "kernel void touch(global int* x) { x[0] += 1; }\n";

// A kernel long enough (tens of millions of rounds: about a second on PoCL) for a test to do
// a few thousand launches behind it while it runs.
constexpr const char* kSpin = R"(
    kernel void spin(global int* out, int rounds) {
      uint x = (uint)get_global_id(0);
      for (int r = 0; r < rounds; ++r) x = x * 1103515245u + 12345u;
      out[get_global_id(0)] = (x == 42u) ? 3 : 1;
    })";

// The first PoCL device: Oclgrind would take minutes over thousands of launches.
std::optional<xgpu::Device> first_pocl() {
  for (const xgpu::Device& device : xgpu::devices()) {
    if (xgpu_test::is_pocl(device)) return device;
  }
  return std::nullopt;
}

}  // namespace

// More pending commands than the recorder keeps (4,096) from two threads at once: the oldest
// are waited for while the others record, and every command is written exactly once, with
// device times that follow each other on each in-order queue.
TEST_CASE("ten thousand traced launches from two threads: one event each, in order", "[trace]") {
  const std::optional<xgpu::Device> device = first_pocl();
  if (!device) {
    REQUIRE(xgpu_test::count_implementation("pocl") == 0);
    return;
  }
  const std::string path = trace_path("many");
  xgpu::Context context(*device);
  xgpu::Program program = context.build({"trace_spin.cl", std::string(kSpin) + kTouch});
  constexpr int kPerThread = 5000;
  xgpu::trace::start(path);
  auto launch_many = [&] {
    xgpu::Queue queue = context.queue(xgpu::QueueOptions{true});
    xgpu::Kernel spin = program.kernel("spin");
    xgpu::Kernel touch = program.kernel("touch");
    xgpu::Buffer<int> x = context.alloc<int>(64);
    queue.fill(x, 0);
    // A short kernel first, so that the launches pile up behind it past the 4,096 pending
    // commands where the threads wait for the oldest of their queues.
    queue.launch(spin, xgpu::Range{64}, x, 2000000);
    queue.fill(x, 0, 1);
    for (int i = 0; i < kPerThread; ++i) queue.launch(touch, xgpu::Range{1}, x);
    CHECK(queue.read(x)[0] == kPerThread);
  };
  std::thread other(launch_many);
  launch_many();
  other.join();
  xgpu::trace::stop();

  const json trace = json::parse(file_text(path));
  std::map<int, std::vector<std::pair<double, double>>> times_by_track;
  for (const json& event : events_of(trace, "launch")) {
    times_by_track[event["tid"].get<int>()].push_back(
        {event["ts"].get<double>(), event["dur"].get<double>()});
  }
  REQUIRE(times_by_track.size() == 2);
  for (auto& [tid, times] : times_by_track) {
    INFO("track " << tid);
    CHECK(times.size() == static_cast<std::size_t>(kPerThread) + 1);
    std::sort(times.begin(), times.end());
    std::size_t overlapping = 0;
    for (std::size_t i = 0; i < times.size(); ++i) {
      CHECK(times[i].first >= 0);
      CHECK(times[i].second >= 0);
      // In order on the device: each starts after the previous ended (to the file's 1 ns).
      if (i > 0 && times[i].first + 0.0015 < times[i - 1].first + times[i - 1].second)
        ++overlapping;
    }
    CHECK(overlapping == 0);
  }
  std::remove(path.c_str());
}

namespace {

// A queue held shut by a user event (the gate, enqueued behind xgpu's back), and a thread
// flooding it with traced launches until the recorder, past its 4,096 pending commands, makes
// it wait for the oldest. A watchdog opens the gate after 3 s whatever happens, so that a
// test fails instead of hanging; the destructor opens it and joins both threads, so that a
// failed check leaves no thread unjoined.
class GatedFlood {
 public:
  static constexpr int kFlood = 4200;
  /// The launch that waits for the oldest: the recorder keeps 4,096 pending commands
  /// (kMaxPending in runtime/src/trace/recorder.cpp), and nothing behind the gate completes.
  static constexpr int kWaitingLaunch = 4096;

  GatedFlood(const xgpu::Device& device, const std::string& trace_file)
      : context_(device),
        queue_(context_.queue()),
        touch_(context_.build({"touch.cl", kTouch}).kernel("touch")),
        x_(context_.alloc<int>(1)) {
    queue_.fill(x_, 0);
    queue_.finish();
    cl_int status = CL_SUCCESS;
    gate_ = clCreateUserEvent(xgpu::opencl::context(context_), &status);
    if (status != CL_SUCCESS || clEnqueueBarrierWithWaitList(xgpu::opencl::queue(queue_), 1, &gate_,
                                                             nullptr) != CL_SUCCESS) {
      if (gate_ != nullptr) clReleaseEvent(gate_);
      throw std::runtime_error("could not put a user event's barrier on the queue");
    }
    try {
      xgpu::trace::start(trace_file);
    } catch (...) {
      clReleaseEvent(gate_);
      throw;
    }
    watchdog_ = std::thread([this] {
      for (int i = 0; i < 300 && !done_.load(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      open_gate();
    });
    flooder_ = std::thread([this] {
      for (int i = 0; i < kFlood; ++i) {
        queue_.launch(touch_, xgpu::Range{1}, x_);
        launched_.fetch_add(1);
      }
    });
    // Until the flooder is into its wait for the oldest command (or the watchdog gave up):
    // every launch before the waiting one has returned.
    while (launched_.load() < kWaitingLaunch - 1 && !opened_.load())
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  GatedFlood(const GatedFlood&) = delete;
  GatedFlood& operator=(const GatedFlood&) = delete;
  ~GatedFlood() {
    join();
    done_.store(true);
    watchdog_.join();
    clReleaseEvent(gate_);
  }

  void open_gate() {
    if (!opened_.exchange(true)) clSetUserEventStatus(gate_, CL_COMPLETE);
  }
  /// Opens the gate and waits for the flooder's last launch.
  void join() {
    open_gate();
    if (flooder_.joinable()) flooder_.join();
  }
  bool opened() const { return opened_.load(); }
  int launched() const { return launched_.load(); }
  xgpu::Context& context() { return context_; }
  /// The counter every launch incremented, once the queue has run them all.
  int count() { return queue_.read(x_)[0]; }

 private:
  xgpu::Context context_;
  xgpu::Queue queue_;
  xgpu::Kernel touch_;
  xgpu::Buffer<int> x_;
  cl_event gate_ = nullptr;
  std::atomic<bool> opened_{false};
  std::atomic<bool> done_{false};
  std::atomic<int> launched_{0};
  std::thread watchdog_;
  std::thread flooder_;
};

}  // namespace

// Past 4,096 pending commands a thread waits for the oldest of its queue; that wait must not
// hold the recorder's lock, or every other traced thread stops until the device is done: with
// the lock held, this thread's traced work would wait for the gate until the watchdog opens it.
TEST_CASE("a thread waiting for its oldest traced command does not stop the others", "[trace]") {
  const std::optional<xgpu::Device> device = first_pocl();
  if (!device) {
    REQUIRE(xgpu_test::count_implementation("pocl") == 0);
    return;
  }
  const std::string path = trace_path("waiting");
  GatedFlood flood(*device, path);
  REQUIRE(!flood.opened());
  REQUIRE(flood.launched() < GatedFlood::kFlood);  // the flooder waits for the gate

  // This thread's traced work that needs no device goes on meanwhile: an allocation and its
  // free (the allocator's counter track) and a range.
  const auto begin = std::chrono::steady_clock::now();
  { xgpu::Buffer<int> scratch = flood.context().alloc<int>(1024); }
  { xgpu::trace::range scope("while the other thread waits"); }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  INFO("this thread's traced work took " << seconds << " s");
  CHECK(!flood.opened());  // done before the watchdog had to open the gate
  CHECK(flood.launched() < GatedFlood::kFlood);
  flood.join();
  CHECK(flood.count() == GatedFlood::kFlood);
  xgpu::trace::stop();
  const json trace = json::parse(file_text(path));
  CHECK(events_of(trace, "launch").size() == static_cast<std::size_t>(GatedFlood::kFlood));
  CHECK(events_of(trace, "range").size() == 1);
  std::size_t counters = 0;
  for (const json& event : trace["traceEvents"]) counters += event.value("ph", "") == "C";
  CHECK(counters >= 2);  // the scratch buffer's allocation and free
  std::remove(path.c_str());
}

// stop() from another thread while the flooder waits: it waits for the commands in flight
// too, and the file it ends holds every launch traced before it, whole.
TEST_CASE("stop() while a thread waits for a traced command waits for it too", "[trace]") {
  const std::optional<xgpu::Device> device = first_pocl();
  if (!device) {
    REQUIRE(xgpu_test::count_implementation("pocl") == 0);
    return;
  }
  const std::string path = trace_path("stop_waiting");
  GatedFlood flood(*device, path);
  REQUIRE(!flood.opened());
  // The flooder is inside its waiting launch, enqueued and pending; launches after stop() are
  // not traced. So the file must hold exactly the launches up to the waiting one.
  REQUIRE(flood.launched() == GatedFlood::kWaitingLaunch - 1);
  const int traced = GatedFlood::kWaitingLaunch;
  std::atomic<bool> stopped{false};
  std::thread stopper([&] {
    xgpu::trace::stop();
    stopped.store(true);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(!stopped.load());  // the commands it must write are behind the closed gate
  CHECK(!flood.opened());  // (not the watchdog's doing)
  flood.join();
  stopper.join();
  CHECK(stopped.load());
  CHECK(flood.count() == GatedFlood::kFlood);
  CHECK(!xgpu::trace::running());
  const json trace = json::parse(file_text(path));  // ended: parses without being closed here
  CHECK(events_of(trace, "launch").size() == static_cast<std::size_t>(traced));
  std::remove(path.c_str());
}
