// The atomics suite: every 32-bit atomic (atomic_add, sub, xchg, inc, dec, cmpxchg, min, max,
// and, or, xor) on int and uint, and the 64-bit atom_* functions on long and ulong where the
// device has cl_khr_int64_base_atomics (and _extended_atomics for min to xor), each on
// global memory (every work-item of the launch on the same words) and on local memory (each
// work-group on its own words). The old values every atomic returns are judged, not only the
// final value (atomics_judge.hpp). One program per type.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "atomics_judge.hpp"
#include "check.hpp"

namespace xgpu::conform {
namespace {

using namespace atomics;

// Built with -DT=<type> -DBITS=<32|64>. Item i applies operation `op` (its index in the
// lists) to word i / per_word of its words (global: the launch's; local: its group's copy in
// local memory, copied back after) with operand v = a + i * b, or its own bit of the word,
// and returns the old value in old[]. Each operation is written once, in the lists, so a test
// can break one of them. Two kernels per type, not one per operation: PoCL compiles each
// kernel separately, at about half a second each.
const char* const kSource = R"(
#define ONE ((T)1)
#if BITS == 64
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define A(op) atom_##op
#ifdef cl_khr_int64_extended_atomics
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#define EXTENDED 1
#endif
#else
#define A(op) atomic_##op
#define EXTENDED 1
#endif
#define MAX_WORDS 16

// Adds v with a compare-and-swap loop; returns the value it replaced.
#define CMPXCHG_ADD(S, space)                                        \
  T cmpxchg_add_##S(volatile space T* p, T v) {                     \
    T seen = *p, prior;                                              \
    while ((prior = A(cmpxchg)(p, seen, seen + v)) != seen) seen = prior; \
    return prior;                                                    \
  }
CMPXCHG_ADD(g, global)
CMPXCHG_ADD(l, local)

#define BASE_OPS(X, S)   \
  X(add, A(add)(p, v))   \
  X(sub, A(sub)(p, v))   \
  X(xchg, A(xchg)(p, v)) \
  X(inc, A(inc)(p))      \
  X(dec, A(dec)(p))      \
  X(cmpxchg, cmpxchg_add_##S(p, v))
#define EXTENDED_OPS(X)      \
  X(min, A(min)(p, v))       \
  X(max, A(max)(p, v))       \
  X(and, A(and)(p, ~bit))    \
  X(or, A(or)(p, bit))       \
  X(xor, A(xor)(p, bit))

#define ENUM(name, call) OP_##name,
#define CASE(name, call) \
  case OP_##name:        \
    r = call;            \
    break;
enum { BASE_OPS(ENUM, g) EXTENDED_OPS(ENUM) };
#ifdef EXTENDED
#define EXTENDED_CASES EXTENDED_OPS(CASE)
#else
#define EXTENDED_CASES
#endif
// r = operation `op` of item i on *p (S: the address space's cmpxchg_add, g or l).
#define APPLY(S)                                     \
  const T v = a + (T)i * b, bit = ONE << (i % BITS); \
  T r = 0;                                           \
  switch (op) {                                      \
    BASE_OPS(CASE, S)                                \
    EXTENDED_CASES                                   \
  }

kernel void global_atomics(volatile global T* c, global T* old, uint op, T a, T b,
                           uint per_word, uint count) {
  const uint i = get_global_id(0);
  volatile global T* p = c + i / per_word;
  APPLY(g)
  old[i] = r;
}

kernel void local_atomics(global T* c, global T* old, uint op, T a, T b, uint per_word,
                          uint count) {
  local T words[MAX_WORDS];
  const uint i = get_local_id(0), n = get_local_size(0);
  global T* mine = c + get_group_id(0) * count;
  for (uint w = i; w < count; w += n) words[w] = mine[w];
  barrier(CLK_LOCAL_MEM_FENCE);
  volatile local T* p = words + i / per_word;
  APPLY(l)
  old[get_global_id(0)] = r;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint w = i; w < count; w += n) mine[w] = words[w];
}
)";
constexpr std::uint32_t kMaxWords = 16;  // MAX_WORDS above
constexpr std::uint32_t kOneWord = 0xffffffffu;

