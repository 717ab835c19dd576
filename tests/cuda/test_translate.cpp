// The OpenCL-C-to-CUDA translation (backends/cuda/translate), without NVRTC or a GPU: the
// kernel signatures, the __local parameter rewriting, the rewritten source and the options.
#include <catch2/catch.hpp>

#include "nvrtc_library.hpp"
#include "opencl_to_cuda.hpp"

using namespace xgpu_cuda;

namespace {

// The translated text after the prelude (from the #line marker the translation writes).
std::string body_of(const Translation& t) {
  const std::size_t at = t.cuda_source.find("#line 1 \"k.cl\"");
  REQUIRE(at != std::string::npos);
  return t.cuda_source.substr(at);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// What the translation of `source` (as k.cl) says when it refuses it, or "accepted".
std::string refusal(const std::string& source) {
  try {
    translate_opencl_c(source, "k.cl");
  } catch (const TranslationError& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("signatures: qualifiers, pointers, sizes, several kernels", "[cuda][translate]") {
  const char* source = R"(
// kernel void commented_out(global int* x) {}
/* __kernel void also_commented(int a) {} */
#define REAL float
typedef struct { int a; float b; } Pair;
__kernel void first(__global const float* restrict in, global REAL* out,
                    const uint n, float4 v, Pair p, __constant int* table) {
  out[0] = in[0];
}
kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void second(
    __local   float*scratch,   // spans lines, odd spacing
    volatile __global int * counter,
    long big, half h, double3 d3) {}
)";
  const Translation t = translate_opencl_c(source, "k.cl");
  REQUIRE(t.kernels.size() == 2);
  const KernelSignature& a = t.kernels[0];
  CHECK(a.name == "first");
  REQUIRE(a.params.size() == 6);
  CHECK(a.params[0].name == "in");
  CHECK(a.params[0].type == "__global const float* restrict");
  CHECK(a.params[0].space == AddressSpace::global_);
  CHECK(a.params[0].is_pointer);
  CHECK(a.params[1].name == "out");
  CHECK(a.params[1].space == AddressSpace::global_);
  CHECK(a.params[2].name == "n");
  CHECK_FALSE(a.params[2].is_pointer);
  CHECK(a.params[2].space == AddressSpace::private_);
  CHECK(a.params[2].value_size == 4);
  CHECK(a.params[3].value_size == 16);
  CHECK(a.params[4].value_size == 0);  // a struct: unknown here
  CHECK(a.params[5].space == AddressSpace::constant_);

  const KernelSignature& b = t.kernels[1];
  CHECK(b.name == "second");
  REQUIRE(b.params.size() == 5);
  CHECK(b.params[0].name == "scratch");
  CHECK(b.params[0].space == AddressSpace::local_);
  CHECK(b.params[0].is_pointer);
  CHECK(b.params[1].name == "counter");
  CHECK(b.params[1].space == AddressSpace::global_);
  CHECK(b.params[2].value_size == 8);
  CHECK(b.params[3].value_size == 2);
  CHECK(b.params[4].value_size == 32);  // a 3-vector takes 4 components
}

TEST_CASE("signatures: macros, -D options, conditionals", "[cuda][translate]") {
  const char* source = R"(
#ifdef XGPU_T_DOUBLE
kernel void only_double(global double* x) {}
#else
kernel void not_double(global XGPU_T* x, XGPU_T scale) {}
#endif
#if defined(WIDTH) && WIDTH > 2
kernel void wide(global int* x) {}
#endif
#define OPS(T) \
  kernel void ops_##T(global const T* a, T b) { }
OPS(int)
OPS(ulong)
#define NAMED(name) kernel void name(global float* x) {}
NAMED(made_by_name)
)";
  SECTION("float, WIDTH 4") {
    const Translation t = translate_opencl_c(source, "k.cl", "-DXGPU_T=float -D WIDTH=4");
    REQUIRE(t.kernels.size() == 5);
    CHECK(t.kernels[0].name == "not_double");
    CHECK(t.kernels[0].params[1].value_size == 4);  // XGPU_T from -D
    CHECK(t.kernels[1].name == "wide");
    CHECK(t.kernels[2].name == "ops_int");
    CHECK(t.kernels[2].params[1].value_size == 4);
    CHECK(t.kernels[3].name == "ops_ulong");
    CHECK(t.kernels[3].params[1].value_size == 8);
    CHECK(t.kernels[4].name == "made_by_name");
    // -D lands after the prelude, as a #define, not as an NVRTC option.
    CHECK(contains(t.cuda_source, "#define XGPU_T float\n"));
  }
  SECTION("double, WIDTH 2") {
    const Translation t =
        translate_opencl_c(source, "k.cl", "-DXGPU_T=double -DXGPU_T_DOUBLE -DWIDTH=2");
    REQUIRE(t.kernels.size() == 4);
    CHECK(t.kernels[0].name == "only_double");
    CHECK(t.kernels[1].name == "ops_int");
  }
}

TEST_CASE("half: cl_khr_fp16 where the target has it, half literals", "[cuda][translate]") {
  const char* source = R"(
#ifdef cl_khr_fp16
kernel void with_half(global half* x, half2 scale) { x[0] = x[1] * 1.5h + 2.H + 1e-3h; }
#endif
kernel void always(global half* x) { x[0] = x[0]; }
)";
  SECTION("sm_53 and above") {
    const Translation t = translate_opencl_c(source, "k.cl", "", true);
    REQUIRE(t.kernels.size() == 2);
    CHECK(t.kernels[0].name == "with_half");
    CHECK(t.kernels[0].params[1].value_size == 4);
    CHECK(contains(t.cuda_source, "x[1] * ((half)1.5f) + ((half)2.f) + ((half)1e-3f);"));
  }
  SECTION("below sm_53 the conditional drops the kernel, as the prelude does") {
    const Translation t = translate_opencl_c(source, "k.cl", "", false);
    REQUIRE(t.kernels.size() == 1);
    CHECK(t.kernels[0].name == "always");
  }
  SECTION("-U cl_khr_fp16 wins") {
    CHECK(translate_opencl_c(source, "k.cl", "-Ucl_khr_fp16", true).kernels.size() == 1);
  }
}

TEST_CASE("__local pointer parameters become offsets into dynamic shared memory",
          "[cuda][translate]") {
  const Translation t = translate_opencl_c(
      "kernel void k(global float* x, local float4* a, uint n, __local int* b) { a[0] = 1; }",
      "k.cl");
  const std::string body = body_of(t);
  CHECK(contains(body, "unsigned int xcl_local_a"));
  CHECK(contains(body, "unsigned int xcl_local_b"));
  CHECK(contains(body, "xcl_dynamic_local + xcl_local_a"));
  CHECK(contains(body, "xcl_dynamic_local + xcl_local_b"));
  // The hidden launch parameter comes last, and the kernel copies it first.
  CHECK(contains(body, ", xgpu_cuda_launch_info xcl_launch_param)"));
  CHECK(contains(body, "{ xcl_enter(xcl_launch_param);"));
  CHECK(contains(body, "extern \"C\" __global__ void k("));
  REQUIRE(t.kernels[0].params.size() == 4);  // the signature keeps the OpenCL parameters
}

TEST_CASE("local variables, constants, swizzles, vector literals", "[cuda][translate]") {
  const char* source = R"(
constant float table[2] = {1.0f, 2.0f};
typedef struct { float lo; int hi; } Range;
float helper(local float* p, Range r) { return p[0] + r.lo + r.hi; }
kernel void k(global float4* x) {
  local float tile[64];
  __local int count;
  local float* view = tile;
  float4 v = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
  float2 w = v.xy + v.s23 + v.lo + v.odd;
  float s = v.x + v.s3 + v.S1;
  int2 cast = (int2)(7);
  x[0] = v;
}
)";
  const std::string body = body_of(translate_opencl_c(source, "k.cl"));
  CHECK(contains(body, "__constant__ const float table[2]"));
  CHECK(contains(body, "__shared__ float tile[64];"));
  CHECK(contains(body, "__shared__ int count;"));
  CHECK(contains(body, "__local float* view = tile;"));  // a pointer: no __shared__
  CHECK(contains(body, "float helper(__local float* p, Range r)"));
  CHECK(contains(body, "r.lo + r.hi"));  // struct members, not swizzles
  CHECK(contains(body, "float4(1.0f, 2.0f, 3.0f, 4.0f)"));
  // `lo` and `hi` are members of Range here, so `.lo` stays a member access (on a vector it
  // then fails to compile, never silently); `.odd` is no member name and is a swizzle.
  CHECK(contains(body, "v.sw<0,1>() + v.sw<2,3>() + v.lo + v.odd_()"));
  CHECK(contains(body, "v.x + v.s3 + v.s1"));
  CHECK(contains(body, "int2(7)"));  // a vector type: the constructor broadcasts
}

