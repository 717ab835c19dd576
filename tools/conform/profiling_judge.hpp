// Judging a device's profiling timestamps: a pure function of what the runs reported and of
// the host's own clock around them, so a test can feed it lying timestamps.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>
#include <xgpu/event.hpp>

namespace xgpu::conform {

/// One launch of a kernel whose work is known: `scale` units of it.
struct TimedLaunch {
  EventTimes profile;
  std::uint64_t host_ns = 0;  ///< host wall time from before the launch to after its wait()
  unsigned scale = 1;
};

/// How much slack the judgement allows. The long kernel does 8 times the short one's work;
/// requiring only twice its device time leaves room for launch overheads and a busy machine.
/// The host window includes the launch and the wait, so a device duration longer than it
/// (beyond the slack for two clocks read separately) is a clock that runs fast or lies.
struct ProfilingSlack {
  double min_ratio = 2.0;
  double host_factor = 1.25;
  std::uint64_t host_ns = 2'000'000;
};

/// Empty when the launches (in launch order, each waited for before the next) have
/// timestamps that are all non-zero, in order (queued <= submit <= start < end, each start
/// at or after the previous end), each device duration within its host window, and the
/// fastest of the largest-scale launches clearly longer than the fastest of the
/// smallest-scale ones; else what is wrong.
inline std::string judge_profiling(const std::vector<TimedLaunch>& launches,
                                   const ProfilingSlack& slack = {}) {
  if (launches.empty()) return "no launches to judge";
  std::uint64_t previous_end = 0;
  unsigned small = launches[0].scale, large = launches[0].scale;
  for (const TimedLaunch& launch : launches) {
    small = std::min(small, launch.scale);
    large = std::max(large, launch.scale);
  }
  std::uint64_t fastest_small = UINT64_MAX, fastest_large = UINT64_MAX;
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const EventTimes& p = launches[i].profile;
    const std::string at = "launch " + std::to_string(i) + " (queued " + std::to_string(p.queued) +
                           ", submit " + std::to_string(p.submit) + ", start " +
                           std::to_string(p.start) + ", end " + std::to_string(p.end) + ")";
    if (p.queued == 0 || p.submit == 0 || p.start == 0 || p.end == 0)
      return "expected four non-zero timestamps, got " + at;
    if (!(p.queued <= p.submit && p.submit <= p.start && p.start < p.end))
      return "expected queued <= submit <= start < end, got " + at;
    if (p.start < previous_end)
      return "expected each start at or after the previous end (" + std::to_string(previous_end) +
             "), got " + at;
    previous_end = p.end;
    const std::uint64_t duration = p.end - p.start;
    const double window = launches[i].host_ns * slack.host_factor + slack.host_ns;
    if (duration > window)
      return "device duration " + std::to_string(duration) + " ns longer than the host's " +
             std::to_string(launches[i].host_ns) + " ns around it, " + at;
    if (launches[i].scale == small) fastest_small = std::min(fastest_small, duration);
    if (launches[i].scale == large) fastest_large = std::min(fastest_large, duration);
  }
  if (large == small) return "every launch has the same work: nothing to compare";
  if (fastest_large < slack.min_ratio * fastest_small)
    return "a kernel with " + std::to_string(large / small) + " times the work took " +
           std::to_string(fastest_large) + " ns, expected at least " +
           std::to_string(slack.min_ratio) + " times the " + std::to_string(fastest_small) +
           " ns of the smaller one (fastest of each)";
  return {};
}

}  // namespace xgpu::conform
