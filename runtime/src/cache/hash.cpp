// SHA-256 through OpenSSL's EVP interface (maintained, constant-time, fast).
#include "cache/hash.hpp"

#include <openssl/evp.h>

#include <memory>
#include <stdexcept>

namespace xgpu::detail {

Digest sha256(std::initializer_list<std::string_view> pieces) {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(),
                                                                  &EVP_MD_CTX_free);
  if (!context || EVP_DigestInit_ex(context.get(), EVP_sha256(), nullptr) != 1) {
    throw std::runtime_error("OpenSSL could not start a SHA-256 digest");
  }
  for (std::string_view piece : pieces) {
    if (EVP_DigestUpdate(context.get(), piece.data(), piece.size()) != 1) {
      throw std::runtime_error("OpenSSL SHA-256 update failed");
    }
  }
  Digest digest{};
  unsigned length = 0;
  if (EVP_DigestFinal_ex(context.get(), digest.data(), &length) != 1 || length != digest.size()) {
    throw std::runtime_error("OpenSSL SHA-256 final failed");
  }
  return digest;
}

std::string to_hex(const Digest& digest) {
  static const char kDigits[] = "0123456789abcdef";
  std::string text;
  text.reserve(digest.size() * 2);
  for (std::uint8_t byte : digest) {
    text += kDigits[byte >> 4];
    text += kDigits[byte & 15];
  }
  return text;
}

}  // namespace xgpu::detail
