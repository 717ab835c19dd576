// The trace file: `{"traceEvents":[` then one event per line, each written as it happens
// and flushed in batches, so that a program that dies mid-way leaves a file Perfetto opens
// (its importer accepts an unterminated array). stop() and the exit handler close it.
#include "recorder.hpp"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdlib>
#include <cstring>

#include "../internals.hpp"
#include "../log.hpp"
#include "../module.hpp"
#include "../registry.hpp"
#include "xgpu/common/settings.hpp"
#include "xgpu/queue.hpp"
#include "xgpu/trace.hpp"

namespace xgpu::detail::trace {

std::atomic<int> g_state{kUnread};

namespace {

// Written out when this much is buffered: a crash loses at most this much (plus what
// follows the last synchronisation point), and a busy program makes few write calls.
constexpr std::size_t kFlushBytes = 16 * 1024;
// Commands waiting for their events before the completed ones are looked for, and before
// the oldest is waited for: a program that never synchronises keeps bounded memory.
constexpr std::size_t kPollPending = 256;
constexpr std::size_t kMaxPending = 4096;

std::atomic<std::int64_t> g_epoch_ns{0};

thread_local bool t_recorder_waiting = false;

std::int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void stop_at_exit() {
  try {
    {
      Recorder& recorder = Recorder::instance();
      std::lock_guard<std::mutex> lock(recorder.mutex);
      recorder.drivers_gone = exit_has_begun();
    }
    xgpu::trace::stop();
  } catch (...) {
  }
}

}  // namespace

double now_us() {
  return static_cast<double>(steady_ns() - g_epoch_ns.load(std::memory_order_relaxed)) / 1000.0;
}

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string micros(double us) {
  char text[40];
  std::snprintf(text, sizeof text, "%.3f", us);
  return text;
}

bool Recorder::waiting_on_this_thread() { return t_recorder_waiting; }

Recorder& Recorder::instance() {
  static Recorder* recorder = new Recorder();
  return *recorder;
}

bool Recorder::open(const std::string& path) {
  file_ = std::fopen(path.c_str(), "w");
  if (!file_) return false;
  buffer_ = "{\"traceEvents\":[\n";
  first_event_ = true;
  ++generation_;
  adds_since_poll_ = 0;
  next_pid_ = 2;
  processes_.clear();
  tracks_.clear();
  host_threads_.clear();
  memory_tracks.clear();
  g_epoch_ns.store(steady_ns(), std::memory_order_relaxed);
  write_event(R"("name":"process_name","ph":"M","pid":1,"args":{"name":"host"})");
  flush();
  return true;
}

void Recorder::close(std::unique_lock<std::mutex>& lock) {
  if (!file_) return;
  if (closing_) {  // another thread is closing it: done when it is
    idle_.wait(lock, [this] { return !closing_; });
    return;
  }
  closing_ = true;
  drain(nullptr, lock);
  // The commands other threads are waiting for belong in this file too; at exit they may
  // never return (the drivers may be gone), so there the file ends without them.
  if (!drivers_gone) idle_.wait(lock, [this] { return in_flight_ == 0; });
  buffer_ += "\n]}\n";
  flush();
  std::fclose(file_);
  file_ = nullptr;
  closing_ = false;
  idle_.notify_all();
}

void Recorder::flush() {
  if (!file_ || buffer_.empty()) return;
  std::fwrite(buffer_.data(), 1, buffer_.size(), file_);
  std::fflush(file_);
  buffer_.clear();
}

void Recorder::write_event(const std::string& body) {
  // The separator goes before an event, so the file cut anywhere between events is a
  // valid prefix: closing it takes only "]}".
  buffer_ += first_event_ ? "{" : ",\n{";
  first_event_ = false;
  buffer_ += body;
  buffer_ += '}';
  if (buffer_.size() >= kFlushBytes) flush();
}

Process& Recorder::process_of(const DeviceRecord* device) {
  auto found = processes_.find(device);
  if (found != processes_.end()) return found->second;
  Process& process = processes_[device];
  process.pid = next_pid_++;
  const std::string pid = std::to_string(process.pid);
  std::string name = "device " + std::to_string(device->visible_index) + ": " + device->info.name +
                     " (" + device->module->name + ")";
  write_event(R"("name":"process_name","ph":"M","pid":)" + pid + R"(,"args":{"name":)" +
              quoted(name) + "}");
  write_event(R"("name":"process_sort_index","ph":"M","pid":)" + pid + R"(,"args":{"sort_index":)" +
              pid + "}");
  write_event(R"("name":"thread_name","ph":"M","pid":)" + pid +
              R"(,"tid":1,"args":{"name":"builds"})");
  return process;
}

Track& Recorder::track_of(const Queue& queue) {
  const DeviceRecord* device = detail::Internals::record(queue.context().device());
  const auto key = std::make_tuple(queue.raw(), device, queue.profiling());
  auto found = tracks_.find(key);
  if (found != tracks_.end()) return found->second;
  Process& process = process_of(device);
  Track& track = tracks_[key];
  track.pid = process.pid;
  track.tid = process.next_tid++;
  track.process = &process;
  std::string name = "queue " + std::to_string(track.tid - 1) +
                     (queue.profiling() ? " (profiling)" : " (host times)");
  write_event(R"("name":"thread_name","ph":"M","pid":)" + std::to_string(track.pid) + R"(,"tid":)" +
              std::to_string(track.tid) + R"(,"args":{"name":)" + quoted(name) + "}");
  return track;
}

int Recorder::host_thread_tid() {
  auto id = std::this_thread::get_id();
  auto found = host_threads_.find(id);
  if (found != host_threads_.end()) return found->second;
  const int tid = static_cast<int>(host_threads_.size()) + 1;
  host_threads_[id] = tid;
  write_event(R"("name":"thread_name","ph":"M","pid":1,"tid":)" + std::to_string(tid) +
              R"(,"args":{"name":"host thread )" + std::to_string(tid) + "\"}");
  return tid;
}

