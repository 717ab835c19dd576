// Everything a user can get wrong gives an xgpu::Error that names the mistake, and leaves
// the device's memory as it was: kernels, builds, arguments, ranges, transfers, contexts.
#include <limits>

#include "test_support.hpp"

using xgpu_test::capture_error;
using xgpu_test::check_error;

namespace {

const char* const kScale =
    "kernel void scale(float factor, global const float* input, global float* output) {\n"
    "  output[get_global_id(0)] = factor * input[get_global_id(0)];\n"
    "}\n";

}  // namespace

TEST_CASE("unknown kernel names list the kernels there are", "[errors]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Program program = context.build({"scale.cl", kScale});
      check_error(capture_error([&] { program.kernel("scael"); }), xgpu::Errc::unknown_kernel,
                  {"'scael': did you mean 'scale'?", "its kernels are: scale"});
    }
  }
}

TEST_CASE("a kernel with a syntax error names its file and line", "[errors]") {
  const xgpu::Source bad{"bad.cl",
                         "kernel void broken(global int* out) {\n"
                         "  int fine = 1;\n"
                         "  out[0] = fine + undeclared_name;\n"
                         "}\n"};
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      const xgpu::Error error = capture_error([&] { context.build(bad, "-DMARKER=1"); });
      check_error(error, xgpu::Errc::build_failed, {"bad.cl:3", "undeclared_name"});
      CHECK_FALSE(error.build_log().empty());
      CHECK_THAT(error.build_log(), Catch::Matchers::Contains("bad.cl:3"));
      CHECK_THAT(error.build_options(), Catch::Matchers::Contains("-DMARKER=1"));
      CHECK_FALSE(error.device().empty());

      // A mistake inside an included header names the header and its own line.
      const xgpu::Source user{"user.cl",
                              "#include \"broken.h\"\n"
                              "kernel void k(global int* out) { out[0] = helper(); }\n"};
      const xgpu::Error in_header = capture_error([&] {
        context.build(user, "", {{"broken.h", "// a helper\nint helper() { return nope; }\n"}});
      });
      check_error(in_header, xgpu::Errc::build_failed, {"broken.h:2"});

      check_error(capture_error([&] {
                    context.build({"missing.cl", "#include \"not_there.h\"\n"});
                  }),
                  xgpu::Errc::unknown_source, {"not_there.h"});
    }
  }
}

TEST_CASE("wrong argument counts and types name the kernel and the argument", "[errors]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      xgpu::Kernel scale = context.build({"scale.cl", kScale}).kernel("scale");
      xgpu::Buffer<float> input = context.alloc<float>(4), output = context.alloc<float>(4);
      xgpu::Buffer<int> ints = context.alloc<int>(4);
      queue.fill(input, 1.0f);
      queue.fill(output, -1.0f);
      const xgpu::Range range{4};

      check_error(capture_error([&] { queue.launch(scale, range, 2.0f, input); }),
                  xgpu::Errc::argument_count, {"scale", "3", "2"});
      check_error(capture_error([&] { queue.launch(scale, range, 2.0f, input, output, 1); }),
                  xgpu::Errc::argument_count, {"scale", "3", "4"});
      check_error(capture_error([&] { queue.launch(scale, range, 2.0f, input, ints); }),
                  xgpu::Errc::argument_type, {"scale", "2", "output", "int", "float"});
      check_error(capture_error([&] { queue.launch(scale, range, 2.0, input, output); }),
                  xgpu::Errc::argument_type, {"scale", "0", "factor", "double"});
      check_error(capture_error([&] { queue.launch(scale, range, input, input, output); }),
                  xgpu::Errc::argument_type, {"scale", "factor"});
      check_error(capture_error([&] { queue.launch(scale, range, 2.0f, 1.0f, output); }),
                  xgpu::Errc::argument_type, {"scale", "input"});
      check_error(
          capture_error([&] { queue.launch(scale, range, 2.0f, input, xgpu::Local<float>(4)); }),
          xgpu::Errc::argument_type, {"scale", "output"});
      xgpu::Kernel stage = context
                               .build({"stage.cl",
                                       "kernel void stage(local float* scratch, global float* out)"
                                       " { scratch[0] = 1; out[0] = scratch[0]; }\n"})
                               .kernel("stage");
      check_error(capture_error(
                      [&] { queue.launch(stage, xgpu::Range{1}, xgpu::Local<float>(0), output); }),
                  xgpu::Errc::argument_type, {"stage", "scratch"});
      check_error(capture_error([&] { queue.launch(stage, xgpu::Range{1}, input, output); }),
                  xgpu::Errc::argument_type, {"stage", "scratch", "Local"});
      // Nothing was enqueued by any of them.
      CHECK(queue.read(output) == std::vector<float>(4, -1.0f));
    }
  }
}