TEST_CASE("swizzles and literals without struct members in the way", "[cuda][translate]") {
  const std::string body = body_of(translate_opencl_c(
      "#define VEC float4\n"
      "kernel void k(global float* x) { float4 v = (VEC)(1.0f, 2.0f, x[0], x[1]);\n"
      "  float2 h = v.hi + v.even; v.lo = h; float s = (float)(x[2]); if (s) (void)0; }",
      "k.cl"));
  CHECK(contains(body, "VEC(1.0f, 2.0f, x[0], x[1])"));  // a macro type with a comma inside
  CHECK(contains(body, "v.hi_() + v.even_(); v.lo_() = h;"));
  CHECK(contains(body, "(float)(x[2])"));  // one value, a scalar type: a cast stays a cast
  CHECK(contains(body, "if (s) (void)0;"));
}

TEST_CASE("unsupported features are refused with their name and line", "[cuda][translate]") {
  auto refusal = [](const char* source) {
    try {
      translate_opencl_c(source, "k.cl");
    } catch (const TranslationError& e) {
      return std::to_string(e.line()) + " " + e.message();
    }
    return std::string("accepted");
  };
  CHECK(contains(refusal("kernel void k(\n  read_only image2d_t img) {}"), "2 images (image2d_t)"));
  CHECK(
      contains(refusal("\n\nkernel void k(global float* x) {\n x[0] = sub_group_reduce_add(1); }"),
               "4 sub-groups (sub_group_reduce_add)"));
  CHECK(contains(refusal("kernel void k(global int* x) { atomic_fetch_add(x, 1); }"),
                 "OpenCL 2.0 atomics"));
  CHECK(contains(refusal("kernel void k(sampler_t s) {}"), "images (sampler_t)"));
  // Inside a branch the conditionals drop, a feature is fine.
  CHECK(refusal("#ifdef cl_khr_subgroups\nvoid f() { sub_group_barrier(0); }\n#endif\n"
                "kernel void k(global int* x) {}") == "accepted");
  // printf exists in CUDA.
  CHECK(refusal("kernel void k() { printf(\"%d\\n\", 1); }") == "accepted");
  // The full message names the file and line.
  try {
    translate_opencl_c("kernel void k(image3d_t i) {}", "input.cl");
    FAIL("accepted");
  } catch (const TranslationError& e) {
    CHECK(std::string(e.what()) ==
          "input.cl:1: images (image3d_t) is not supported by the CUDA "
          "module's OpenCL C prelude");
  }
}