enum class Kind { sequence, permutation, min, max, bits };

struct Op {
  const char* name;
  Kind kind;
  bool extended;  ///< 64-bit: needs cl_khr_int64_extended_atomics
};

const Op kOps[] = {
    {"add", Kind::sequence, false},     {"sub", Kind::sequence, false},
    {"xchg", Kind::permutation, false}, {"inc", Kind::sequence, false},
    {"dec", Kind::sequence, false},     {"cmpxchg", Kind::sequence, false},
    {"min", Kind::min, true},           {"max", Kind::max, true},
    {"and", Kind::bits, true},          {"or", Kind::bits, true},
    {"xor", Kind::bits, true},
};

/// What an operation starts from and works with, for m items of type T. The values cross
/// zero (and, unsigned, wrap around), set the top bit, and for 64 bits reach the upper half,
/// so a signed/unsigned mix-up or a 32-bit truncation shows.
template <class T>
struct Plan {
  T initial;
  T a, b;  ///< item i's operand: a + i b
  T step;  ///< sequence: what each item adds
  std::uint32_t per_word = kOneWord;
};

template <class T>
Plan<T> plan_for(const std::string& op, std::size_t m) {
  constexpr int bits = static_cast<int>(sizeof(T) * 8);
  const T top = static_cast<T>(T(1) << (bits - 1));
  const T spread = static_cast<T>(7 * (m / 2));
  if (op == "add") return {static_cast<T>(-100), 3, 0, 3};
  if (op == "sub") return {100, 3, 0, static_cast<T>(-3)};
  if (op == "inc") return {static_cast<T>(-10), 0, 0, 1};
  if (op == "dec") return {10, 0, 0, static_cast<T>(-1)};
  if (op == "cmpxchg") return {static_cast<T>(-50), 5, 0, 5};
  if (op == "xchg") return {7, static_cast<T>(top + 1), 1, 0};
  // Falling operands for min and rising ones for max: many items write. Unsigned, they
  // wrap past zero, so a signed comparison picks another extremum.
  if (op == "min") return {std::numeric_limits<T>::max() / 2, spread, static_cast<T>(-7), 0};
  if (op == "max") return {std::numeric_limits<T>::min() / 2, static_cast<T>(-spread), 7, 0};
  Plan<T> plan{0, 0, 0, 0, static_cast<std::uint32_t>(bits)};
  if (op == "and") plan.initial = static_cast<T>(~T(0));
  if (op == "xor") plan.initial = static_cast<T>(0x5a5a5a5a5a5a5a5aull);
  return plan;
}

/// Judges items [first, first + m) of one domain (the launch, or a work-group) on its words.
template <class T>
std::string judge_domain(const Op& op, const Plan<T>& plan, const std::vector<T>& old,
                         std::size_t first, std::size_t m, const T* words) {
  std::vector<T> seen(old.begin() + first, old.begin() + first + m), operands;
  for (std::size_t i = 0; i < m; ++i)
    operands.push_back(wrapped_add(plan.a, wrapped_mul(plan.b, i)));
  switch (op.kind) {
    case Kind::sequence:
      return judge_sequence(plan.initial, plan.step, seen, words[0]);
    case Kind::permutation:
      return judge_permutation(plan.initial, operands, seen, words[0]);
    case Kind::min:
    case Kind::max:
      return judge_extremum(op.kind == Kind::min, plan.initial, operands, seen, words[0]);
    case Kind::bits: {
      const BitOp bit_op = op.name == std::string("and")  ? BitOp::clear
                           : op.name == std::string("or") ? BitOp::set
                                                          : BitOp::flip;
      for (std::size_t w = 0; w * plan.per_word < m; ++w) {
        const std::size_t begin = w * plan.per_word, end = std::min(m, begin + plan.per_word);
        std::vector<T> bits, word_old(seen.begin() + begin, seen.begin() + end);
        for (std::size_t i = begin; i < end; ++i) bits.push_back(T(1) << (i % plan.per_word));
        std::string wrong = judge_bit_chain(bit_op, plan.initial, bits, word_old, words[w]);
        if (!wrong.empty()) return "word " + std::to_string(w) + ": " + wrong;
      }
      return {};
    }
  }
  return "unknown kind";
}

