// "Did you mean ...?" for mistyped names: selector words, requirement keys, kernel names,
// embedded kernel sources. One function, so every message suggests the same way.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace xgpu::util {

/// The candidate nearest to `word` by edit distance (insertions, deletions, substitutions
/// and swaps of two neighbouring letters, ignoring case), or empty when none is near enough
/// to be a typo: at most 1 edit for words of up to 4 letters, 2 up to 8, else 3, and never
/// as many edits as the word has letters. When none is that near, the first candidate of
/// which a word of 3 letters or more is one '_'- or '-'-separated part ("blas" for
/// "vendor_blas", "h100" for "nvidia-h100"): a short form, not a typo. A tie goes to the
/// earlier candidate; `word` itself is never suggested, but the same word in another case is.
std::string closest_word(std::string_view word, const std::vector<std::string>& candidates);

/// ": did you mean 'X'?" for the closest candidate, or empty: to append to a message.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace xgpu::util