TEST_CASE("build options map to NVRTC's, never fast math unasked", "[cuda][translate]") {
  auto has = [](const std::vector<std::string>& options, const std::string& o) {
    return std::find(options.begin(), options.end(), o) != options.end();
  };
  const auto plain = nvrtc_options("-DN=4 -D M=2 -I /inc -Ifolder -cl-std=CL1.2 -w", 9, 0);
  CHECK(has(plain, "--gpu-architecture=compute_90"));
  CHECK(has(plain, "-default-device"));
  CHECK(has(plain, "-I/inc"));
  CHECK(has(plain, "-Ifolder"));
  CHECK(has(plain, "-w"));
  CHECK_FALSE(has(plain, "-DN=4"));  // in the source instead
  CHECK_FALSE(has(plain, "--use_fast_math"));
  CHECK(has(nvrtc_options("-cl-fast-relaxed-math", 8, 0), "--use_fast_math"));
  CHECK(has(nvrtc_options("-cl-mad-enable -cl-no-signed-zeros", 8, 0), "--fmad=true"));
  CHECK_FALSE(has(nvrtc_options("-cl-mad-enable -cl-finite-math-only", 8, 0), "--use_fast_math"));
  CHECK_THROWS_WITH(nvrtc_options("-cl-made-up-flag", 8, 0),
                    Catch::Contains("-cl-made-up-flag has no CUDA equivalent"));
  CHECK_THROWS_WITH(nvrtc_options("--frobnicate", 8, 0),
                    Catch::Contains("unknown build option --frobnicate"));
  CHECK_THROWS_WITH(nvrtc_options("-D", 8, 0), Catch::Contains("-D needs a value"));
}

