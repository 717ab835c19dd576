// libFuzzer target for the device selector (XGPU_DEVICE, select(), -d) and the requirement
// filter (--require, Requirements::parse): every input is parsed or refused with
// invalid_selector, and what parses is checked against what was written.
#include <algorithm>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "registry.hpp"
#include "selector.hpp"
#include "xgpu/device.hpp"
#include "xgpu/error.hpp"
#include "xgpu/program.hpp"

namespace {

using xgpu::detail::DeviceRecord;

const std::vector<std::string> kBackends = {"opencl", "cuda", "profile"};

DeviceRecord device(const char* backend, const char* vendor, const char* implementation,
                    std::uint32_t type) {
  DeviceRecord record;
  record.info.backend = backend;
  record.info.hardware_vendor = vendor;
  record.info.implementation = implementation;
  record.info.type = type;
  return record;
}

// A GPU, two CPUs and a simulator that claims every type, as the tests' machines have.
const std::vector<const DeviceRecord*>& devices() {
  static const DeviceRecord records[] = {
      device("cuda", "nvidia", "nvidia", xgpu::DeviceType::gpu),
      device("opencl", "intel", "pocl", xgpu::DeviceType::cpu),
      device("opencl", "intel", "pocl", xgpu::DeviceType::cpu),
      device("opencl", "unknown", "oclgrind",
             xgpu::DeviceType::cpu | xgpu::DeviceType::gpu | xgpu::DeviceType::accelerator)};
  static const std::vector<const DeviceRecord*> list = {&records[0], &records[1], &records[2],
                                                        &records[3]};
  return list;
}

void check_refusal(const xgpu::Error& error, const char* parser) {
  if (error.code() != xgpu::Errc::invalid_selector)
    xgpu_fuzz::fail(std::string(parser) + " refused with another code: " + error.what());
  if (error.message().empty()) xgpu_fuzz::fail(std::string(parser) + ": no message");
}

void fuzz_selector(std::string_view text) {
  std::vector<xgpu::detail::SelectorTerm> terms;
  try {
    terms = xgpu::detail::parse_selector(text, kBackends);
  } catch (const xgpu::Error& error) {
    return check_refusal(error, "parse_selector");
  }
  if (terms.empty() ||
      terms.size() != static_cast<std::size_t>(std::count(text.begin(), text.end(), ',') + 1))
    xgpu_fuzz::fail("parse_selector: not one term per comma-separated part");
  for (const auto& term : terms) {
    if (!term.backend.empty() &&
        std::find(kBackends.begin(), kBackends.end(), term.backend) == kBackends.end())
      xgpu_fuzz::fail("parse_selector: unknown backend '" + term.backend + "' accepted");
    const auto matches = xgpu::detail::match_term(term, devices());
    if (term.index && matches.size() > 1) xgpu_fuzz::fail("an indexed term matched several");
  }
  // The made-up devices are each their own physical device (no aliases to add).
  for (bool with_aliases : {false, true}) {
    const auto all =
        xgpu::detail::match_selector_all(text, {devices(), devices()}, kBackends, with_aliases);
    for (std::size_t i = 0; i < all.size(); ++i)
      if (std::count(all.begin(), all.end(), all[i]) != 1)
        xgpu_fuzz::fail("match_selector_all listed a device twice");
  }
}

void fuzz_requirements(std::string_view text) {
  xgpu::Requirements requirements;
  try {
    requirements = xgpu::Requirements::parse(text);
  } catch (const xgpu::Error& error) {
    return check_refusal(error, "Requirements::parse");
  }
  // Nothing is dropped or invented: the terms written back give the text.
  std::string written;
  for (const auto& term : requirements.terms())
    written += (written.empty() ? "" : ",") + term.key + term.op + term.value;
  if (written != text) xgpu_fuzz::fail("Requirements::parse read '" + written + "'");
}

}  // namespace

// Link-only: the files linked here define more than the parsers, and what else they call is
// out of this target's reach (met_by, free_local_memory). Never called; fail if they were.
bool xgpu::DeviceInfo::has_extension(std::string_view) const { xgpu_fuzz::fail("link stub"); }
std::string xgpu::DeviceInfo::type_name() const { xgpu_fuzz::fail("link stub"); }
const xgpu::KernelLimits& xgpu::Kernel::limits() const { xgpu_fuzz::fail("link stub"); }

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = xgpu_fuzz::as_text(data, size);
  fuzz_selector(text);
  fuzz_requirements(text);
  return 0;
}
