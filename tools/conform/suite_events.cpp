// The events suite: status after wait, profiling timestamps in order, and wait lists across
// queues (Launch::after).
#include <vector>

#include "check.hpp"

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

Result profiling_order(Env& env) {
  Buffer<int> data = env.context().alloc<int>(256);
  env.queue().fill(data, 1);
  Kernel spin = env.program("conform_events.cl", kSource).kernel("spin");
  std::vector<Event> events;
  for (int i = 0; i < 3; ++i) events.push_back(env.queue().launch(spin, Range{256}, data, 50u));
  env.queue().finish();
  std::uint64_t previous_end = 0;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const Profile p = events[i].profile();
    const std::string at = "launch " + std::to_string(i);
    if (!(p.queued <= p.submit && p.submit <= p.start && p.start <= p.end))
      return fail("expected queued <= submit <= start <= end, got " + at + ": " +
                  std::to_string(p.queued) + ", " + std::to_string(p.submit) + ", " +
                  std::to_string(p.start) + ", " + std::to_string(p.end));
    // An in-order queue: each command starts after the previous one ended.
    if (p.start < previous_end)
      return fail_expected(at + " start", ">= previous end " + std::to_string(previous_end),
                           p.start);
    previous_end = p.end;
  }
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
