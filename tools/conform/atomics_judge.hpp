// Judging what one group of work-items did to shared words with atomic operations, from the
// old values each atomic returned and the words' final values. Pure functions of host data,
// so a test can feed them lying inputs. Every judgement asks for more than the final total:
// the returned old values must be a history the words can really have gone through, which an
// atomic that returns the new value, or loses an update, cannot fake.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace xgpu::conform::atomics {

/// Wrapping arithmetic in T (signed T wraps as two's complement, as the device's atomics do).
template <class T>
T wrapped_add(T x, T y) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(x) + static_cast<U>(y)));
}
template <class T>
T wrapped_mul(T x, std::uint64_t y) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(x) * static_cast<U>(y)));
}

template <class T>
std::string text(T value) {
  std::ostringstream out;
  out << +value;
  return out.str();
}

/// Empty when `got` equals `expected` as a multiset; else the first difference, in sorted
/// order.
template <class T>
std::string multiset_difference(std::vector<T> expected, std::vector<T> got, const char* what) {
  std::sort(expected.begin(), expected.end());
  std::sort(got.begin(), got.end());
  if (expected.size() != got.size())
    return std::string(what) + ": expected " + std::to_string(expected.size()) + " values, got " +
           std::to_string(got.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (expected[i] != got[i])
      return std::string(what) + ", sorted, position " + std::to_string(i) + ": expected " +
             text(expected[i]) + ", got " + text(got[i]);
  }
  return {};
}

/// add, sub, inc, dec and a cmpxchg loop adding `step`: each of the m work-items saw a
/// different point of initial, initial + step, ..., initial + (m - 1) step, and the word ends
/// at initial + m step. Empty when so, else what is wrong.
template <class T>
std::string judge_sequence(T initial, T step, const std::vector<T>& old, T final_value) {
  std::vector<T> expected;
  T value = initial;
  for (std::size_t i = 0; i < old.size(); ++i, value = wrapped_add(value, step))
    expected.push_back(value);
  if (final_value != value)
    return "final value: expected " + text(value) + ", got " + text(final_value);
  return multiset_difference(expected, old, "returned old values");
}

/// xchg: the old values and the final value are the initial value and every item's operand,
/// each exactly once.
template <class T>
std::string judge_permutation(T initial, const std::vector<T>& operands, std::vector<T> old,
                              T final_value) {
  std::vector<T> expected = operands;
  expected.push_back(initial);
  old.push_back(final_value);
  return multiset_difference(expected, old, "returned old values and the final value");
}

/// min (`is_min`) or max. The word only moves towards the extremum, and only an item whose
/// operand beat the value it saw wrote: those operands, after the initial value, are the
/// word's history in order. Each writer must have seen the history's previous entry, every
/// item must have seen an entry of it, and the last entry is the final value, which is the
/// extremum of the initial value and the operands.
template <class T>
std::string judge_extremum(bool is_min, T initial, const std::vector<T>& operands,
                           const std::vector<T>& old, T final_value) {
  const auto beats = [is_min](T a, T b) { return is_min ? a < b : a > b; };
  T extremum = initial;
  for (T v : operands)
    if (beats(v, extremum)) extremum = v;
  if (final_value != extremum)
    return "final value: expected " + text(extremum) + ", got " + text(final_value);
  std::vector<T> history{initial};
  for (std::size_t i = 0; i < old.size(); ++i)
    if (beats(operands[i], old[i])) history.push_back(operands[i]);
  // Oldest first: the word only moves towards the extremum.
  std::sort(history.begin() + 1, history.end(), [&](T a, T b) { return beats(b, a); });
  if (history.back() != final_value)
    return "the writers' operands end the history at " + text(history.back()) +
           ", but the final value is " + text(final_value) +
           " (an old value that is not the value before the operation?)";
  for (std::size_t i = 0; i < old.size(); ++i) {
    const auto at = std::find(history.begin(), history.end(), old[i]);
    if (at == history.end())
      return "item " + std::to_string(i) + " returned " + text(old[i]) +
             ", a value the word never held";
    if (beats(operands[i], old[i]) && (at + 1 == history.end() || *(at + 1) != operands[i]))
      return "item " + std::to_string(i) + " wrote " + text(operands[i]) + " over " + text(old[i]) +
             ", but the word held something else in between";
  }
  return {};
}

enum class BitOp { clear, set, flip };  // and with ~bit, or with bit, xor with bit

template <class T>
T apply(BitOp op, T word, T bit) {
  switch (op) {
    case BitOp::clear:
      return static_cast<T>(word & static_cast<T>(~bit));
    case BitOp::set:
      return static_cast<T>(word | bit);
    case BitOp::flip:
      return static_cast<T>(word ^ bit);
  }
  return word;
}

/// and/or/xor on one word, each of the items changing its own distinct bit (`bits`). Each
/// change is a different bit, so how many bits an old value differs from the initial value
/// by is the number of items before it: the old values must be 0, 1, 2, ... changes away,
/// each the previous one with that item's change applied, and the final value the last one
/// changed once more. A lost update or an item that returned the new value breaks the chain.
template <class T>
std::string judge_bit_chain(BitOp op, T initial, const std::vector<T>& bits,
                            const std::vector<T>& old, T final_value) {
  T expected_final = initial;
  for (T bit : bits) expected_final = apply(op, expected_final, bit);
  if (final_value != expected_final)
    return "final value: expected " + text(expected_final) + ", got " + text(final_value) +
           " (a lost update?)";
  std::vector<std::size_t> order(old.size(), old.size());
  for (std::size_t i = 0; i < old.size(); ++i) {
    using U = std::make_unsigned_t<T>;
    std::size_t changes = 0;
    for (U d = static_cast<U>(old[i] ^ initial); d != 0; d &= static_cast<U>(d - 1)) ++changes;
    if (changes >= old.size() || order[changes] != old.size())
      return "item " + std::to_string(i) + " returned " + text(old[i]) + ", " +
             std::to_string(changes) + " bits from the initial " + text(initial) +
             ": no place in a history of one change per item";
    order[changes] = i;
  }
  T word = initial;
  for (std::size_t i : order) {
    if (old[i] != word)
      return "item " + std::to_string(i) + " returned " + text(old[i]) + ", expected " +
             text(word) + " (the word before its change)";
    word = apply(op, word, bits[i]);
  }
  return {};
}

}  // namespace xgpu::conform::atomics
