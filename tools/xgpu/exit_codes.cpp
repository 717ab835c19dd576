// Maps xgpu::Error kinds to exit codes, and reports whatever escaped a subcommand.
#include "exit_codes.hpp"

#include <iostream>
#include <new>

namespace xgpu::cli {

int exit_code_for(Errc code) noexcept {
  switch (code) {
    case Errc::invalid_selector:
    case Errc::invalid_argument:
      return kExitUsage;  // the user typed something xgpu cannot read
    case Errc::no_device:
      return kExitNoMatch;
    default:
      return kExitFailure;
  }
}

int report_current_exception() noexcept {
  try {
    throw;
  } catch (const Error& e) {
    std::cerr << "xgpu: error: " << e.what() << '\n';
    return exit_code_for(e.code());
  } catch (const std::bad_alloc&) {
    std::cerr << "xgpu: error: out of memory\n";
  } catch (const std::exception& e) {
    std::cerr << "xgpu: error: " << e.what() << '\n';
  } catch (...) {
    std::cerr << "xgpu: error: unknown exception\n";
  }
  return kExitFailure;
}

}  // namespace xgpu::cli
