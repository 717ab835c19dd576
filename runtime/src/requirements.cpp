// Requirement filters: "mem>=24G,fp64,fp16,cu>=8,wg>=256,ext=cl_khr_int64_base_atomics".
#include "util/byte_size.hpp"
#include "util/closest_word.hpp"
#include "xgpu/device.hpp"
#include "xgpu/error.hpp"

namespace xgpu {
namespace {

struct Key {
  const char* name;
  bool numeric;  ///< compared with an operator; otherwise a flag or an equality
  const char* meaning;
};
const Key kKeys[] = {
    {"mem", true, "global memory in bytes (K/M/G/T suffixes)"},
    {"alloc", true, "maximum allocation in bytes"},
    {"local", true, "local memory in bytes"},
    {"cu", true, "compute units"},
    {"wg", true, "maximum work-group size"},
    {"clock", true, "clock in MHz"},
    {"fp16", false, "half precision"},
    {"fp64", false, "double precision"},
    {"ecc", false, "error-correcting memory"},
    {"images", false, "image support"},
    {"unified", false, "memory shared with the host"},
    {"ext", false, "an extension, ext=NAME"},
    {"type", false, "a device type, type=gpu|cpu|accelerator"},
    {"vendor", false, "a hardware vendor or implementation, vendor=NAME"},
};

[[noreturn]] void bad(std::string_view text, const std::string& why) {
  std::string keys;
  for (const Key& key : kKeys) keys += std::string(keys.empty() ? "" : ", ") + key.name;
  throw Error(Errc::invalid_selector,
              "invalid requirement '" + std::string(text) + "': " + why + " (keys: " + keys + ")",
              "Requirements::parse");
}

std::uint64_t parse_amount(std::string_view whole, const std::string& value) {
  if (auto amount = util::parse_byte_size(value)) return *amount;
  bad(whole, "'" + value + "' is not a number with an optional K, M, G or T, e.g. 24G");
}

std::uint64_t numeric_value(const std::string& key, const DeviceInfo& info) {
  if (key == "mem") return info.global_memory;
  if (key == "alloc") return info.max_allocation;
  if (key == "local") return info.local_memory;
  if (key == "cu") return info.compute_units;
  if (key == "wg") return info.max_work_group_size;
  return info.clock_mhz;  // "clock"
}

bool compare(std::uint64_t have, const std::string& op, std::uint64_t want) {
  if (op == ">=") return have >= want;
  if (op == ">") return have > want;
  if (op == "<=") return have <= want;
  if (op == "<") return have < want;
  return have == want;
}

bool flag_value(const std::string& key, const DeviceInfo& info) {
  if (key == "fp16") return info.fp16;
  if (key == "fp64") return info.fp64;
  if (key == "ecc") return info.ecc;
  if (key == "images") return info.images;
  return info.host_unified_memory;  // "unified"
}

}  // namespace

Requirements Requirements::parse(std::string_view text) {
  Requirements result;
  std::string all(text);
  std::size_t start = 0;
  while (start <= all.size()) {
    std::size_t end = all.find(',', start);
    if (end == std::string::npos) end = all.size();
    std::string item = all.substr(start, end - start);
    start = end + 1;
    if (item.empty()) bad(text, "empty term");
    std::size_t op_at = item.find_first_of("<>=");
    Term term;
    term.key = item.substr(0, op_at);
    const Key* key = nullptr;
    for (const Key& k : kKeys)
      if (term.key == k.name) key = &k;
    if (!key) {
      std::vector<std::string> names;
      for (const Key& k : kKeys) names.push_back(k.name);
      bad(text, "unknown key '" + term.key + "'" + util::did_you_mean(term.key, names));
    }
    if (op_at != std::string::npos) {
      std::size_t value_at = item.find_first_not_of("<>=", op_at);
      term.op =
          item.substr(op_at, value_at == std::string::npos ? std::string::npos : value_at - op_at);
      term.value = value_at == std::string::npos ? "" : item.substr(value_at);
      if (term.value.empty()) bad(text, "'" + item + "' has no value");
    }
    bool known_op = term.op.empty() || term.op == ">=" || term.op == ">" || term.op == "<=" ||
                    term.op == "<" || term.op == "=";
    if (!known_op) bad(text, "unknown operator '" + term.op + "' in '" + item + "'");
    if (key->numeric) {
      if (term.op.empty()) bad(text, "'" + item + "' needs a comparison, e.g. " + term.key + ">=8");
      term.number = parse_amount(text, term.value);
    } else if (term.key == "ext" || term.key == "type" || term.key == "vendor") {
      if (term.op != "=") bad(text, "'" + item + "' needs the form " + term.key + "=VALUE");
    } else if (!term.op.empty()) {
      bad(text, "'" + term.key + "' is a flag: write it alone");
    }
    result.terms_.push_back(term);
  }
  return result;
}

bool Requirements::met_by(const DeviceInfo& info, std::string* why_not) const {
  for (const Term& term : terms_) {
    bool met;
    if (term.key == "ext")
      met = info.has_extension(term.value);
    else if (term.key == "type")
      met = info.type_name().find(term.value) != std::string::npos;
    else if (term.key == "vendor")
      met = info.hardware_vendor == term.value || info.implementation == term.value;
    else if (term.op.empty())
      met = flag_value(term.key, info);
    else
      met = compare(numeric_value(term.key, info), term.op, term.number);
    if (!met) {
      if (why_not) {
        *why_not = term.key + term.op + term.value + " not met";
        if (!term.op.empty() && term.key != "ext" && term.key != "type" && term.key != "vendor") {
          *why_not += " (device has " + std::to_string(numeric_value(term.key, info)) + ")";
        }
      }
      return false;
    }
  }
  return true;
}

}  // namespace xgpu
