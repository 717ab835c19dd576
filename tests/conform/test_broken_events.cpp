// Proof that events/profiling_timestamps_ordered can fail: its judgement fed lying
// timestamps (all zero, end before start, equal durations for unequal work, a device
// duration longer than the host saw), and its kernel broken so that the long launch does
// only the short launch's work.
#include <catch2/catch.hpp>
#include <check.hpp>
#include <cstdint>
#include <profiling_judge.hpp>
#include <string>
#include <vector>

using namespace xgpu::conform;
using Catch::Matchers::Contains;

namespace {

// Honest launches: short ones of 1 ms, long ones (8 times the work) of 8 ms, back to back,
// each inside a host window a little longer than itself.
std::vector<TimedLaunch> honest_launches() {
  std::vector<TimedLaunch> launches;
  std::uint64_t now = 1'000'000'000;
  for (int i = 0; i < 4; ++i) {
    const unsigned scale = i % 2 ? 8 : 1;
    const std::uint64_t duration = 1'000'000ull * scale;
    xgpu::EventTimes p{now, now + 1000, now + 2000, now + 2000 + duration};
    launches.push_back({p, duration + 50'000, scale});
    now = p.end + 10'000;
  }
  return launches;
}

}  // namespace

TEST_CASE("the profiling judgement refuses lying timestamps", "[conform][broken]") {
  CHECK(judge_profiling(honest_launches()).empty());

  std::vector<TimedLaunch> zero = honest_launches();
  for (TimedLaunch& launch : zero) launch.profile = {};  // a driver that fills in nothing
  CHECK_THAT(judge_profiling(zero), Contains("non-zero"));

  std::vector<TimedLaunch> one_zero = honest_launches();
  one_zero[2].profile.queued = 0;
  CHECK_THAT(judge_profiling(one_zero), Contains("non-zero"));

  std::vector<TimedLaunch> backwards = honest_launches();
  std::swap(backwards[1].profile.start, backwards[1].profile.end);  // end < start
  CHECK_THAT(judge_profiling(backwards), Contains("start < end"));

  std::vector<TimedLaunch> empty_duration = honest_launches();
  empty_duration[0].profile.end = empty_duration[0].profile.start;  // end == start
  CHECK_THAT(judge_profiling(empty_duration), Contains("start < end"));

  std::vector<TimedLaunch> overlapping = honest_launches();
  overlapping[2].profile.start = overlapping[1].profile.end - 1;  // before the previous end
  overlapping[2].profile.submit = overlapping[2].profile.queued = overlapping[2].profile.start;
  CHECK_THAT(judge_profiling(overlapping), Contains("previous end"));

  // Constant durations whatever the work (a clock that ticks once per command).
  std::vector<TimedLaunch> equal = honest_launches();
  for (TimedLaunch& launch : equal) launch.profile.end = launch.profile.start + 1'000'000;
  CHECK_THAT(judge_profiling(equal), Contains("times the work"));

  // A device clock 1000 times too fast: 8 s of device time inside 8 ms on the host.
  std::vector<TimedLaunch> fast_clock = honest_launches();
  std::uint64_t now = fast_clock[0].profile.queued;
  for (TimedLaunch& launch : fast_clock) {
    const std::uint64_t duration = (launch.profile.end - launch.profile.start) * 1000;
    launch.profile = {now, now, now, now + duration};
    now += duration;
  }
  CHECK_THAT(judge_profiling(fast_clock), Contains("longer than the host"));

  // Nothing to compare: every launch of one size.
  std::vector<TimedLaunch> same_scale = honest_launches();
  for (TimedLaunch& launch : same_scale) launch.scale = 1;
  CHECK_THAT(judge_profiling(same_scale), Contains("same work"));
}

TEST_CASE("profiling fails when the long kernel does only the short one's work",
          "[conform][broken]") {
  Registry registry;
  register_events(registry);
  const Check* check = nullptr;
  for (const Check& c : registry.checks())
    if (c.name == "profiling_timestamps_ordered") check = &c;
  REQUIRE(check != nullptr);
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      Env env(device, device.info().implementation == "oclgrind");
      // The "8 times longer" launch does an eighth of the short one's work. (Equal work was
      // too close to the check's 2x threshold: on a loaded machine the noise once passed it.)
      env.sabotage("conform_profiling.cl", "r < rounds * scale", "r < rounds / scale");
      const Result result = run_check(*check, env);
      INFO(result.detail);
      CHECK(result.outcome == Outcome::fail);
      CHECK_THAT(result.detail, Contains("spin kernel") && Contains("times the work"));
    }
  }
}
