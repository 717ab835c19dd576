// boost_compute_sort: Boost.Compute's algorithms on an xgpu buffer, in xgpu's queue. The
// interop header hands over the native OpenCL handles; nothing is copied.
#include <algorithm>
#include <boost/compute/algorithm/sort.hpp>
#include <boost/compute/utility/program_cache.hpp>
#include <cstdio>
#include <random>
#include <vector>
#include <xgpu/boost_compute.hpp>  // first: it sets the OpenCL version for Boost.Compute
#include <xgpu/xgpu.hpp>

int main(int argc, char** argv) {
  try {
    xgpu::Context context(xgpu::select(argc > 1 ? argv[1] : ""));
    xgpu::Queue queue = context.queue();
    std::vector<int> host(10000);
    std::mt19937 random(1);
    for (int& v : host) v = static_cast<int>(random() % 1000);
    xgpu::Buffer<int> keys = context.alloc<int>(host.size());
    queue.write(keys, host);

    boost::compute::command_queue bc_queue = xgpu::boost_compute::queue(queue);
    boost::compute::sort(xgpu::boost_compute::begin(keys), xgpu::boost_compute::end(keys),
                         bc_queue);
    // Same queue: this read runs after the sort.
    std::vector<int> sorted = queue.read(keys);

    std::sort(host.begin(), host.end());
    const bool ok = sorted == host;
    std::printf("boost_compute_sort on %s: %s\n", queue.device().describe().c_str(),
                ok ? "OK" : "WRONG");
    // Boost.Compute's process-wide program cache would otherwise be destroyed after the
    // OpenCL drivers at exit.
    boost::compute::program_cache::get_global_cache(bc_queue.get_context())->clear();
    return ok ? 0 : 1;
  } catch (const xgpu::Error& e) {
    std::fprintf(stderr, "boost_compute_sort: %s\n", e.what());
    return 1;
  }
}
