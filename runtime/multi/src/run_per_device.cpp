// One thread per device, and the one error that names every device that failed. Devices of
// different contexts share nothing a thread could wait on, so a thread each is the simple
// way to make their blocking copies and finishes overlap.
#include <exception>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "group_state.hpp"
#include "xgpu/common/exception_text.hpp"

namespace xgpu::detail {

namespace {

struct Failure {
  std::size_t device = 0;
  std::exception_ptr error;
};

// The failure as an xgpu::Error, when it is one.
std::optional<Error> as_xgpu_error(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const Error& e) {
    return e;
  } catch (...) {
    return std::nullopt;
  }
}

// The code: the failures' own when they are xgpu::Errors that agree, else backend. A single
// xgpu::Error also keeps its native status and build log.
[[noreturn]] void throw_failures(const GroupState& group, const char* call,
                                 const std::vector<Failure>& failures, std::size_t devices) {
  Error::Details details;
  details.call = call;
  details.message = std::string(call) + " failed on " + std::to_string(failures.size()) + " of " +
                    std::to_string(devices) + " devices:";
  bool codes_agree = true;
  for (std::size_t k = 0; k < failures.size(); ++k) {
    const std::size_t i = failures[k].device;
    const std::string name = group.members[i].device.describe();
    details.message += "\n  device " + std::to_string(i) + " (" + name +
                       "): " + xgpu::common::exception_text(failures[k].error);
    details.device += (k == 0 ? "" : "; ") + name;
    const std::optional<Error> error = as_xgpu_error(failures[k].error);
    if (!error || (k > 0 && error->code() != details.code)) codes_agree = false;
    if (error && k == 0) {
      details.code = error->code();
      if (failures.size() == 1) {
        details.native_status = error->native_status();
        details.native_name = error->native_name();
        details.build_log = error->build_log();
        details.build_options = error->build_options();
      }
    }
  }
  if (!codes_agree) details.code = Errc::backend;
  throw Error(std::move(details));
}

}  // namespace

void run_per_device(const GroupState& group, const char* call, std::size_t count,
                    const std::function<void(std::size_t)>& task) {
  std::vector<std::exception_ptr> errors(count);
  auto guarded = [&](std::size_t i) {
    try {
      task(i);
    } catch (...) {
      errors[i] = std::current_exception();
    }
  };
  if (count == 1) {
    guarded(0);  // a group of one needs no thread
  } else {
    std::vector<std::thread> threads;
    threads.reserve(count);
    try {
      for (std::size_t i = 0; i < count; ++i) threads.emplace_back(guarded, i);
    } catch (...) {
      // No thread could be started: wait for those that were, then report it.
      for (auto& thread : threads) thread.join();
      throw;
    }
    for (auto& thread : threads) thread.join();
  }
  std::vector<Failure> failures;
  for (std::size_t i = 0; i < count; ++i) {
    if (errors[i]) failures.push_back(Failure{i, errors[i]});
  }
  if (!failures.empty()) throw_failures(group, call, failures, count);
}

}  // namespace xgpu::detail