TEST_CASE("transfers past a buffer's end are refused and change nothing", "[errors]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      const std::size_t n = 64;
      xgpu::Buffer<int> buffer = context.alloc<int>(n), other = context.alloc<int>(n);
      queue.fill(buffer, 7);
      queue.fill(other, 8);
      std::vector<int> host(2 * n, 1);
      const std::vector<int> sevens(n, 7), eights(n, 8);

      check_error(capture_error([&] { queue.write(buffer, host.data(), 10, 60); }),
                  xgpu::Errc::out_of_range, {"64"});
      check_error(capture_error([&] { queue.write(buffer, host); }), xgpu::Errc::out_of_range);
      check_error(capture_error([&] { queue.read(buffer, host.data(), n + 1); }),
                  xgpu::Errc::out_of_range, {"65"});
      check_error(capture_error([&] { queue.read(buffer, host.data(), 1, n); }),
                  xgpu::Errc::out_of_range);
      check_error(capture_error([&] { queue.copy(buffer, other, 8, 60, 0); }),
                  xgpu::Errc::out_of_range);
      check_error(capture_error([&] { queue.copy(buffer, other, 8, 0, 60); }),
                  xgpu::Errc::out_of_range);
      check_error(capture_error([&] { queue.fill(buffer, 3, 5, 62); }), xgpu::Errc::out_of_range);
      check_error(capture_error([&] { queue.map(buffer, 65); }), xgpu::Errc::out_of_range);
      // A count and offset whose sum wraps around is still past the end.
      check_error(capture_error([&] {
                    queue.read(buffer, host.data(), std::numeric_limits<std::size_t>::max() - 1, 4);
                  }),
                  xgpu::Errc::out_of_range);
      check_error(capture_error([&] {
                    queue.copy(buffer, other, 2, std::numeric_limits<std::size_t>::max() - 1, 0);
                  }),
                  xgpu::Errc::out_of_range);
      CHECK(host == std::vector<int>(2 * n, 1));
      CHECK(queue.read(buffer) == sevens);
      CHECK(queue.read(other) == eights);
    }
  }
}

TEST_CASE("objects of another context are refused", "[errors]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context mine(device), theirs(device);
      xgpu::Queue queue = mine.queue();
      xgpu::Buffer<float> foreign = theirs.alloc<float>(4);
      xgpu::Buffer<float> input = mine.alloc<float>(4), output = mine.alloc<float>(4);
      queue.fill(input, 1.0f);
      queue.fill(output, -1.0f);
      std::vector<float> host(4, 0.0f);

      check_error(capture_error([&] { queue.write(foreign, host); }), xgpu::Errc::context_mismatch);
      check_error(capture_error([&] { queue.read(foreign, host.data()); }),
                  xgpu::Errc::context_mismatch);
      check_error(capture_error([&] { queue.copy(input, foreign); }), xgpu::Errc::context_mismatch);
      check_error(capture_error([&] { queue.fill(foreign, 1.0f); }), xgpu::Errc::context_mismatch);
      check_error(capture_error([&] { queue.map(foreign); }), xgpu::Errc::context_mismatch);

      xgpu::Kernel scale = mine.build({"scale.cl", kScale}).kernel("scale");
      check_error(
          capture_error([&] { queue.launch(scale, xgpu::Range{4}, 2.0f, foreign, output); }),
          xgpu::Errc::context_mismatch, {"scale", "argument 1"});
      xgpu::Kernel their_scale = theirs.build({"scale.cl", kScale}).kernel("scale");
      check_error(
          capture_error([&] { queue.launch(their_scale, xgpu::Range{4}, 2.0f, input, output); }),
          xgpu::Errc::context_mismatch, {"scale"});
      CHECK(queue.read(output) == std::vector<float>(4, -1.0f));
    }
  }
}

TEST_CASE("allocations larger than the device allows", "[errors]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      const std::uint64_t limit = device.info().max_allocation;
      const xgpu::Error error = capture_error([&] { context.alloc<char>(limit + 1); });
      check_error(error, xgpu::Errc::allocation_too_large,
                  {std::to_string(limit + 1), device.info().name});
      // A count whose size in bytes overflows is refused too, not wrapped to something small.
      check_error(capture_error(
                      [&] { context.alloc<double>(std::numeric_limits<std::size_t>::max() / 4); }),
                  xgpu::Errc::allocation_too_large);
    }
  }
}

