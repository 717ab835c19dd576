// XGPU_MPI_TRANSPORT and XGPU_MPI_CHUNK: the only place libxgpu-mpi reads its settings.
#include "settings.hpp"

#include <string>
#include <xgpu/cache.hpp>

#include "errors.hpp"
#include "xgpu/common/settings.hpp"

namespace xgpu::mpi::detail {
namespace {

constexpr const char* kCall = "xgpu::mpi settings";

Transport parse_transport(const std::string& value) {
  if (value.empty() || value == "auto") return Transport::automatic;
  if (value == "mapped") return Transport::mapped;
  if (value == "staged") return Transport::staged;
  if (value == "nccl") return Transport::nccl;
  fail(Errc::invalid_argument,
       "XGPU_MPI_TRANSPORT='" + value + "' is not a transport: use auto, mapped, staged or nccl",
       kCall);
}

std::size_t parse_chunk(const std::string& text) {
  std::uint64_t bytes = 0;
  try {
    bytes = cache::parse_size(text);
  } catch (const Error& e) {
    fail(Errc::invalid_argument,
         "XGPU_MPI_CHUNK='" + text + "' is not a size such as 256K or 4M (" + e.message() + ")",
         kCall);
  }
  if (bytes == 0) fail(Errc::invalid_argument, "XGPU_MPI_CHUNK must be more than 0 bytes", kCall);
  return static_cast<std::size_t>(bytes);
}

// Unset or empty: the registry's default (settings.def).
std::string chunk_text() {
  const std::string text = common::setting_text(common::Setting::mpi_chunk);
  return text.empty() ? common::spec(common::Setting::mpi_chunk).default_value : text;
}

}  // namespace

const Settings& settings() {
  static const Settings kSettings = [] {
    Settings s;
    s.transport = parse_transport(common::setting_text(common::Setting::mpi_transport));
    s.chunk_bytes = parse_chunk(chunk_text());
    return s;
  }();
  return kSettings;
}

}  // namespace xgpu::mpi::detail
