// The kernel cache's SHA-256: the standard's test vectors (FIPS 180-4 examples, NIST's
// million 'a'), every length around the block and padding boundaries, and pieces hashed as
// one, on each engine this CPU has; the x86 engine must agree with the portable one byte
// for byte, since an entry written by one process is checked by another.
#include <catch2/catch.hpp>
#include <random>
#include <string>

#include "cache/hash.hpp"

using xgpu::detail::sha256;
using xgpu::detail::sha256_engine_available;
using xgpu::detail::sha256_using;
using xgpu::detail::Sha256Engine;
using xgpu::detail::to_hex;

namespace {

std::vector<Sha256Engine> available_engines() {
  std::vector<Sha256Engine> engines = {Sha256Engine::portable};
  if (sha256_engine_available(Sha256Engine::x86_sha)) engines.push_back(Sha256Engine::x86_sha);
  return engines;
}

}  // namespace

TEST_CASE("SHA-256 gives the standard's digests on every engine", "[cache][hash]") {
  const std::string million_a(1000000, 'a');
  const std::pair<std::string, const char*> vectors[] = {
      {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
      {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
      {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
      {million_a, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"}};
  for (Sha256Engine engine : available_engines()) {
    INFO("engine " << static_cast<int>(engine));
    for (const auto& [message, expected] : vectors) {
      INFO("message of " << message.size() << " bytes");
      CHECK(to_hex(sha256_using(engine, {message})) == expected);
    }
  }
  CHECK(to_hex(sha256({"abc"})) == vectors[1].second);  // the engine the cache uses
  if (!sha256_engine_available(Sha256Engine::x86_sha)) {
    WARN("this CPU has no x86 SHA extensions: only the portable engine was checked");
    CHECK_THROWS_AS(sha256_using(Sha256Engine::x86_sha, {"abc"}), std::invalid_argument);
  }
}

TEST_CASE("SHA-256 engines agree on every length and any split into pieces", "[cache][hash]") {
  std::mt19937 random(13);
  std::string bytes(4 * 64 + 7, '\0');
  for (char& byte : bytes) byte = static_cast<char>(random());
  const auto engines = available_engines();
  for (std::size_t length = 0; length <= bytes.size(); ++length) {
    const std::string_view message(bytes.data(), length);
    const auto whole = sha256_using(Sha256Engine::portable, {message});
    for (Sha256Engine engine : engines) {
      INFO("engine " << static_cast<int>(engine) << ", " << length << " bytes");
      REQUIRE(sha256_using(engine, {message}) == whole);
      // Three pieces, split at points that straddle block boundaries.
      const std::size_t first = length / 3, second = length - length / 5;
      REQUIRE(sha256_using(engine, {message.substr(0, first), message.substr(first, second - first),
                                    message.substr(second)}) == whole);
    }
  }
}
