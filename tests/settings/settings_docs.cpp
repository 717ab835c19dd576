// xgpu-settings-docs: the settings' documentation, made from the registry (settings.def), so
// that the README's table and docs/settings.md cannot drift from what the code reads.
//
//   xgpu-settings-docs --names                      every registered name, one per line
//   xgpu-settings-docs --check README.md docs/settings.md
//       exit 1, naming the file, when either differs from what the registry gives
//   xgpu-settings-docs --write README.md docs/settings.md
//       rewrites docs/settings.md, and the README's table between its two markers
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <xgpu/common/settings.hpp>

namespace {

using xgpu::common::SettingSpec;
using xgpu::common::SettingType;

constexpr const char* kBegin =
    "<!-- settings table: made by xgpu-settings-docs from settings.def; do not edit -->\n";
constexpr const char* kEnd = "<!-- end of the settings table -->\n";

std::string code(const std::string& text) { return "`" + text + "`"; }

// "`a`, `b` or `c`" of a '|'-separated field.
std::string words(const char* field, const char* last_joint) {
  const std::vector<std::string> items = xgpu::common::split_field(field);
  std::string text;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) text += i + 1 == items.size() ? last_joint : ", ";
    text += code(items[i]);
  }
  return text;
}

std::string default_text(const SettingSpec& spec) {
  if (spec.type == SettingType::library) {
    const std::vector<std::string> files = xgpu::common::split_field(spec.default_value);
    return files.size() == 1 ? code(files.front())
                             : "the first that opens of " + words(spec.default_value, " and ");
  }
  // A word setting's default is in code when it is one of its words, else prose.
  if (xgpu::common::is_allowed(spec, spec.default_value) && spec.type == SettingType::word)
    return code(spec.default_value);
  return spec.default_value;
}

std::string readme_table() {
  std::string text = kBegin;
  text += "| variable | default | meaning |\n| --- | --- | --- |\n";
  for (const SettingSpec& spec : xgpu::common::all_settings()) {
    if (spec.type == SettingType::internal) continue;
    std::string meaning = spec.doc;
    if (spec.type == SettingType::word) meaning += "; " + words(spec.allowed, " or ");
    text += "| " + code(spec.name) + " | " + default_text(spec) + " | " + meaning + " |\n";
  }
  text += "\nEvery variable, its type and what reads it: [docs/settings.md](docs/settings.md).\n";
  return text + kEnd;
}

