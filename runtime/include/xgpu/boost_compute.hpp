// xgpu objects as Boost.Compute objects, so that Boost.Compute's algorithms run on xgpu's
// buffers in xgpu's queue:
//
//   boost::compute::command_queue queue = xgpu::boost_compute::queue(q);
//   auto first = xgpu::boost_compute::begin(keys), last = xgpu::boost_compute::end(keys);
//   boost::compute::sort(first, last, queue);
//
// The Boost.Compute objects retain the OpenCL handles, so they may outlive the xgpu ones.
// Needs Boost.Compute's headers (Debian: libboost-dev) and the opencl backend.
#pragma once

// First: it sets the OpenCL version the OpenCL headers that Boost.Compute includes target.
#include <boost/compute/buffer.hpp>
#include <boost/compute/command_queue.hpp>
#include <boost/compute/context.hpp>
#include <boost/compute/iterator/buffer_iterator.hpp>
#include <xgpu/opencl.hpp>

namespace xgpu::boost_compute {

inline boost::compute::device device(const Device& device) {
  return boost::compute::device(opencl::device(device), true);
}
inline boost::compute::context context(const Context& context) {
  return boost::compute::context(opencl::context(context), true);
}
inline boost::compute::command_queue queue(const Queue& queue) {
  return boost::compute::command_queue(opencl::queue(queue), true);
}
/// Throws xgpu::Error (invalid_argument) for an empty buffer: Boost.Compute has no
/// empty buffers. Algorithms over nothing need no buffer: skip the call.
template <class T>
boost::compute::buffer buffer(const Buffer<T>& buffer) {
  if (buffer.empty())
    throw Error(Errc::invalid_argument,
                "xgpu::boost_compute::buffer: the buffer is empty; Boost.Compute has no empty "
                "buffers",
                "xgpu::boost_compute::buffer");
  return boost::compute::buffer(opencl::buffer(buffer), true);
}
/// Iterators over all of a buffer's elements, for Boost.Compute's algorithms.
template <class T>
boost::compute::buffer_iterator<T> begin(const Buffer<T>& buffer) {
  return boost::compute::make_buffer_iterator<T>(boost_compute::buffer(buffer), 0);
}
template <class T>
boost::compute::buffer_iterator<T> end(const Buffer<T>& buffer) {
  return boost::compute::make_buffer_iterator<T>(boost_compute::buffer(buffer), buffer.size());
}

}  // namespace xgpu::boost_compute
