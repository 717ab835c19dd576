// The process-wide kernel cache: the store on disk, and a background writer that saves
// built programs off the caller's thread.
//
// Why a writer, and why it waits: PoCL generates machine code at a kernel's first launch
// for each work-group size, not in clBuildProgram, and fetching a binary from it can take
// over a second. So a program is saved after its first launches have completed (or at
// exit, whichever comes first), and saved again when a launch uses a work-group size the
// stored binary was not made with. The entry records those sizes ("variants"), so a
// process that loads it knows which launches are already compiled.
//
// The launch a save waits for may be held for good (behind a user event that interop set up):
// the writer never blocks on it, it only looks whether it has ended, and a flush (at a thread's
// end, at exit, cache::flush) waits for such launches for a bounded time only, leaving their
// saves pending.
#pragma once

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cache/store.hpp"
#include "xgpu/event.hpp"
#include "xgpu/handle.hpp"

namespace xgpu::detail {

struct DeviceRecord;

/// One cached program of this process: what is needed to (re)write its entry.
struct CacheTicket {
  std::string hash, key;
  const DeviceRecord* device = nullptr;
  Handle<ObjectKind::program> program;
  std::string source_name, options, build_log, kernel_names, signatures;

  /// True when `variant` ("kernel@16x16x1") was not known yet; then it is recorded.
  bool add_variant(const std::string& variant);
  std::string variants_text() const;
  void set_variants(const std::string& text);

 private:
  mutable std::mutex mutex_;
  std::set<std::string> variants_;
};

class KernelCache {
 public:
  static KernelCache& instance();

  CacheStore& store() { return store_; }
  /// Writes the ticket's entry once `after` has completed and `quiet` has passed with no
  /// new kind of launch of it, or at exit.
  void schedule(const std::shared_ptr<CacheTicket>& ticket, Event after,
                std::chrono::milliseconds quiet);
  /// Writes every pending entry now, and returns when they are written, except those whose
  /// launch has not ended within launch_wait(): they stay pending (saved once it ends).
  void flush();
  /// Flushes, then stops the writer (at exit; later schedules are ignored).
  void shut_down();
  /// How long a flush waits for the launches that pending saves wait for (kLaunchWait); a test
  /// shortens it.
  std::chrono::milliseconds launch_wait() const;
  void set_launch_wait(std::chrono::milliseconds wait);

  static constexpr std::chrono::seconds kLaunchWait{10};

 private:
  KernelCache();
  void run();
  void write(const std::shared_ptr<CacheTicket>& ticket);

  struct Job {
    std::shared_ptr<CacheTicket> ticket;
    Event after;
    std::chrono::steady_clock::time_point due;
    /// Set once `after` was found still running when the job was due: it is then looked at
    /// again every `poll` and at the start of each flush, which does not wait for it beyond
    /// its bound.
    bool launch_running = false;
    std::chrono::milliseconds poll{0};
  };
  /// Whether a flush may return: nothing being written, and no pending job left but those
  /// whose launch still runs, once `deadline` has passed.
  bool flushed(std::chrono::steady_clock::time_point deadline) const;

  CacheStore store_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::map<std::string, Job> pending_;  ///< by hash: a new launch postpones, never duplicates
  std::thread worker_;
  int flushing_ = 0;  ///< callers of flush() waiting: write everything now
  int writing_ = 0;   ///< jobs being written outside the lock
  bool stopping_ = false;
  std::chrono::milliseconds launch_wait_{kLaunchWait};
};

}  // namespace xgpu::detail
