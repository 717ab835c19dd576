// The events suite: status after wait, profiling timestamps (non-zero, in order, and
// durations that follow a kernel's known work), and wait lists across queues (Launch::after).
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "check.hpp"
#include "profiling_judge.hpp"

namespace xgpu::conform {
namespace {

const char* const kSource = R"(
kernel void spin(global int* data, uint rounds) {
  size_t i = get_global_id(0);
  uint v = (uint)data[i];  // unsigned: wrapping is defined
  for (uint r = 0; r < rounds; ++r) v = v * 3 + 1;
  data[i] = (int)v;
}
kernel void plus_one(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  out[i] = in[i] + 1;
}
)";

const char* status_name(EventStatus status) {
  switch (status) {
    case EventStatus::queued:
      return "queued";
    case EventStatus::submitted:
      return "submitted";
    case EventStatus::running:
      return "running";
    case EventStatus::complete:
      return "complete";
  }
  return "?";
}

Result status_after_wait(Env& env) {
  Buffer<int> data = env.context().alloc<int>(64);
  env.queue().fill(data, 1);
  Event event = env.queue().launch(env.program("conform_events.cl", kSource).kernel("spin"),
                                   Range{64}, data, 100u);
  event.wait();
  if (event.status() != EventStatus::complete)
    return fail_expected("status after wait()", "complete", status_name(event.status()));
  return pass();
}

// The spin kernel with `scale` times the rounds: work of a known relative length. A program
// of its own, so that a test can break it without touching the other events checks.
const char* const kProfilingSource = R"(
kernel void spin_scaled(global uint* data, uint rounds, uint scale) {
  size_t i = get_global_id(0);
  uint v = data[i];
  for (uint r = 0; r < rounds * scale; ++r) v = v * 3 + 1;
  data[i] = v;
}
)";

// Short and 8 times longer launches, interleaved, each timed by the host from before the
// launch to after its wait; judged by judge_profiling (profiling_judge.hpp). Four of each:
// the fastest of each is compared, so one launch slowed by a busy machine does not count.
Result profiling_order(Env& env) {
  const std::size_t n = env.size(1024, 16);
  const std::uint32_t rounds = static_cast<std::uint32_t>(env.size(2000, 400));
  Buffer<std::uint32_t> data = env.context().alloc<std::uint32_t>(n);
  env.queue().fill(data, 1u);
  Kernel spin = env.program("conform_profiling.cl", kProfilingSource).kernel("spin_scaled");
  env.queue().launch(spin, Range{n}, data, rounds, 1u).wait();  // warm-up: first-launch costs
  std::vector<TimedLaunch> launches;
  for (int i = 0; i < 8; ++i) {
    const unsigned scale = i % 2 ? 8 : 1;
    const auto before = std::chrono::steady_clock::now();
    Event event = env.queue().launch(spin, Range{n}, data, rounds, scale);
    event.wait();
    const auto after = std::chrono::steady_clock::now();
    launches.push_back(
        {event.profile(),
         static_cast<std::uint64_t>(
             std::chrono::duration_cast<std::chrono::nanoseconds>(after - before).count()),
         scale});
  }
  const std::string wrong = judge_profiling(launches);
  if (!wrong.empty()) return fail("spin kernel: " + wrong);
  return pass();
}

// The second queue must not start plus_one before the first queue's spin has finished.
Result wait_list(Env& env) {
  const std::size_t n = env.size(1024, 64);
  Program program = env.program("conform_events.cl", kSource);
  Queue other = env.context().queue();
  Buffer<int> data = env.context().alloc<int>(n), out = env.context().alloc<int>(n);
  env.queue().fill(data, 2).wait();
  Event first = env.queue().launch(program.kernel("spin"), Range{n}, data, 1000u);
  env.queue().flush();
  other.launch(program.kernel("plus_one"), Launch(Range{n}).after({first}), data, out);
  const std::vector<int> got = other.read(out);
  int expected = 2;
  for (int r = 0; r < 1000; ++r)
    expected = static_cast<int>(static_cast<unsigned>(expected) * 3u + 1u);
  expected = static_cast<int>(static_cast<unsigned>(expected) + 1u);
  for (std::size_t i = 0; i < n; ++i) {
    if (got[i] != expected)
      return fail_expected("element " + std::to_string(i) + " after the wait list", expected,
                           got[i]);
  }
  return pass();
}

}  // namespace

void register_events(Registry& registry) {
  registry.add("events", "status_after_wait", "", status_after_wait);
  registry.add("events", "profiling_timestamps_ordered", "", profiling_order);
  registry.add("events", "wait_list_across_queues", "", wait_list);
}

}  // namespace xgpu::conform