void Recorder::add_pending(Pending pending, std::unique_lock<std::mutex>& lock) {
  pending_.push_back(std::move(pending));
  // Asking every pending event for its status at every command would cost each command the
  // length of the list: once per kPollPending commands is enough to keep it short.
  if (pending_.size() >= kPollPending && ++adds_since_poll_ >= kPollPending) {
    adds_since_poll_ = 0;
    drain_completed();
  }
  if (pending_.size() < kMaxPending) return;
  // The oldest of the queue just used: a slow kernel on one queue holds up only the threads
  // that launch on that queue. (Usually near the front: that queue fills the list.)
  const void* queue = pending_.back().queue;
  auto oldest = std::find_if(pending_.begin(), pending_.end(),
                             [queue](const Pending& pending) { return pending.queue == queue; });
  std::vector<Pending> batch;
  batch.push_back(std::move(*oldest));
  pending_.erase(oldest);
  wait_and_write(std::move(batch), lock);
}

void Recorder::drain(const void* queue, std::unique_lock<std::mutex>& lock) {
  std::vector<Pending> batch;
  std::deque<Pending> kept;
  for (Pending& pending : pending_) {
    if (queue == nullptr || pending.queue == queue) {
      batch.push_back(std::move(pending));
    } else {
      kept.push_back(std::move(pending));
    }
  }
  pending_.swap(kept);
  wait_and_write(std::move(batch), lock);
}

void Recorder::wait_and_write(std::vector<Pending> batch, std::unique_lock<std::mutex>& lock) {
  if (batch.empty()) return;
  struct Outcome {
    double observed_us = 0;
    bool completed = true;
  };
  std::vector<Outcome> outcomes(batch.size());
  const std::uint64_t generation = generation_;
  const bool ask_driver = !drivers_gone;
  in_flight_ += batch.size();
  lock.unlock();
  // Outside the lock: a wait may last as long as a kernel, and every traced thread needs
  // the lock for each of its commands.
  t_recorder_waiting = true;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    try {
      if (ask_driver) batch[i].event.wait();
    } catch (...) {
      outcomes[i].completed = false;  // a failed command: written with host times, marked failed
    }
    outcomes[i].observed_us = now_us();
  }
  t_recorder_waiting = false;
  lock.lock();
  in_flight_ -= batch.size();
  if (in_flight_ == 0) idle_.notify_all();  // close() cannot end the file before we unlock
  // A batch of a file closed meanwhile (stop() at exit does not wait for it) is dropped:
  // its tracks belong to that file.
  if (generation != generation_ || file_ == nullptr) return;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    write_command(batch[i], outcomes[i].observed_us, outcomes[i].completed);
  }
}

// Asks each event its status, which never blocks: done under the lock.
void Recorder::drain_completed() {
  for (auto it = pending_.begin(); it != pending_.end();) {
    bool done = false;
    bool completed = true;
    try {
      done = it->event.status() == EventStatus::complete;
    } catch (...) {
      done = true;
      completed = false;
    }
    if (!done) {
      ++it;
      continue;
    }
    write_command(*it, now_us(), completed);
    it = pending_.erase(it);
  }
}

