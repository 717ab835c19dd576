// The background writer of the kernel cache; see kernel_cache.hpp.
#include "cache/kernel_cache.hpp"

#include <algorithm>
#include <cstdlib>
#include <ctime>

#include "cache/shared_counters.hpp"
#include "log.hpp"
#include "objects.hpp"
#include "registry.hpp"

namespace xgpu::detail {
namespace {

void shut_down_at_exit() { KernelCache::instance().shut_down(); }

// A process that only had hits never starts the writer (nor its exit handler) but has counts
// to record too.
void record_counters_at_exit() { record_process_counters(); }

// How often a save whose launch still runs looks at it again: soon at first, then seldom (it
// may be held for good).
constexpr std::chrono::milliseconds kFirstPoll{10};
constexpr std::chrono::milliseconds kLongestPoll{500};

enum class LaunchState { running, ended, failed };

// Where the launch a save waits for is, without waiting for it.
LaunchState launch_state(const Event& after, const std::string& source_name) {
  if (!after) return LaunchState::ended;
  try {
    return after.status() == EventStatus::complete ? LaunchState::ended : LaunchState::running;
  } catch (const std::exception& error) {
    logger("cache").debug("not saving {}: its launch failed: {}", source_name, error.what());
    return LaunchState::failed;
  }
}

struct FlushAtThreadEnd {
  ~FlushAtThreadEnd() { KernelCache::instance().flush(); }
};

// Every kernel's parameters, saved with the binary for drivers that keep no argument
// info in programs made from binaries.
std::string read_signatures(const CacheTicket& ticket) {
  const Module& module = *ticket.device->module;
  std::map<std::string, std::vector<Parameter>> signatures;
  std::size_t start = 0;
  const std::string& names = ticket.kernel_names;
  while (start < names.size()) {
    std::size_t end = names.find(';', start);
    if (end == std::string::npos) end = names.size();
    std::string name = names.substr(start, end - start);
    start = end + 1;
    xgpu_kernel kernel = nullptr;
    if (module.table->kernel_create(static_cast<xgpu_program>(ticket.program.get()), name.c_str(),
                                    &kernel) != XGPU_STATUS_SUCCESS) {
      continue;
    }
    std::uint32_t count = 0;
    bool known = false;
    if (module.table->kernel_arg_count(kernel, &count) == XGPU_STATUS_SUCCESS) {
      auto parameters = read_parameters(module, kernel, count, known);
      if (known) signatures[name] = std::move(parameters);
    }
    module.table->release(XGPU_OBJECT_KERNEL, kernel);
  }
  return encode_signatures(signatures);
}

}  // namespace

bool CacheTicket::add_variant(const std::string& variant) {
  std::lock_guard<std::mutex> lock(mutex_);
  return variants_.insert(variant).second;
}

std::string CacheTicket::variants_text() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::string text;
  for (const auto& variant : variants_) text += (text.empty() ? "" : ";") + variant;
  return text;
}

void CacheTicket::set_variants(const std::string& text) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(';', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) variants_.insert(text.substr(start, end - start));
    start = end + 1;
  }
}

KernelCache& KernelCache::instance() {
  static KernelCache* cache = new KernelCache();  // lives until exit; flushed by atexit
  return *cache;
}

KernelCache::KernelCache() : store_(cache_settings(CacheEnvironment::current())) {
  // Registered before shut_down_at_exit, so it runs after it: the last saves are counted.
  if (store_.writable()) std::atexit(record_counters_at_exit);
}

void KernelCache::schedule(const std::shared_ptr<CacheTicket>& ticket, Event after,
                           std::chrono::milliseconds quiet) {
  if (!store_.writable()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (stopping_) return;
  if (!worker_.joinable()) {
    worker_ = std::thread([this] { run(); });
    std::atexit(shut_down_at_exit);
  }
  // Saving fetches a binary, which makes PoCL compile, and PoCL's compiler keeps state in
  // thread-local objects of the threads that built and launched. Those are destroyed when
  // such a thread ends, for the main thread at exit() before any exit handler. So the
  // first thread-local object of this kind, made here after the thread's first compile,
  // flushes pending saves when its thread ends, before the compiler's state goes.
  thread_local FlushAtThreadEnd flush_at_thread_end;
  (void)flush_at_thread_end;
  Job& job = pending_[ticket->hash];
  job.ticket = ticket;
  if (after) {
    job.after = std::move(after);
    job.launch_running = false;
    job.poll = std::chrono::milliseconds(0);
  }
  job.due = std::chrono::steady_clock::now() + quiet;
  wake_.notify_all();
}

void KernelCache::run() {
  using Clock = std::chrono::steady_clock;
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    // The next job: the earliest due; while a flush waits (or at exit), every job not known to
    // wait for a running launch is due now.
    const auto now = Clock::now();
    const bool hurry = flushing_ > 0 || stopping_;
    auto next = pending_.end();
    auto next_due = Clock::time_point::max();
    for (auto it = pending_.begin(); it != pending_.end(); ++it) {
      const auto due = hurry && !it->second.launch_running ? now : it->second.due;
      if (due < next_due) next = it, next_due = due;
    }
    if (stopping_ && (next == pending_.end() || next->second.launch_running)) {
      for (const auto& [hash, job] : pending_) {
        logger("cache").debug("not saving {}: its launch had not ended at exit",
                              job.ticket->source_name);
      }
      return;
    }
    if (next == pending_.end()) {
      wake_.wait(lock);
      continue;
    }
    if (now < next_due) {
      wake_.wait_until(lock, next_due);
      continue;
    }
    Job job = std::move(next->second);
    pending_.erase(next);
    ++writing_;
    lock.unlock();
    const LaunchState launch = launch_state(job.after, job.ticket->source_name);
    if (launch == LaunchState::ended) write(job.ticket);
    lock.lock();
    --writing_;
    if (launch == LaunchState::running) {
      job.launch_running = true;
      job.poll =
          std::min<std::chrono::milliseconds>(std::max(job.poll * 2, kFirstPoll), kLongestPoll);
      job.due = Clock::now() + job.poll;
      // Unless a later launch has rescheduled it meanwhile: that job is the newer one.
      const std::string hash = job.ticket->hash;
      pending_.emplace(hash, std::move(job));
    }
    wake_.notify_all();  // flush() waits for the work to drain
  }
}

