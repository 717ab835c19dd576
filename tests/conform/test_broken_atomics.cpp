// Proof that the atomics checks can fail. (1) Each atomic is made to return the new value
// instead of the old one (the atomic still happens, so every final value stays right and only
// the returned values lie): every check of that type, global and local, must fail and name
// its function. (2) The judges fed lying histories: a lost update, a value never held, a
// duplicate exchange.
#include <atomics_judge.hpp>
#include <catch2/catch.hpp>
#include <check.hpp>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

using namespace xgpu::conform;
using namespace xgpu::conform::atomics;

namespace {

struct Breakage {
  const char* op;
  const char* from;  ///< the operation's call in the atomics kernel's lists
  const char* to;    ///< the same call, then moved on to the new value
};

// Each keeps the atomic (so the words end right) and returns old op operand: the new value.
const Breakage kReturnsNew[] = {
    {"add", "A(add)(p, v)", "(A(add)(p, v) + v)"},
    {"sub", "A(sub)(p, v)", "(A(sub)(p, v) - v)"},
    {"xchg", "A(xchg)(p, v)", "(A(xchg)(p, v), v)"},
    {"inc", "A(inc)(p)", "(A(inc)(p) + ONE)"},
    {"dec", "A(dec)(p)", "(A(dec)(p) - ONE)"},
    {"cmpxchg", "return prior;", "return prior + v;"},  // the compare-and-swap loop's result
    {"min", "A(min)(p, v)", "min(A(min)(p, v), v)"},
    {"max", "A(max)(p, v)", "max(A(max)(p, v), v)"},
    {"and", "A(and)(p, ~bit)", "(A(and)(p, ~bit) & ~bit)"},
    {"or", "A(or)(p, bit)", "(A(or)(p, bit) | bit)"},
    {"xor", "A(xor)(p, bit)", "(A(xor)(p, bit) ^ bit)"},
};

/// The registered check named `name` (suite atomics); fails the test when there is none.
const Check& atomics_check(const Registry& registry, const std::string& name) {
  for (const Check& check : registry.checks())
    if (check.suite == "atomics" && check.name == name) return check;
  FAIL("no check atomics/" << name);
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("an atomic that returns the new value fails its check, which names it",
          "[conform][broken]") {
  Registry registry;
  register_atomics(registry);
  for (const xgpu::Device& device : xgpu::devices()) {
    const bool quick = device.info().implementation == "oclgrind";
    for (const char* type : {"int", "uint", "long", "ulong"}) {
      DYNAMIC_SECTION(device.describe() << " " << type) {
        // One program per type holds every operation: break them all at once, one build.
        Env env(device, quick);
        const std::string program = std::string("conform_atomics_") + type + ".cl";
        for (const Breakage& broken : kReturnsNew) env.sabotage(program, broken.from, broken.to);
        const bool wide = type[std::string(type).size() - 1] == 'g';  // long, ulong
        for (const Breakage& broken : kReturnsNew) {
          for (const char* space : {"global", "local"}) {
            const std::string name = std::string(space) + "_" + type + "_" + broken.op;
            const Check& check = atomics_check(registry, name);
            const Result result = run_check(check, env);
            INFO(name << ": " << result.detail);
            if (!missing_capability(check.needs, env.info()).empty()) {
              CHECK(result.outcome == Outcome::skip);
              continue;
            }
            CHECK(result.outcome == Outcome::fail);
            const std::string function = std::string(wide ? "atom_" : "atomic_") + broken.op + "(" +
                                         type + ", " + space + " memory)";
            CHECK(result.detail.find(function) != std::string::npos);
          }
        }
      }
    }
  }
}

TEST_CASE("the atomics judges see lost updates and invented old values", "[conform][broken]") {
  // Honest histories pass.
  CHECK(judge_sequence<int>(5, 2, {9, 5, 7}, 11).empty());
  CHECK(judge_permutation<unsigned>(0, {1, 2, 3}, {3, 0, 1}, 2).empty());
  CHECK(judge_extremum<int>(true, 100, {50, 70, 10}, {100, 50, 50}, 10).empty());
  CHECK(judge_bit_chain<std::uint32_t>(BitOp::clear, 0xf, {1, 2, 4}, {0xf, 0xa, 0xe}, 0x8).empty());

  // A lost update: two items read 7 and both wrote 9; the total is short by one step.
  CHECK_THAT(judge_sequence<int>(5, 2, {5, 7, 7}, 9), Catch::Matchers::Contains("final value"));
  // The same lost update hidden by a lying final value: the old values repeat.
  CHECK_THAT(judge_sequence<int>(5, 2, {5, 7, 7}, 11),
             Catch::Matchers::Contains("returned old values"));
  // Sub with wrapping: 1 - 2 - 2 in uint; returning the new values (~0u, ~2u) fails.
  CHECK(judge_sequence<unsigned>(1, 0u - 2u, {1, 0xffffffffu}, 0xfffffffdu).empty());
  CHECK_FALSE(
      judge_sequence<unsigned>(1, 0u - 2u, {0xffffffffu, 0xfffffffdu}, 0xfffffffdu).empty());
  // xchg: an operand seen twice and one never.
  CHECK_FALSE(judge_permutation<unsigned>(0, {1, 2, 3}, {3, 1, 1}, 2).empty());
  // min: item 1 claims the word held 60; item 2 wrote 10 over 50 but returned the new value.
  CHECK_THAT(judge_extremum<int>(true, 100, {50, 70, 10}, {100, 60, 50}, 10),
             Catch::Matchers::Contains("never held"));
  CHECK_FALSE(judge_extremum<int>(true, 100, {50, 70, 10}, {100, 50, 10}, 10).empty());
  // min: a lost update left 50 where 10 was written.
  CHECK_FALSE(judge_extremum<int>(true, 100, {50, 70, 10}, {100, 50, 100}, 50).empty());
  // max with writers in an impossible order: 70 written over 100 (the initial value).
  CHECK_FALSE(judge_extremum<int>(false, 0, {50, 70, 100}, {0, 0, 50}, 100).empty());
  // and: a lost update (bit 2 cleared by one item, its clear lost to the next).
  CHECK_THAT(judge_bit_chain<std::uint32_t>(BitOp::clear, 0xf, {1, 2, 4}, {0xf, 0xe, 0xe}, 0xa),
             Catch::Matchers::Contains("lost update"));
  // or: the final value right but two items claim to be first.
  CHECK_FALSE(judge_bit_chain<std::uint32_t>(BitOp::set, 0, {1, 2, 4}, {0, 0, 3}, 7).empty());
  // xor: an item saw its own bit already flipped (it returned the new value).
  CHECK_FALSE(judge_bit_chain<std::uint64_t>(BitOp::flip, 0x5, {1, 2}, {0x4, 0x4}, 0x6).empty());
}

TEST_CASE("a non-atomic add, whose updates are lost, fails the add checks", "[conform][broken]") {
  Registry registry;
  register_atomics(registry);
  // Every item of a work-group reads the word, waits at a barrier for the others, then
  // writes what it read plus its step: each group's updates but one are lost, on any device
  // (a race left to chance might not lose any on a CPU). Only the local check is sure to
  // see it: the global one launches without a work-group size, and a device that picks
  // groups of one item (Oclgrind does) then runs the racy add one item at a time.
  const char* const racy_add = R"(#define MAX_WORDS 16
#define RACY_ADD(S, space)                                  \
  T racy_add_##S(volatile space T* p, T v) {                \
    const T seen = *p;                                      \
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);    \
    *p = seen + v;                                          \
    return seen;                                            \
  }
RACY_ADD(g, global)
RACY_ADD(l, local)
)";
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      Env env(device, device.info().implementation == "oclgrind");
      env.sabotage("conform_atomics_uint.cl", "#define MAX_WORDS 16\n", racy_add);
      env.sabotage("conform_atomics_uint.cl", "X(add, A(add)(p, v))", "X(add, racy_add_##S(p, v))");
      const Result result = run_check(atomics_check(registry, "local_uint_add"), env);
      INFO(result.detail);
      CHECK(result.outcome == Outcome::fail);
      CHECK_THAT(result.detail, Catch::Matchers::Contains("atomic_add(uint, local memory)") &&
                                    Catch::Matchers::Contains("final value"));
    }
  }
}
