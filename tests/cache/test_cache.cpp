// The kernel cache from the inside, part 1: the entry format and its parser, the
// settings from the environment, and the key. No device needed but for the key's record.
#include <random>
#include <string_view>

#include "cache/entry.hpp"
#include "cache/key.hpp"
#include "cache/settings.hpp"
#include "cache_test_support.hpp"
#include "internals.hpp"
#include "objects.hpp"  // and through it the core's registry.hpp (DeviceRecord)
#include "test_support.hpp"

using namespace xgpu_cache_test;

namespace {

bool parses(std::string_view bytes, CacheEntry* out = nullptr, std::string* why = nullptr) {
  CacheEntry entry;
  std::string reason;
  bool ok = xgpu::detail::parse_entry(bytes, entry, &reason);
  if (out) *out = entry;
  if (why) *why = reason;
  return ok;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// The entry format.

TEST_CASE("an encoded entry parses back to the same content", "[cache]") {
  for (std::size_t binary_size : {std::size_t{0}, std::size_t{1}, std::size_t{5000}}) {
    CacheEntry entry = make_entry("key text\nwith lines", binary_size);
    std::string bytes = xgpu::detail::encode_entry(entry);
    CHECK(bytes.size() == xgpu::detail::kEntryHeaderSize + entry.key.size() +
                              entry.metadata.size() + entry.build_log.size() + binary_size);
    CHECK(bytes.compare(0, 8, "XGPUKC\r\n") == 0);
    CacheEntry parsed;
    std::string why;
    REQUIRE(parses(bytes, &parsed, &why));
    CHECK(why.empty());
    CHECK(same(parsed, entry));
  }
  CacheEntry empty;  // every section empty is still a valid entry
  CacheEntry parsed;
  CHECK(parses(xgpu::detail::encode_entry(empty), &parsed));
  CHECK(same(parsed, empty));
}

TEST_CASE("a truncated entry is refused at every length", "[cache]") {
  const std::string bytes = xgpu::detail::encode_entry(make_entry("k", 40));
  std::size_t accepted = 0;
  for (std::size_t length = 0; length < bytes.size(); ++length) {
    std::string why;
    // A copy of exactly `length` bytes, so a read past the end is caught by sanitizers.
    std::string prefix = bytes.substr(0, length);
    bool ok = parses(prefix, nullptr, &why);
    if (ok) UNSCOPED_INFO("accepted a prefix of " << length << " bytes");
    accepted += ok;
    if (!ok && why.empty())
      FAIL_CHECK("refused a prefix of " << length << " bytes without a reason");
  }
  CHECK(accepted == 0);
  std::string why;
  CHECK_FALSE(parses(std::string_view(), nullptr, &why));
  CHECK_THAT(why, Catch::Matchers::Contains("truncated"));
}

TEST_CASE("a flipped bit anywhere in an entry is refused", "[cache]") {
  const CacheEntry original = make_entry("the key", 24);
  const std::string bytes = xgpu::detail::encode_entry(original);
  std::size_t changed_but_accepted = 0, accepted = 0;
  for (std::size_t at = 0; at < bytes.size(); ++at) {
    for (unsigned char mask : {0x01, 0x10, 0x80, 0xFF}) {
      std::string flipped = bytes;
      flipped[at] = static_cast<char>(flipped[at] ^ mask);
      CacheEntry parsed;
      std::string why;
      if (parses(flipped, &parsed, &why)) {
        ++accepted;
        if (!same(parsed, original)) {
          ++changed_but_accepted;
          UNSCOPED_INFO("byte " << at << " ^ " << int(mask) << " accepted with other content");
        }
      } else if (why.empty()) {
        FAIL_CHECK("byte " << at << " refused without a reason");
      }
    }
  }
  CHECK(changed_but_accepted == 0);  // the one thing that must never happen
  CHECK(accepted == 0);              // and the checksum covers every byte, so none passes
}

TEST_CASE("garbage is refused", "[cache]") {
  std::mt19937 random(12345);
  std::size_t accepted = 0;
  for (std::size_t size : {1, 7, 79, 80, 81, 200, 4096}) {
    for (int round = 0; round < 20; ++round) {
      std::string garbage(size, '\0');
      for (char& c : garbage) c = static_cast<char>(random());
      accepted += parses(garbage);
      // The same with a valid magic, version and section count: the lengths and the
      // checksum must still stop it.
      if (size >= 16) {
        std::string header = xgpu::detail::encode_entry(CacheEntry{}).substr(0, 16);
        garbage.replace(0, 16, header);
        accepted += parses(garbage);
      }
    }
  }
  CHECK(accepted == 0);
  std::string why;
  CHECK_FALSE(
      parses("this is a text file, not a cache entry, and it is long enough to be one "
             "if only length mattered to the parser at all",
             nullptr, &why));
  CHECK_THAT(why, Catch::Matchers::Contains("magic"));
}

TEST_CASE("huge section lengths are refused without reading past the end", "[cache]") {
  std::string bytes = xgpu::detail::encode_entry(make_entry("k", 8));
  for (int section = 0; section < 4; ++section) {
    const std::uint64_t lengths[] = {~0ull, ~0ull - 100, 1ull << 63, bytes.size()};
    for (std::uint64_t length : lengths) {
      std::string patched = bytes;
      for (int i = 0; i < 8; ++i)
        patched[16 + 8 * section + i] = static_cast<char>(length >> (8 * i));
      CHECK_FALSE(parses(patched));
    }
  }
}

TEST_CASE("an entry of another format version is refused", "[cache]") {
  const std::string bytes = xgpu::detail::encode_entry(make_entry("k", 8));
  for (std::uint32_t version : {0u, xgpu::detail::kCacheFormatVersion + 1, 0xFFFFFFFFu}) {
    std::string patched = bytes;  // only the version changes: the checksum is left as it was
    for (int i = 0; i < 4; ++i) patched[8 + i] = static_cast<char>(version >> (8 * i));
    std::string why;
    CHECK_FALSE(parses(patched, nullptr, &why));
    CHECK_THAT(why, Catch::Matchers::Contains("version"));
  }
}

TEST_CASE("bytes after the last section are refused", "[cache]") {
  const std::string bytes = xgpu::detail::encode_entry(make_entry("k", 8));
  for (const std::string& tail : {std::string(1, '\0'), std::string("x"), std::string(100, 'y')}) {
    std::string why;
    CHECK_FALSE(parses(bytes + tail, nullptr, &why));
    CHECK_FALSE(why.empty());
  }
  std::string why;
  CHECK_FALSE(parses(bytes + bytes, nullptr, &why));  // two entries glued together
}

TEST_CASE("metadata values are found by exact name", "[cache]") {
  const std::string metadata = "device=pthread\nab=2\na=1\noptions=-DX=1 -DY=2\nempty=\nlast=end";
  using xgpu::detail::metadata_value;
  CHECK(metadata_value(metadata, "device") == "pthread");
  CHECK(metadata_value(metadata, "a") == "1");  // not "ab"'s value
  CHECK(metadata_value(metadata, "ab") == "2");
  CHECK(metadata_value(metadata, "options") == "-DX=1 -DY=2");  // '=' inside the value
  CHECK(metadata_value(metadata, "empty").empty());
  CHECK(metadata_value(metadata, "last") == "end");  // no newline after the last line
  CHECK(metadata_value(metadata, "missing").empty());
  CHECK(metadata_value(metadata, "dev").empty());  // a prefix of a name is not the name
  CHECK(metadata_value("", "device").empty());
  CHECK(metadata_value("\n\n=x\n", "device").empty());
}

// ---------------------------------------------------------------------------------------
// Settings and the key.

// The size rule itself is tested in tests/core/test_byte_size.cpp; here the public function,
// which names the bad text.
TEST_CASE("cache sizes parse with K, M, G and T suffixes", "[cache]") {
  CHECK(xgpu::cache::parse_size("2G") == (2ull << 30));
  CHECK(xgpu::cache::parse_size("1.5G") == (3ull << 29));
  xgpu_test::check_error(xgpu_test::capture_error([] { xgpu::cache::parse_size("abc"); }),
                         xgpu::Errc::invalid_argument, {"'abc'"});
}

// From the variables' values as given (the process's own are read once, CacheEnvironment::
// current(); the end-to-end tests in tests/cache/ set them per process).
TEST_CASE("cache settings come from the environment", "[cache]") {
  using xgpu::detail::cache_settings;
  xgpu::detail::CacheEnvironment environment;
  environment.home = "/home/someone";
  auto settings = cache_settings(environment);
  CHECK(settings.mode == CacheMode::read_write);
  CHECK(settings.folder == "/home/someone/.cache/xgpu");
  CHECK(settings.max_size == (1ull << 30));
  {
    auto with = environment;
    with.xdg_cache_home = "/xdg";
    CHECK(cache_settings(with).folder == "/xdg/xgpu");
    with.cache_dir = "/mine";
    CHECK(cache_settings(with).folder == "/mine");
  }
  {
    auto off = environment;
    off.cache = "0";
    CHECK(cache_settings(off).mode == CacheMode::off);
  }
  {
    auto ro = environment;
    ro.cache = "ro";
    CHECK(cache_settings(ro).mode == CacheMode::read_only);
  }
  {
    auto capped = environment;
    capped.cache_max_size = "64M";
    CHECK(cache_settings(capped).max_size == (64ull << 20));
    capped.cache_max_size = "lots";
    CHECK(cache_settings(capped).max_size == (1ull << 30));
  }
  {
    // No folder can be named: off, never a shared /tmp folder.
    auto no_home = environment;
    no_home.home.reset();
    auto homeless = cache_settings(no_home);
    CHECK(homeless.mode == CacheMode::off);
    CHECK(homeless.folder.rfind("/tmp", 0) != 0);
  }
}

TEST_CASE("build options are normalized, their order kept", "[cache]") {
  using xgpu::detail::normalize_options;
  CHECK(normalize_options("") == "");
  CHECK(normalize_options("   ") == "");
  CHECK(normalize_options("-DA=1") == "-DA=1");
  CHECK(normalize_options("  -DA=1 \t -DB=2\n") == "-DA=1 -DB=2");
  CHECK(normalize_options("-DX=1 -DX=2") != normalize_options("-DX=2 -DX=1"));
}

TEST_CASE("the cache key changes with everything that changes the binary", "[cache]") {
  auto devices = xgpu::devices();
  REQUIRE_FALSE(devices.empty());  // the CTest entry promises PoCL
  const xgpu::detail::DeviceRecord& real = *xgpu::detail::Internals::record(devices.front());
  using xgpu::detail::make_cache_key;
  const std::string source = "kernel void k(global int* x) { x[0] = 1; }\n";
  const std::string base = make_cache_key(real, "-DA=1", source);
  CHECK(make_cache_key(real, "-DA=1", source) == base);      // deterministic
  CHECK(make_cache_key(real, "  -DA=1  ", source) == base);  // whitespace does not matter
  CHECK_THAT(base, Catch::Matchers::EndsWith(source));       // the full text, not just a digest
  CHECK_THAT(base, Catch::Matchers::Contains(real.info.driver_version));

  auto changed = [&](auto&& change) {
    xgpu::detail::DeviceRecord copy = real;
    change(copy.info);
    return make_cache_key(copy, "-DA=1", source);
  };
  CHECK(changed([](xgpu::DeviceInfo& info) { info.driver_version += ".1"; }) != base);
  CHECK(changed([](xgpu::DeviceInfo& info) { info.device_version += " x"; }) != base);
  CHECK(changed([](xgpu::DeviceInfo& info) { info.platform_version += " x"; }) != base);
  CHECK(changed([](xgpu::DeviceInfo& info) { info.platform_name += " x"; }) != base);
  CHECK(changed([](xgpu::DeviceInfo& info) { info.name += " x"; }) != base);
  CHECK(changed([](xgpu::DeviceInfo& info) { info.backend += "x"; }) != base);
  CHECK(changed([](xgpu::DeviceInfo& info) {
          info.uuid = info.uuid == "0123456789abcdef0123456789abcdef"
                          ? "fedcba9876543210fedcba9876543210"
                          : "0123456789abcdef0123456789abcdef";
        }) != base);
  CHECK(make_cache_key(real, "-DA=2", source) != base);
  CHECK(make_cache_key(real, "-DA=1 -cl-fast-relaxed-math", source) != base);
  CHECK(make_cache_key(real, "-DA=1", source + " ") != base);
  {
    // The drivers' build-option variables, as driver_option_variables() reads them once per
    // process (tests/cache/: cache.pocl.modes sets POCL_EXTRA_BUILD_FLAGS per process).
    const std::string none = xgpu::detail::driver_option_variables();
    const std::string with_flags =
        make_cache_key(real, "-DA=1", source, none + "env POCL_EXTRA_BUILD_FLAGS=-O0\n");
    CHECK(with_flags != base);
    CHECK(make_cache_key(real, "-DA=1", source, none + "env POCL_EXTRA_BUILD_FLAGS=-O1\n") !=
          with_flags);
    CHECK(make_cache_key(real, "-DA=1", source, none) == base);
  }
  // Different keys give different file names.
  CHECK(hash_of(base) != hash_of(make_cache_key(real, "-DA=2", source)));
  CHECK(hash_of(base).size() == 64);
}