void Recorder::write_command(const Pending& pending, double observed_us, bool completed) {
  const Command& command = pending.command;
  double begin = command.enqueued_us;
  double end = observed_us;
  std::string clock = "host (blocking call)";
  if (pending.event) clock = "host (enqueue to observed completion)";
  if (pending.event && pending.profiling && completed && !drivers_gone) {
    try {
      EventTimes profile = pending.event.profile();
      Process& process = *pending.track.process;
      if (!process.clock_mapped) {
        // The driver stamps `queued` early in the enqueue call (a blocking one returns only
        // when the copy is done): the call's start is nearly the same instant on the host
        // clock. One offset per device keeps the gaps between its commands exact.
        process.device_to_host_us =
            command.enqueued_us - static_cast<double>(profile.queued) / 1000.0;
        process.clock_mapped = true;
      }
      begin = static_cast<double>(profile.start) / 1000.0 + process.device_to_host_us;
      end = static_cast<double>(profile.end) / 1000.0 + process.device_to_host_us;
      clock = "device (profiling events, on the host clock)";
    } catch (...) {
      // no timestamps after all: keep the host times
    }
  }
  if (end < begin) end = begin;
  const double duration = end - begin;
  std::string args = command.args;
  if (command.bytes != 0 && duration > 0) {
    char rate[32];
    std::snprintf(rate, sizeof rate, "%.3f", static_cast<double>(command.bytes) / (duration * 1e3));
    args += std::string(args.empty() ? "" : ",") + "\"GB/s\":" + rate;
  }
  args += std::string(args.empty() ? "" : ",") + "\"clock\":" + quoted(clock);
  if (!completed) args += ",\"failed\":true";
  write_event("\"name\":" + quoted(command.name) + ",\"cat\":\"" + command.kind +
              "\",\"ph\":\"X\",\"pid\":" + std::to_string(pending.track.pid) +
              ",\"tid\":" + std::to_string(pending.track.tid) + ",\"ts\":" + micros(begin) +
              ",\"dur\":" + micros(duration) + ",\"args\":{" + args + "}");
}

bool start_from_environment() {
  static std::once_flag once;
  std::call_once(once, [] {
    const std::string path = common::setting_text(common::Setting::trace);
    if (path.empty()) {
      int unread = kUnread;
      g_state.compare_exchange_strong(unread, kOff);
      return;
    }
    try {
      xgpu::trace::start(path);
    } catch (const std::exception& error) {
      logger("trace").warn("XGPU_TRACE: {}; the program runs without a trace", error.what());
      int unread = kUnread;
      g_state.compare_exchange_strong(unread, kOff);
    }
  });
  return g_state.load(std::memory_order_relaxed) == kOn;
}

}  // namespace xgpu::detail::trace

namespace xgpu::trace {

using detail::trace::Recorder;

void start(const std::string& path) {
  Recorder& recorder = Recorder::instance();
  std::unique_lock<std::mutex> lock(recorder.mutex);
  while (recorder.has_file()) recorder.close(lock);  // another start() may open meanwhile
  if (!recorder.open(path)) {
    detail::trace::g_state.store(detail::trace::kOff, std::memory_order_release);
    throw Error(Errc::invalid_argument,
                "cannot write the trace file '" + path + "': " + std::strerror(errno),
                "xgpu::trace::start");
  }
  static std::once_flag registered;
  std::call_once(registered, [] {
    // The drivers first: an exit handler registered after them runs before their statics go.
    (void)detail::Registry::instance();
    std::atexit(detail::trace::stop_at_exit);
  });
  detail::trace::g_state.store(detail::trace::kOn, std::memory_order_release);
}

void stop() {
  Recorder& recorder = Recorder::instance();
  std::unique_lock<std::mutex> lock(recorder.mutex);
  if (!recorder.has_file()) return;
  detail::trace::g_state.store(detail::trace::kOff, std::memory_order_release);
  recorder.close(lock);
}

void flush() {
  Recorder& recorder = Recorder::instance();
  std::lock_guard<std::mutex> lock(recorder.mutex);
  recorder.flush();
}

bool running() noexcept {
  return detail::trace::g_state.load(std::memory_order_relaxed) == detail::trace::kOn;
}

range::range(std::string name) : name_(std::move(name)) {
  if (detail::trace::active()) begin_us_ = detail::trace::now_us();
}

range::~range() {
  if (begin_us_ < 0 || !detail::trace::active()) return;
  try {
    const double end = detail::trace::now_us();
    Recorder& recorder = Recorder::instance();
    std::lock_guard<std::mutex> lock(recorder.mutex);
    if (!recorder.is_open()) return;
    const int tid = recorder.host_thread_tid();
    recorder.write_event("\"name\":" + detail::trace::quoted(name_) +
                         R"(,"cat":"range","ph":"X","pid":1,"tid":)" + std::to_string(tid) +
                         ",\"ts\":" + detail::trace::micros(begin_us_) +
                         ",\"dur\":" + detail::trace::micros(end - begin_us_));
  } catch (...) {
    // a trace must never take the program down
  }
}

}  // namespace xgpu::trace
