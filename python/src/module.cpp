// The extension module xgpu._xgpu: the C++ half of the xgpu package. xgpu/__init__.py and its
// siblings are the Python half, and the only API users see.
#include "common.hpp"

NB_MODULE(_xgpu, m) {
  using namespace xgpu_python;
  m.doc() = "xgpu's C++ side; use the xgpu package.";
  bind_misc(m);  // first: the error translator
  bind_devices(m);
  bind_streams(m);
  bind_buffers(m);
  bind_algorithms(m);
  bind_kernels(m);
  bind_dlpack(m);
  bind_group(m);
  bind_amp(m);
  bind_feeder(m);
}
