// The trace's one writer: the open file, the numbering of devices (processes) and queues
// (tracks), and the commands whose device times are not known yet. Every member is used
// under `mutex`; no thread waits for a device event while it holds it (wait_and_write()).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

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
  /// Waits for the pending commands (with `lock` released), writes them, ends the JSON.
  void close(std::unique_lock<std::mutex>& lock);
  void flush();
  /// Whether commands are recorded: open, and not being closed.
  bool is_open() const { return file_ != nullptr && !closing_; }
  bool has_file() const { return file_ != nullptr; }  ///< open, or being closed

  /// One event: `body` is the JSON object's members, without braces.
  void write_event(const std::string& body);
  Track& track_of(const Queue& queue);
  Process& process_of(const DeviceRecord* device);
  int host_thread_tid();

  /// Keeps `pending` until its event completes; past kMaxPending commands, waits for the
  /// oldest of its queue (with `lock` released), so that a program that never synchronises has
  /// bounded memory.
  void add_pending(Pending pending, std::unique_lock<std::mutex>& lock);
  /// Writes the pending commands of `queue` (nullptr: all), waiting for each with `lock`
  /// released.
  void drain(const void* queue, std::unique_lock<std::mutex>& lock);
  /// Writes the pending commands that have completed, without waiting.
  void drain_completed();
  /// Whether this thread is in the recorder's own wait for pending commands (an Event::wait
  /// there is no synchronisation point of the program's).
  static bool waiting_on_this_thread();
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
  std::size_t adds_since_poll_ = 0;

  /// Takes `batch` (already out of pending_), waits for each event with `lock` released, then
  /// writes them with it held. Meanwhile other threads record and write; close() waits for
  /// the batches in flight, so that none is lost.
  void wait_and_write(std::vector<Pending> batch, std::unique_lock<std::mutex>& lock);
  std::size_t in_flight_ = 0;     ///< commands taken out by wait_and_write, not yet written
  std::condition_variable idle_;  ///< notified when in_flight_ drops to 0, and after close()
  bool closing_ = false;          ///< close() is waiting: record nothing new
  std::uint64_t generation_ = 0;  ///< one per open(): a batch of an earlier file is dropped
};

/// Text as a JSON string, with its quotes.
std::string quoted(const std::string& text);
/// A time in microseconds with nanosecond digits.
std::string micros(double us);

}  // namespace xgpu::detail::trace