TEST_CASE("malformed launch ranges", "[errors]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      xgpu::Kernel scale = context.build({"scale.cl", kScale}).kernel("scale");
      xgpu::Buffer<float> input = context.alloc<float>(64), output = context.alloc<float>(64);
      queue.fill(output, -1.0f);
      auto launch = [&](const xgpu::Launch& how) {
        return capture_error([&] { queue.launch(scale, how, 2.0f, input, output); });
      };
      check_error(launch(xgpu::Launch(xgpu::Range{10}).local(xgpu::Range{4})),
                  xgpu::Errc::invalid_range, {"10", "4"});
      check_error(launch(xgpu::Launch(xgpu::Range{8}).local(xgpu::Range{0})),
                  xgpu::Errc::invalid_range);
      check_error(launch(xgpu::Launch(xgpu::Range{8, 8}).local(xgpu::Range{4})),
                  xgpu::Errc::invalid_range, {"scale"});
      check_error(launch(xgpu::Launch(xgpu::Range{8}).offset(xgpu::Range{1, 1})),
                  xgpu::Errc::invalid_range);
      const std::size_t too_big = device.info().max_work_group_size * 2;
      check_error(launch(xgpu::Launch(xgpu::Range{too_big}).local(xgpu::Range{too_big})),
                  xgpu::Errc::invalid_range);
      // An empty range is valid and runs nothing, as an empty buffer is.
      xgpu::Event nothing = queue.launch(scale, xgpu::Range{8, 0}, 2.0f, input, output);
      nothing.wait();
      CHECK(nothing.status() == xgpu::EventStatus::complete);
      CHECK(queue.read(output) == std::vector<float>(64, -1.0f));
    }
  }
}

TEST_CASE("empty handles are refused and never dereferenced", "[errors]") {
  check_error(capture_error([] { xgpu::Device().info(); }), xgpu::Errc::invalid_handle);
  check_error(capture_error([] { xgpu::Context{xgpu::Device()}; }), xgpu::Errc::invalid_handle);
  const xgpu::Context context;
  check_error(capture_error([&] { context.queue(); }), xgpu::Errc::invalid_handle);
  check_error(capture_error([&] { context.alloc<float>(4); }), xgpu::Errc::invalid_handle);
  check_error(capture_error([&] {
                context.build({"k.cl", "kernel void k() {}"});
              }),
              xgpu::Errc::invalid_handle);
  check_error(capture_error([] { xgpu::Program().kernel("k"); }), xgpu::Errc::invalid_handle);
  check_error(capture_error([] { xgpu::Kernel().name(); }), xgpu::Errc::invalid_handle);
  // An empty Event stands for a command that had nothing to do: complete, no timestamps.
  xgpu::Event().wait();
  CHECK(xgpu::Event().status() == xgpu::EventStatus::complete);
  check_error(capture_error([] { xgpu::Event().profile(); }), xgpu::Errc::invalid_handle);
  xgpu::Queue empty_queue;
  check_error(capture_error([&] { empty_queue.finish(); }), xgpu::Errc::invalid_handle);
  std::vector<float> host(4);
  xgpu::Buffer<float> no_buffer;
  check_error(capture_error([&] { empty_queue.read(no_buffer, host.data(), 0); }),
              xgpu::Errc::invalid_handle);

  // A real queue given empty kernels and buffers.
  xgpu::Context real(xgpu::select("pocl"));
  xgpu::Queue queue = real.queue();
  check_error(capture_error([&] { queue.launch(xgpu::Kernel(), xgpu::Range{1}); }),
              xgpu::Errc::invalid_handle);
}

TEST_CASE("unknown embedded sources and log levels", "[errors]") {
  check_error(capture_error([] { xgpu::kernels::source("no_such_file.cl"); }),
              xgpu::Errc::unknown_source, {"no_such_file.cl"});
  check_error(capture_error([] { xgpu::kernels::source("reduse.cl"); }), xgpu::Errc::unknown_source,
              {"did you mean 'reduce.cl'?"});
  check_error(capture_error([] { xgpu::set_log_level("loud"); }), xgpu::Errc::invalid_argument,
              {"loud"});
  xgpu::set_log_level("warn");
}

TEST_CASE("errors carry their parts and accumulate context", "[errors]") {
  const xgpu::Error error =
      capture_error([] { xgpu::select("nvidai"); }).with_context("while choosing a device");
  CHECK(error.code() == xgpu::Errc::invalid_selector);
  CHECK_THAT(std::string(error.what()), Catch::Matchers::Contains("while choosing a device"));
  CHECK_THAT(std::string(error.what()), Catch::Matchers::Contains("nvidai"));
  CHECK_FALSE(error.message().empty());
  CHECK(std::string(xgpu::errc_name(xgpu::Errc::argument_type)) == "argument_type");
  CHECK(std::string(xgpu::errc_name(xgpu::Errc::out_of_range)) == "out_of_range");
}