template <class T>
const char* type_name() {
  if constexpr (std::is_same_v<T, std::int32_t>) return "int";
  if constexpr (std::is_same_v<T, std::uint32_t>) return "uint";
  if constexpr (std::is_same_v<T, std::int64_t>) return "long";
  return "ulong";
}

template <class T>
Result run_op(Env& env, const Op& op, bool local) {
  const std::string type = type_name<T>();
  const std::string function = std::string(sizeof(T) == 8 ? "atom_" : "atomic_") + op.name + "(" +
                               type + ", " + (local ? "local" : "global") + " memory)";
  Program program = env.program("conform_atomics_" + type + ".cl", kSource,
                                "-DT=" + type + " -DBITS=" + std::to_string(sizeof(T) * 8));
  Kernel kernel = program.kernel(local ? "local_atomics" : "global_atomics");
  const auto op_index = static_cast<std::uint32_t>(&op - kOps);  // the kernel's OP_ order
  // Global: one domain of every item; local: groups of wg items, each on its own words.
  std::size_t m = env.size(1024, 96), domains = 1;
  if (local) {
    m = std::min({env.size(std::size_t{128}, std::size_t{32}), env.info().max_work_group_size,
                  kernel.limits().max_work_group_size});
    domains = env.size(4, 2);
  }
  const Plan<T> plan = plan_for<T>(op.name, m);
  const std::uint32_t count =
      plan.per_word == kOneWord
          ? 1
          : static_cast<std::uint32_t>((m + plan.per_word - 1) / plan.per_word);
  if (local && count > kMaxWords)
    return fail(function + ": " + std::to_string(m) + " items need too many words");
  Buffer<T> words = env.context().alloc<T>(count * domains);
  Buffer<T> old = env.context().alloc<T>(m * domains);
  env.queue().fill(words, plan.initial);
  if (local)
    env.queue().launch(kernel, Range{m * domains}, Range{m}, words, old, op_index, plan.a, plan.b,
                       plan.per_word, count);
  else
    env.queue().launch(kernel, Range{m}, words, old, op_index, plan.a, plan.b, plan.per_word,
                       count);
  const std::vector<T> final_words = env.queue().read(words), returned = env.queue().read(old);
  for (std::size_t d = 0; d < domains; ++d) {
    const std::string wrong =
        judge_domain(op, plan, returned, d * m, m, final_words.data() + d * count);
    if (!wrong.empty())
      return fail(function + ", " + std::to_string(m) + " work-items" +
                  (local ? ", group " + std::to_string(d) : std::string()) + ": " + wrong);
  }
  return pass();
}

template <class T>
void register_type(Registry& registry) {
  const std::string type = type_name<T>();
  for (const Op& op : kOps) {
    std::string needs;
    if (sizeof(T) == 8)
      needs = op.extended ? "cl_khr_int64_extended_atomics" : "cl_khr_int64_base_atomics";
    for (bool local : {false, true}) {
      registry.add("atomics", std::string(local ? "local_" : "global_") + type + "_" + op.name,
                   needs, [&op, local](Env& env) { return run_op<T>(env, op, local); });
    }
  }
}

}  // namespace

void register_atomics(Registry& registry) {
  register_type<std::int32_t>(registry);
  register_type<std::uint32_t>(registry);
  register_type<std::int64_t>(registry);
  register_type<std::uint64_t>(registry);
}

}  // namespace xgpu::conform
