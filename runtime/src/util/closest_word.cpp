// Optimal string alignment distance (Damerau-Levenshtein without repeated edits of one
// substring): a swapped pair of letters ("nvidai") is one typo, as a user counts it.
#include "util/closest_word.hpp"

#include <algorithm>
#include <cctype>

namespace xgpu::util {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  const std::size_t rows = a.size() + 1, columns = b.size() + 1;
  std::vector<std::size_t> d(rows * columns);
  auto at = [&](std::size_t i, std::size_t j) -> std::size_t& { return d[i * columns + j]; };
  for (std::size_t i = 0; i < rows; ++i) at(i, 0) = i;
  for (std::size_t j = 0; j < columns; ++j) at(0, j) = j;
  for (std::size_t i = 1; i < rows; ++i) {
    for (std::size_t j = 1; j < columns; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      std::size_t best = std::min({at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        best = std::min(best, at(i - 2, j - 2) + 1);
      at(i, j) = best;
    }
  }
  return at(rows - 1, columns - 1);
}

// How many edits still read as a typo of a word this long.
std::size_t allowed_edits(std::size_t length) {
  const std::size_t limit = length <= 4 ? 1 : length <= 8 ? 2 : 3;
  return std::min(limit, length == 0 ? 0 : length - 1);
}

// Whether `part` is one of `candidate`'s '_'- or '-'-separated parts.
bool is_part(const std::string& part, const std::string& candidate) {
  std::size_t start = 0;
  while (start <= candidate.size()) {
    std::size_t end = candidate.find_first_of("_-", start);
    if (end == std::string::npos) end = candidate.size();
    if (candidate.compare(start, end - start, part) == 0) return true;
    start = end + 1;
  }
  return false;
}

}  // namespace

std::string closest_word(std::string_view word, const std::vector<std::string>& candidates) {
  const std::string typed = lower(word);
  // Long inputs are not typos of short names; this also bounds the table's size.
  if (typed.empty() || typed.size() > 256) return {};
  const std::size_t allowed = allowed_edits(typed.size());
  std::string best;
  std::size_t best_distance = allowed + 1;
  for (const std::string& candidate : candidates) {
    if (candidate.size() > typed.size() + allowed || candidate.size() + allowed < typed.size())
      continue;
    if (candidate == word) continue;  // the word itself is no suggestion
    const std::size_t distance = edit_distance(typed, lower(candidate));
    if (distance < best_distance) best_distance = distance, best = candidate;
  }
  if (!best.empty() || typed.size() < 3) return best;
  for (const std::string& candidate : candidates) {
    if (candidate.size() > typed.size() && is_part(typed, lower(candidate))) return candidate;
  }
  return best;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  const std::string best = closest_word(word, candidates);
  return best.empty() ? std::string() : ": did you mean '" + best + "'?";
}

}  // namespace xgpu::util