std::string settings_md() {
  std::string text =
      "# Settings: the XGPU_* environment variables\n"
      "\n"
      "<!-- Made by xgpu-settings-docs from backends/common/xgpu/common/settings.def; do not\n"
      "     edit: change settings.def, then run build/tests/settings/xgpu-settings-docs\n"
      "     --write README.md docs/settings.md (ctest -R settings.docs checks it). -->\n"
      "\n"
      "Every variable xgpu reads is listed once, in `backends/common/xgpu/common/settings.def`,\n"
      "with its type, default, allowed values, one line of doc and what reads it; every part of\n"
      "xgpu (the core, the algorithms, the modules, the `xgpu` command) reads its variables\n"
      "through that registry (`xgpu::common::read_setting`), and `ctest -R settings.names`\n"
      "fails on an `XGPU_*` variable in the sources that it does not list.\n"
      "\n"
      "- **Read once.** Each variable is read the first time xgpu needs it and kept for the\n"
      "  life of the process: setting one later from the program changes nothing (the one\n"
      "  exception, `xgpu::add_profile`, sets `XGPU_PROFILE` before the devices are listed).\n"
      "  Tests therefore set them in their CTest entry, never with `setenv()` while threads\n"
      "  run.\n"
      "- **Checked.** `xgpu doctor` checks every `XGPU_*` variable set: a name xgpu does not\n"
      "  read is named with the nearest one it does (`XGPU_CACHE_MAX_SZE`: did you mean\n"
      "  `XGPU_CACHE_MAX_SIZE`?), a word or size it would refuse with the nearest right one\n"
      "  (`XGPU_GEMM=blas`: did you mean `vendor_blas`?). A program can ask the same of\n"
      "  `xgpu::check_setting(name, value)` (`<xgpu/settings.hpp>`).\n"
      "- **Shown.** `xgpu doctor --settings` prints every setting, the value this process\n"
      "  would use and where it came from (`environment` or `default`); `--json` too.\n"
      "\n"
      "| variable | type | default | allowed | read by | meaning |\n"
      "| --- | --- | --- | --- | --- | --- |\n";
  for (const SettingSpec& spec : xgpu::common::all_settings()) {
    if (spec.type == SettingType::internal) continue;
    text += "| " + code(spec.name) + " | " + xgpu::common::type_name(spec.type) + " | " +
            default_text(spec) + " | " + (*spec.allowed ? words(spec.allowed, ", ") : "") + " | " +
            spec.read_by + " | " + spec.doc + " |\n";
  }
  text +=
      "\n"
      "Types: a *word* is one of the allowed values, exactly; a *selector* is described in\n"
      "[selectors.md](selectors.md); a *size* reads `512M`, `1.5G` (K, M, G, T: powers of\n"
      "1024); a *size or fraction* is a size or a fraction of the device's memory (`0.8`);\n"
      "*folders* and *profiles* are `:`-separated, *module names* `,`-separated; a *library*\n"
      "is a file name the dynamic loader finds, or a path. An empty value counts as unset,\n"
      "except for `XGPU_VISIBLE_DEVICES`, where it is refused as an empty selector.\n"
      "\n"
      "## Set by xgpu itself\n"
      "\n"
      "Variables the `xgpu` command sets for a process it starts; `xgpu doctor` knows them, a\n"
      "user has no reason to set them.\n"
      "\n"
      "| variable | read by | meaning |\n"
      "| --- | --- | --- |\n";
  for (const SettingSpec& spec : xgpu::common::all_settings()) {
    if (spec.type != SettingType::internal) continue;
    text += "| " + code(spec.name) + " | " + spec.read_by + " | " + spec.doc + " |\n";
  }
  text +=
      "\n"
      "## The tests' own variables\n"
      "\n"
      "The test programs read a few variables of their own (`XGPU_TEST_EXPECT_POCL`, ...),\n"
      "which CTest sets; they are listed, each with its reader, in\n"
      "`tests/settings/check_setting_names.py`, and nothing installed reads them: `ctest -R\n"
      "settings.install` checks that no installed file names a variable with `_TEST_` in it.\n";
  return text;
}

std::string read_file(const std::string& path, bool& ok) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  ok = static_cast<bool>(in) || in.eof();
  return text.str();
}

// The README with its table replaced by `table`; empty when the markers are missing.
std::string with_table(const std::string& readme, const std::string& table) {
  const std::size_t begin = readme.find(kBegin);
  const std::size_t end = readme.find(kEnd);
  if (begin == std::string::npos || end == std::string::npos || end < begin) return {};
  return readme.substr(0, begin) + table + readme.substr(end + std::string(kEnd).size());
}

int run(bool write, const std::string& readme_path, const std::string& settings_path) {
  bool ok = false;
  const std::string readme = read_file(readme_path, ok);
  if (!ok) {
    std::cerr << readme_path << ": cannot be read\n";
    return 2;
  }
  const std::string wanted_readme = with_table(readme, readme_table());
  if (wanted_readme.empty()) {
    std::cerr << readme_path << ": the settings table's markers are missing (" << kBegin << "... "
              << kEnd << ")\n";
    return 1;
  }
  const std::string settings = read_file(settings_path, ok);
  const std::string wanted_settings = settings_md();
  if (write) {
    std::ofstream(readme_path, std::ios::binary) << wanted_readme;
    std::ofstream(settings_path, std::ios::binary) << wanted_settings;
    return 0;
  }
  int code = 0;
  if (readme != wanted_readme) {
    std::cerr << readme_path << ": its settings table is not the registry's; expected:\n"
              << readme_table();
    code = 1;
  }
  if (!ok || settings != wanted_settings) {
    std::cerr << settings_path << ": not what the registry gives\n";
    code = 1;
  }
  if (code != 0)
    std::cerr << "regenerate: xgpu-settings-docs --write " << readme_path << ' ' << settings_path
              << '\n';
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "--names" && argc == 2) {
    for (const SettingSpec& spec : xgpu::common::all_settings()) std::cout << spec.name << '\n';
    return 0;
  }
  if ((mode == "--check" || mode == "--write") && argc == 4) {
    return run(mode == "--write", argv[2], argv[3]);
  }
  std::cerr << "usage: " << argv[0]
            << " --names | --check README.md docs/settings.md | --write README.md "
               "docs/settings.md\n";
  return 2;
}
