// The algorithms library on the buffers of xgpu.Array: element-wise arithmetic and math,
// reductions, GEMM, transpose, softmax, sort and scans, each on the operation's stream. Types
// are checked before the GIL is released (a NotImplementedError needs it); each call then runs
// without it (the first use of an operation builds its kernels, and reductions wait).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>

#include <xgpu/algorithms.hpp>

#include "common.hpp"
#include "streams.hpp"

namespace xgpu_python {
namespace {

// What the element-wise operations and the reductions take; transposes and scans take the same
// less bfloat16, softmax the floating types less bfloat16.
constexpr const char* kElementwiseTypes = "float16, bfloat16, float32, float64, int32 and uint32";
constexpr const char* kAlgorithmTypes = "float16, float32, float64, int32 and uint32";
constexpr const char* kFloatingTypes = "float16, bfloat16, float32 and float64";

template <class T>
constexpr bool is_floating_v = xgpu::is_floating_algorithm_type_v<T>;
template <class T>
constexpr bool is_elementwise_v = xgpu::is_elementwise_type_v<T>;
template <class T>
constexpr bool is_softmax_v = is_floating_v<T> && !std::is_same_v<T, xgpu::bfloat16>;

// Raises NotImplementedError unless every buffer holds an element type `allowed` accepts.
template <class Allowed>
void require(const char* operation, DType dtype, const char* types, Allowed allowed) {
  const bool ok =
      dtype != DType::bool_ && with_storage(dtype, [&](auto tag) { return allowed(tag); });
  if (!ok) {
    not_implemented(std::string("xgpu: ") + operation + " on " + dtype_name(dtype) +
                    " arrays is not supported; it takes " + types);
  }
}

auto algorithm_types = [](auto tag) {
  return xgpu::is_algorithm_type_v<typename decltype(tag)::type>;
};
auto elementwise_types = [](auto tag) { return is_elementwise_v<typename decltype(tag)::type>; };
auto softmax_types = [](auto tag) { return is_softmax_v<typename decltype(tag)::type>; };
auto floating_types = [](auto tag) { return is_floating_v<typename decltype(tag)::type>; };
auto sort_types = [](auto tag) { return xgpu::is_sort_type_v<typename decltype(tag)::type>; };
auto gemm_types = [](auto tag) { return xgpu::is_gemm_type_v<typename decltype(tag)::type>; };

template <class T>
const xgpu::Buffer<T>& typed(const DeviceBuffer& buffer) {
  return std::get<xgpu::Buffer<T>>(buffer.buffer);
}

void require_same_type(const DeviceBuffer& a, const DeviceBuffer& b) {
  if (a.buffer.index() != b.buffer.index()) {
    throw nb::type_error((std::string("xgpu: arrays of ") + dtype_name(a.dtype) + " and " +
                          dtype_name(b.dtype) + " in one operation (convert with astype)")
                             .c_str());
  }
}

enum class Op { add, sub, mul, div };

Op binary_op(const std::string& name) {
  if (name == "add") return Op::add;
  if (name == "sub") return Op::sub;
  if (name == "mul") return Op::mul;
  if (name == "div") return Op::div;
  throw nb::value_error(("xgpu: unknown operation " + name).c_str());
}

PyEvent binary(const std::string& name, const BufferPtr& a, const BufferPtr& b,
               const BufferPtr& out, const std::optional<StreamPtr>& given) {
  require(name.c_str(), a->dtype, kElementwiseTypes, elementwise_types);
  require_same_type(*a, *b);
  require_same_type(*a, *out);
  const auto op = binary_op(name);
  StreamPtr stream = stream_for(*out, given ? *given : nullptr);
  nb::gil_scoped_release release;
  return with_storage(a->dtype, [&](auto tag) -> PyEvent {
    using T = typename decltype(tag)::type;
    if constexpr (is_elementwise_v<T>) {
      xgpu::Queue& q = stream->queue();
      const auto &x = typed<T>(*a), &y = typed<T>(*b), &z = typed<T>(*out);
      xgpu::Event e = op == Op::add   ? xgpu::add(q, x, y, z)
                      : op == Op::sub ? xgpu::sub(q, x, y, z)
                      : op == Op::mul ? xgpu::mul(q, x, y, z)
                                      : xgpu::div(q, x, y, z);
      return PyEvent{std::move(e), stream->device_index()};
    } else {
      return PyEvent{};
    }
  });
}

PyEvent unary(const std::string& name, const BufferPtr& in, const BufferPtr& out,
              const std::optional<StreamPtr>& given) {
  const bool math = name != "abs" && name != "relu";
  if (math)
    require(name.c_str(), in->dtype, kFloatingTypes, floating_types);
  else
    require(name.c_str(), in->dtype, kElementwiseTypes, elementwise_types);
  require_same_type(*in, *out);
  if (name != "abs" && name != "relu" && name != "exp" && name != "log" && name != "sqrt" &&
      name != "sigmoid" && name != "tanh")
    throw nb::value_error(("xgpu: unknown operation " + name).c_str());
  StreamPtr stream = stream_for(*out, given ? *given : nullptr);
  nb::gil_scoped_release release;
  return with_storage(in->dtype, [&](auto tag) -> PyEvent {
    using T = typename decltype(tag)::type;
    xgpu::Queue& q = stream->queue();
    xgpu::Event e;
    if constexpr (is_elementwise_v<T>) {
      const auto &x = typed<T>(*in), &y = typed<T>(*out);
      if (name == "abs") e = xgpu::abs(q, x, y);
      if (name == "relu") e = xgpu::relu(q, x, y);
      if constexpr (is_floating_v<T>) {
        if (name == "exp") e = xgpu::exp(q, x, y);
        if (name == "log") e = xgpu::log(q, x, y);
        if (name == "sqrt") e = xgpu::sqrt(q, x, y);
        if (name == "sigmoid") e = xgpu::sigmoid(q, x, y);
        if (name == "tanh") e = xgpu::tanh(q, x, y);
      }
    }
    return PyEvent{std::move(e), stream->device_index()};
  });
}

// x = a * x, or y = a * x + y: the scalar as the type's scalar (float for half).
PyEvent scale(const BufferPtr& x, double a, const std::optional<StreamPtr>& given) {
  require("scale", x->dtype, kElementwiseTypes, elementwise_types);
  StreamPtr stream = stream_for(*x, given ? *given : nullptr);
  nb::gil_scoped_release release;
  return with_storage(x->dtype, [&](auto tag) -> PyEvent {
    using T = typename decltype(tag)::type;
    if constexpr (is_elementwise_v<T>) {
      return PyEvent{xgpu::scale(stream->queue(), static_cast<xgpu::scalar_t<T>>(a), typed<T>(*x)),
                     stream->device_index()};
    } else {
      return PyEvent{};
    }
  });
}

// A reduction to one value, as a Python number: sum, min, max, argmin, argmax, norm.
nb::object reduce(const std::string& kind, const BufferPtr& x,
                  const std::optional<StreamPtr>& given) {
  if (kind == "norm")
    require(kind.c_str(), x->dtype, kFloatingTypes, floating_types);
  else
    require(kind.c_str(), x->dtype, kElementwiseTypes, elementwise_types);
  StreamPtr stream = stream_for(*x, given ? *given : nullptr);
  return with_storage(x->dtype, [&](auto tag) -> nb::object {
    using T = typename decltype(tag)::type;
    if constexpr (is_elementwise_v<T>) {
      using S = xgpu::scalar_t<T>;
      S value{};
      std::size_t index = 0;
      {
        nb::gil_scoped_release release;
        xgpu::Queue& q = stream->queue();
        const auto& b = typed<T>(*x);
        if (kind == "sum")
          value = xgpu::sum(q, b);
        else if (kind == "min")
          value = xgpu::min(q, b);
        else if (kind == "max")
          value = xgpu::max(q, b);
        else if (kind == "argmin")
          index = xgpu::argmin(q, b);
        else if (kind == "argmax")
          index = xgpu::argmax(q, b);
        else if (kind == "norm") {
          if constexpr (is_floating_v<T>) value = xgpu::norm2(q, b);
        }
      }
      if (kind == "argmin" || kind == "argmax") return nb::cast(index);
      if (kind != "sum" && kind != "min" && kind != "max" && kind != "norm")
        throw nb::value_error(("xgpu: unknown reduction " + kind).c_str());
      return nb::cast(value);
    } else {
      return nb::none();
    }
  });
}

nb::object dot(const BufferPtr& x, const BufferPtr& y, const std::optional<StreamPtr>& given) {
  require("dot", x->dtype, kElementwiseTypes, elementwise_types);
  require_same_type(*x, *y);
  StreamPtr stream = stream_for(*x, given ? *given : nullptr);
  return with_storage(x->dtype, [&](auto tag) -> nb::object {
    using T = typename decltype(tag)::type;
    if constexpr (is_elementwise_v<T>) {
      xgpu::scalar_t<T> value{};
      {
        nb::gil_scoped_release release;
        value = xgpu::dot(stream->queue(), typed<T>(*x), typed<T>(*y));
      }
      return nb::cast(value);
    } else {
      return nb::none();
    }
  });
}

// C = op(A) op(B): A, B and C of one type, or (mixed precision) A and B of float16 or bfloat16
// and C of float32, accumulated in float.
PyEvent gemm(std::size_t m, std::size_t n, std::size_t k, const BufferPtr& a, const BufferPtr& b,
             const BufferPtr& c, bool ta, bool tb, const std::optional<StreamPtr>& given) {
  const bool mixed =
      c->dtype == DType::float32 && (a->dtype == DType::float16 || a->dtype == DType::bfloat16);
  if (!mixed) {
    require("matmul", a->dtype,
            "float16, float32 and float64 (and float16 or bfloat16 into float32)", gemm_types);
    require_same_type(*a, *c);
  }
  require_same_type(*a, *b);
  StreamPtr stream = stream_for(*c, given ? *given : nullptr);
  const auto op_a = ta ? xgpu::Transpose::yes : xgpu::Transpose::no;
  const auto op_b = tb ? xgpu::Transpose::yes : xgpu::Transpose::no;
  nb::gil_scoped_release release;
  return with_storage(a->dtype, [&](auto tag) -> PyEvent {
    using T = typename decltype(tag)::type;
    xgpu::Queue& q = stream->queue();
    xgpu::Event e;
    if constexpr (xgpu::is_16bit_float_v<T>) {
      if (mixed)
        e = xgpu::gemm<T, float>(q, m, n, k, 1.0f, typed<T>(*a), typed<T>(*b), 0.0f,
                                 typed<float>(*c), op_a, op_b);
    }
    if constexpr (xgpu::is_gemm_type_v<T>) {
      using S = xgpu::scalar_t<T>;
      if (!mixed)
        e = xgpu::gemm<T>(q, m, n, k, S(1), typed<T>(*a), typed<T>(*b), S(0), typed<T>(*c), op_a,
                          op_b);
    }
    return PyEvent{std::move(e), stream->device_index()};
  });
}

// dst = src converted on the device (xgpu::cast) between float16, bfloat16, float32, float64.
PyEvent cast(const BufferPtr& src, const BufferPtr& dst, const std::optional<StreamPtr>& given) {
  require("astype (xgpu::cast)", src->dtype, kFloatingTypes, floating_types);
  require("astype (xgpu::cast)", dst->dtype, kFloatingTypes, floating_types);
  StreamPtr stream = stream_for(*dst, given ? *given : nullptr);
  nb::gil_scoped_release release;
  return with_storage(src->dtype, [&](auto from) -> PyEvent {
    return with_storage(dst->dtype, [&](auto to) -> PyEvent {
      using F = typename decltype(from)::type;
      using T = typename decltype(to)::type;
      if constexpr (xgpu::is_floating_type_v<F> && xgpu::is_floating_type_v<T>) {
        return PyEvent{xgpu::cast(stream->queue(), typed<F>(*src), typed<T>(*dst)),
                       stream->device_index()};
      } else {
        return PyEvent{};
      }
    });
  });
}

// transpose and softmax: rows x cols matrices, one launch.
PyEvent matrix_op(const std::string& name, const BufferPtr& in, const BufferPtr& out,
                  std::size_t rows, std::size_t cols, const std::optional<StreamPtr>& given) {
  const bool softmax = name == "softmax";
  if (softmax)
    require("softmax", in->dtype, "float16, float32 and float64", softmax_types);
  else
    require("transpose", in->dtype, kAlgorithmTypes, algorithm_types);
  require_same_type(*in, *out);
  StreamPtr stream = stream_for(*out, given ? *given : nullptr);
  nb::gil_scoped_release release;
  return with_storage(in->dtype, [&](auto tag) -> PyEvent {
    using T = typename decltype(tag)::type;
    xgpu::Event e;
    if constexpr (xgpu::is_algorithm_type_v<T>) {
      if constexpr (is_softmax_v<T>) {
        if (softmax)
          e = xgpu::softmax_rows(stream->queue(), typed<T>(*in), typed<T>(*out), rows, cols);
      }
      if (!softmax) e = xgpu::transpose(stream->queue(), typed<T>(*in), typed<T>(*out), rows, cols);
    }
    return PyEvent{std::move(e), stream->device_index()};
  });
}

PyEvent sort(const BufferPtr& keys, const std::optional<StreamPtr>& given) {
  require("sort", keys->dtype, "float32, int32 and uint32", sort_types);
  StreamPtr stream = stream_for(*keys, given ? *given : nullptr);
  nb::gil_scoped_release release;
  return with_storage(keys->dtype, [&](auto tag) -> PyEvent {
    using T = typename decltype(tag)::type;
    if constexpr (xgpu::is_sort_type_v<T>) {
      return PyEvent{xgpu::sort(stream->queue(), typed<T>(*keys)), stream->device_index()};
    } else {
      return PyEvent{};
    }
  });
}

PyEvent cumsum(const BufferPtr& in, const BufferPtr& out, const std::optional<StreamPtr>& given) {
  require("cumsum", in->dtype, kAlgorithmTypes, algorithm_types);
  require_same_type(*in, *out);
  StreamPtr stream = stream_for(*out, given ? *given : nullptr);
  nb::gil_scoped_release release;
  return with_storage(in->dtype, [&](auto tag) -> PyEvent {
    using T = typename decltype(tag)::type;
    if constexpr (xgpu::is_algorithm_type_v<T>) {
      return PyEvent{xgpu::inclusive_scan(stream->queue(), typed<T>(*in), typed<T>(*out)),
                     stream->device_index()};
    } else {
      return PyEvent{};
    }
  });
}

}  // namespace

void bind_algorithms(nb::module_& m) {
  const auto none = nb::arg("stream") = nb::none();
  m.def("binary", &binary, nb::arg("op"), nb::arg("a"), nb::arg("b"), nb::arg("out"), none);
  m.def("unary", &unary, nb::arg("op"), nb::arg("x"), nb::arg("out"), none);
  m.def("scale", &scale, nb::arg("x"), nb::arg("a"), none);
  m.def("reduce", &reduce, nb::arg("kind"), nb::arg("x"), none);
  m.def("dot", &dot, nb::arg("x"), nb::arg("y"), none);
  m.def("gemm", &gemm, nb::arg("m"), nb::arg("n"), nb::arg("k"), nb::arg("a"), nb::arg("b"),
        nb::arg("c"), nb::arg("ta") = false, nb::arg("tb") = false, none);
  m.def("cast", &cast, nb::arg("src"), nb::arg("dst"), none);
  m.def("matrix_op", &matrix_op, nb::arg("op"), nb::arg("x"), nb::arg("out"), nb::arg("rows"),
        nb::arg("cols"), none);
  m.def("sort", &sort, nb::arg("keys"), none);
  m.def("cumsum", &cumsum, nb::arg("x"), nb::arg("out"), none);
}

}  // namespace xgpu_python
