// The registry of conformance checks and what every check shares: capability tests, the
// per-device environment, and turning exceptions into failures.
#include "check.hpp"

#include <algorithm>
#include <exception>
#include <stdexcept>

#include "profile_backing.hpp"

namespace xgpu::conform {

Env::Env(const Device& device, bool quick)
    : device_(device), context_(device), queue_(context_.queue({true})), quick_(quick) {}

Program Env::program(const std::string& name, const std::string& text, const std::string& options) {
  const std::string key = name + '\n' + options;
  auto found = programs_.find(key);
  if (found != programs_.end()) return found->second;
  std::string patched = text;
  const auto [first, last] = patches_.equal_range(name);
  for (auto patch = first; patch != last; ++patch) {
    const std::size_t at = patched.find(patch->second.from);
    if (at == std::string::npos)
      throw std::logic_error("sabotage of " + name + ": '" + patch->second.from +
                             "' is not in the program");
    patched.replace(at, patch->second.from.size(), patch->second.to);
  }
  Program built = context_.build(Source{name, patched}, options);
  programs_.emplace(key, built);
  return built;
}

void Env::sabotage(const std::string& name, const std::string& from, const std::string& to) {
  patches_.emplace(name, Patch{from, to});
  for (auto it = programs_.begin(); it != programs_.end();)
    it = it->first.compare(0, name.size() + 1, name + '\n') == 0 ? programs_.erase(it) : ++it;
}

std::string missing_capability(const std::string& needs, const DeviceInfo& info) {
  if (needs.empty()) return {};
  bool has = false;
  if (needs == "fp64")
    has = info.fp64 || info.has_extension("cl_khr_fp64");
  else if (needs == "fp16")
    has = info.fp16 || info.has_extension("cl_khr_fp16");
  else
    has = info.has_extension(needs);
  // Under a profile, a feature it claims is checked only where the backing device has it.
  const std::string extension = needs == "fp64"   ? "cl_khr_fp64"
                                : needs == "fp16" ? "cl_khr_fp16"
                                                  : needs;
  if (has) return backing_lacks(info, extension);
  if (needs == "fp64") return "needs double precision (cl_khr_fp64)";
  if (needs == "fp16") return "needs cl_khr_fp16";
  return "needs " + needs;
}

void Registry::add(std::string suite, std::string name, std::string needs,
                   std::function<Result(Env&)> run) {
  checks_.push_back({std::move(suite), std::move(name), std::move(needs), std::move(run)});
}

std::vector<std::string> Registry::suites() const {
  std::vector<std::string> names;
  for (const Check& check : checks_) {
    if (std::find(names.begin(), names.end(), check.suite) == names.end())
      names.push_back(check.suite);
  }
  return names;
}

Registry all_checks() {
  Registry registry;
  register_api(registry);
  register_memory(registry);
  register_execution(registry);
  register_compiler(registry);
  register_events(registry);
  register_atomics(registry);
  register_math(registry);
  register_cache(registry);
  register_native(registry);
  register_library(registry);
  register_library_elementwise(registry);
  register_library_reduce(registry);
  register_library_sort(registry);
  register_library_gemm(registry);
  register_integer(registry);
  register_relational(registry);
  register_conversions(registry);
  register_vectors(registry);
  register_printf(registry);
  register_workgroups(registry);
  return registry;
}

Result run_check(const Check& check, Env& env) {
  env.check_ = check.suite + "/" + check.name;
  const std::string missing = missing_capability(check.needs, env.info());
  if (!missing.empty()) return skip(missing);
  try {
    return check.run(env);
  } catch (const std::exception& e) {
    return fail(std::string("threw: ") + e.what());
  } catch (...) {
    return fail("threw an unknown exception");
  }
}

}  // namespace xgpu::conform