// The kernel cache keys on the platform version, which carries this fingerprint: PTX made by
// another NVRTC must miss. Two NVRTCs stand in as tables whose nvrtcVersion differs.
TEST_CASE("the cache fingerprint changes with the NVRTC version", "[cuda][translate]") {
  NvrtcLibrary nvrtc_12_4, nvrtc_13_0, absent;
  nvrtc_12_4.loaded = nvrtc_13_0.loaded = true;
  nvrtc_12_4.version = [](int* major, int* minor) { return *major = 12, *minor = 4, 0; };
  nvrtc_13_0.version = [](int* major, int* minor) { return *major = 13, *minor = 0, 0; };
  const std::string old_key = translation_fingerprint(nvrtc_12_4),
                    new_key = translation_fingerprint(nvrtc_13_0);
  CHECK(contains(old_key, ", NVRTC 12.4"));
  CHECK(contains(new_key, ", NVRTC 13.0"));
  CHECK(old_key != new_key);
  CHECK(contains(translation_fingerprint(absent), ", no NVRTC"));
  // The same prelude either way: only the NVRTC part differs.
  CHECK(old_key.substr(0, old_key.find(',')) == new_key.substr(0, new_key.find(',')));
  CHECK(translation_fingerprint(nvrtc_12_4) == old_key);  // stable
}

// Found by fuzzing (tests/fuzz/fuzz_opencl_translate.cpp) and while writing its target: the
// #if evaluator's arithmetic overflowed (undefined in C++), deep nesting overflowed the stack,
// macros that repeat a macro expanded exponentially (a hang), and std::regex overflowed the
// stack on a long swizzle name.
TEST_CASE("#if arithmetic wraps as the compilers' does; what cannot be evaluated is refused",
          "[cuda][translate]") {
  auto kernels = [](const std::string& source) {
    std::string names;
    for (const KernelSignature& k : translate_opencl_c(source, "k.cl").kernels) names += k.name;
    return names;
  };
  CHECK(kernels("#if (9223372036854775807 + 1) < 0\nkernel void a() {}\n#endif\n"
                "#if 1 << 64\nkernel void b() {}\n#endif\n"
                "#if (-9223372036854775807 - 1) / -1 < 0\nkernel void c() {}\n#endif\n"
                "#if -(-9223372036854775807 - 1) < 0 && 3037000500 * 3037000500 < 0\n"
                "kernel void d() {}\n#endif\n"
                "#if (-1 << 3) == -8 && (-8 >> 1) == -4 && (1 >> -1) == 0\n"
                "kernel void e() {}\n#endif\n") == "acde");
  const std::string deep = std::string(100000, '(') + "1" + std::string(100000, ')');
  CHECK(refusal("\n#if " + deep + "\nkernel void k() {}\n#endif\n") ==
        "k.cl:2: this #if cannot be evaluated: it nests deeper than 256 levels");
  std::string repeated = "#define A0 1\n";  // A15 is 4^15 words
  for (int i = 1; i < 16; ++i)
    repeated += "#define A" + std::to_string(i) + " A" + std::to_string(i - 1) + " A" +
                std::to_string(i - 1) + " A" + std::to_string(i - 1) + " A" +
                std::to_string(i - 1) + "\n";
  CHECK(refusal(repeated + "#if 0\n#elif A15\n#endif\n") ==
        "k.cl:18: this #elif cannot be evaluated: its macros expand to more than 65536 words");
  // As a parameter's type, such a macro has no size that the translation knows.
  const Translation t = translate_opencl_c(repeated + "kernel void k(A15 x) {}\n", "k.cl");
  REQUIRE(t.kernels.size() == 1);
  CHECK(t.kernels[0].params[0].value_size == 0);
  // A selector too long to be a swizzle is left for NVRTC to refuse.
  const std::string name = "s" + std::string(100000, '0');
  CHECK(contains(body_of(translate_opencl_c(
                     "kernel void k(global float4* x) { x[0]." + name + " = 1; }", "k.cl")),
                 "x[0]." + name + " = 1;"));
}

// Found by fuzzing: an empty parameter was refused on "line 0", and a line continuation inside
// a string literal was not counted, so every later refusal named the line before its own.
TEST_CASE("every refusal names the line it is on", "[cuda][translate]") {
  CHECK(refusal("\nkernel void f(int a,\n) {}") == "k.cl:2: an empty kernel parameter");
  // In a macro: where it is written.
  CHECK(refusal("#define K(T) kernel void k_##T(global T* a, ) {}\n\nK(float)\n") ==
        "k.cl:1: an empty kernel parameter");
  CHECK(contains(refusal("constant char s[] = \"a\\\nb\";\nkernel void k(image2d_t i) {}"),
                 "k.cl:3: images (image2d_t)"));
}
