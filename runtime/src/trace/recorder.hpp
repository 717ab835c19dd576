// The trace's one writer: the open file, the numbering of devices (processes) and queues
// (tracks), and the commands whose device times are not known yet. Every member is used
// under `mutex`.
#pragma once

#include <chrono>
#include <cstdio>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <tuple>

#include "hooks.hpp"

namespace xgpu::detail::trace {

struct Process {
  int pid = 0;
  int next_tid = 2;  ///< tid 1 is the device's build track
  bool clock_mapped = false;
  double device_to_host_us = 0;  ///< host us = device ns / 1000 + this
};

struct Track {
  int pid = 0;
  int tid = 0;
  Process* process = nullptr;
};

/// A command enqueued with an event, written when the event completes.
struct Pending {
  const void* queue;
  Track track;
  bool profiling;
  Command command;
  double returned_us;  ///< host time when the enqueue call returned
  Event event;
};

class Recorder {
 public:
  static Recorder& instance();  ///< never destroyed: the trace is closed by an exit handler

  std::mutex mutex;
  /// Set by the exit handler once exit has begun: the drivers may be gone (see handle.cpp),
  /// so pending commands are written with host times and no event is asked anything.
  bool drivers_gone = false;

  bool open(const std::string& path);  ///< false when the file cannot be written
  void close();                        ///< waits for pending commands, ends the JSON
  void flush();
  bool is_open() const { return file_ != nullptr; }

  /// One event: `body` is the JSON object's members, without braces.
  void write_event(const std::string& body);
  Track& track_of(const Queue& queue);
  Process& process_of(const DeviceRecord* device);
  int host_thread_tid();

  void add_pending(Pending pending);
  /// Writes the pending commands of `queue` (nullptr: all), waiting for each.
  void drain(const void* queue);
  /// Writes the pending commands that have completed, without waiting.
  void drain_completed();
  void write_command(const Pending& pending, double observed_us, bool completed);

  std::map<const void*, std::size_t> memory_tracks;  ///< each pool's counter number, 1, 2, ...

 private:
  std::FILE* file_ = nullptr;
  std::string buffer_;
  bool first_event_ = true;
  int next_pid_ = 2;  ///< pid 1 is the host
  std::map<const DeviceRecord*, Process> processes_;
  /// By queue handle, device and profiling: a queue destroyed and another made at the same
  /// address, on another device or with other timing, gets a track of its own.
  std::map<std::tuple<const void*, const DeviceRecord*, bool>, Track> tracks_;
  std::map<std::thread::id, int> host_threads_;
  std::deque<Pending> pending_;
};

/// Text as a JSON string, with its quotes.
std::string quoted(const std::string& text);
/// A time in microseconds with nanosecond digits.
std::string micros(double us);

}  // namespace xgpu::detail::trace
