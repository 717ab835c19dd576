// The compiler suite: a syntax error fails with a log naming the right line, -D and
// #include through headers work, and several threads may build at once.
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "check.hpp"

namespace xgpu::conform {
namespace {

// A nonce keeps the kernel cache from answering: these checks are about the compiler.
std::string nonce() {
  static std::mt19937_64 random(std::random_device{}());
  return "// nonce " + std::to_string(random()) + "\n";
}

Result syntax_error(Env& env) {
  const std::string text = nonce() +
                           "kernel void broken(global int* out) {\n"  // line 2
                           "  out[0] = 1;\n"                          // line 3
                           "  out[1] = 2 +;\n"                        // line 4: the error
                           "}\n";
  try {
    env.context().build(Source{"broken.cl", text});
  } catch (const Error& e) {
    if (e.code() != Errc::build_failed)
      return fail_expected("error kind", "build_failed", errc_name(e.code()));
    if (e.build_log().empty()) return fail("expected a non-empty build log, got an empty one");
    const std::string where = std::string(e.what()) + "\n" + e.build_log();
    if (where.find(":4:") == std::string::npos)
      return fail_expected("log", "the mistake's line \":4:\"", e.build_log());
    return pass();
  }
  return fail("expected the build to fail, got a program");
}

Result run_value(Env& env, const Program& program, int& value) {
  Buffer<int> out = env.context().alloc<int>(1);
  env.queue().launch(program.kernel("value"), Range{1}, out);
  env.queue().read(out, &value);
  return pass();
}

Result defines(Env& env) {
  const std::string text = nonce() + "kernel void value(global int* out) { out[0] = VALUE * 2; }\n";
  int got = 0;
  run_value(env, env.context().build(Source{"define.cl", text}, "-DVALUE=21"), got);
  if (got != 42) return fail_expected("-DVALUE=21, VALUE * 2", 42, got);
  return pass();
}

Result includes(Env& env) {
  const std::string text = nonce() +
                           "#include \"conform_values.h\"\n"
                           "kernel void value(global int* out) { out[0] = FROM_HEADER + 1; }\n";
  int got = 0;
  run_value(env,
            env.context().build(Source{"include.cl", text}, {},
                                {Source{"conform_values.h", "#define FROM_HEADER 99\n"}}),
            got);
  if (got != 100) return fail_expected("#include \"conform_values.h\", FROM_HEADER + 1", 100, got);
  return pass();
}

Result threaded_builds(Env& env) {
  const int count = env.quick() ? 2 : 4;
  std::vector<int> results(count, -1);
  std::vector<std::string> errors(count);
  std::vector<std::thread> threads;
  const std::string base = nonce();
  for (int t = 0; t < count; ++t) {
    threads.emplace_back([&, t] {
      try {
        const std::string text =
            base + "kernel void value(global int* out) { out[0] = " + std::to_string(t * 11) +
            "; }\n";
        Program program = env.context().build(Source{"thread.cl", text});
        Queue queue = env.context().queue();
        Buffer<int> out = env.context().alloc<int>(1);
        queue.launch(program.kernel("value"), Range{1}, out);
        queue.read(out, &results[t]);
      } catch (const std::exception& e) {
        errors[t] = e.what();
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < count; ++t) {
    if (!errors[t].empty()) return fail("thread " + std::to_string(t) + ": " + errors[t]);
    if (results[t] != t * 11)
      return fail_expected("thread " + std::to_string(t), t * 11, results[t]);
  }
  return pass();
}

}  // namespace

void register_compiler(Registry& registry) {
  registry.add("compiler", "syntax_error_log_line", "", syntax_error);
  registry.add("compiler", "define_option", "", defines);
  registry.add("compiler", "include_header", "", includes);
  registry.add("compiler", "builds_from_threads", "", threaded_builds);
}

}  // namespace xgpu::conform