bool KernelCache::flushed(std::chrono::steady_clock::time_point deadline) const {
  if (writing_ > 0) return false;
  for (const auto& [hash, job] : pending_) {
    if (!job.launch_running) return false;
  }
  return pending_.empty() || std::chrono::steady_clock::now() >= deadline;
}

void KernelCache::flush() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!worker_.joinable()) return;
  const auto deadline = std::chrono::steady_clock::now() + launch_wait_;
  // A launch found running earlier may have ended since: look at each one again now rather than
  // at its next poll, which can fall after this flush's bound.
  for (auto& [hash, job] : pending_) job.launch_running = false;
  ++flushing_;
  wake_.notify_all();
  while (!flushed(deadline)) {
    if (std::chrono::steady_clock::now() < deadline) {
      wake_.wait_until(lock, deadline);
    } else {
      wake_.wait(lock);  // the writer notifies after each job
    }
  }
  --flushing_;
  for (const auto& [hash, job] : pending_) {
    logger("cache").info(
        "{} is not saved yet: the launch its save waits for has not ended within {} ms (held "
        "behind an event?); it is saved once that launch ends",
        job.ticket->source_name, launch_wait_.count());
  }
}

std::chrono::milliseconds KernelCache::launch_wait() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return launch_wait_;
}

void KernelCache::set_launch_wait(std::chrono::milliseconds wait) {
  std::lock_guard<std::mutex> lock(mutex_);
  launch_wait_ = wait;
}

void KernelCache::shut_down() {
  flush();
  std::unique_lock<std::mutex> lock(mutex_);
  if (!worker_.joinable()) return;
  stopping_ = true;
  wake_.notify_all();
  lock.unlock();
  worker_.join();
}

void KernelCache::write(const std::shared_ptr<CacheTicket>& ticket) {
  const Module& module = *ticket->device->module;
  if (!module.has(&xgpu_backend_v1::program_binary)) {
    logger("cache").debug("backend {} gives no program binaries: nothing to save", module.name);
    return;
  }
  auto started = std::chrono::steady_clock::now();
  std::string binary;
  auto query = [&](char* buffer, std::size_t capacity, std::size_t* size) {
    return module.table->program_binary(static_cast<xgpu_program>(ticket->program.get()),
                                        ticket->device->raw, buffer, capacity, size);
  };
  // program_binary fills raw bytes, not a string: read the size, then the bytes.
  std::size_t size = 0;
  xgpu_status status = query(nullptr, 0, &size);
  if (status == XGPU_STATUS_SUCCESS && size > 0) {
    binary.resize(size);
    status = query(binary.data(), binary.size(), &size);
    binary.resize(size);
  }
  if (status != XGPU_STATUS_SUCCESS || binary.empty()) {
    logger("cache").info("not saving {}: the driver gives no binary ({} {})", ticket->source_name,
                         module.status_name(status), module.last_error());
    return;
  }
  if (ticket->signatures.empty()) ticket->signatures = read_signatures(*ticket);
  CacheEntry entry;
  entry.key = ticket->key;
  entry.build_log = ticket->build_log;
  entry.binary = std::move(binary);
  const DeviceInfo& info = ticket->device->info;
  entry.metadata = "device=" + info.name + "\ndriver=" + info.driver_version +
                   "\nplatform=" + info.platform_name + "\nsource=" + ticket->source_name +
                   "\noptions=" + ticket->options + "\nkernels=" + ticket->kernel_names +
                   "\nvariants=" + ticket->variants_text() + "\nsignatures=" + ticket->signatures +
                   "\ncreated=" + std::to_string(std::time(nullptr)) + "\n";
  if (!store_.store(ticket->hash, entry)) return;
  logger("cache").debug(
      "saved {} ({} bytes, binary fetched in {:.1f} ms)", ticket->source_name, entry.binary.size(),
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
          .count());
}

}  // namespace xgpu::detail
