// DeviceGroup's answers to bad input: each is one xgpu::Error of the right kind that names
// the mistake. Runs on whatever devices are visible (any one will do; two for some checks).
#include <cmath>
#include <limits>
#include <vector>

#include "group_support.hpp"

using xgpu_test::capture_error;
using xgpu_test::check_error;

TEST_CASE("a selector that matches nothing is no_device naming it", "[multi_errors]") {
  REQUIRE_FALSE(xgpu::find("nvidia"));  // the test machines have no NVIDIA device
  check_error(capture_error([] { xgpu::DeviceGroup group("nvidia"); }), xgpu::Errc::no_device,
              {"DeviceGroup", "'nvidia'"});
  check_error(capture_error([] { xgpu::DeviceGroup group("nvidai"); }),
              xgpu::Errc::invalid_selector, {"nvidai"});
}

TEST_CASE("a list of devices must be non-empty, each device once", "[multi_errors]") {
  const std::vector<xgpu::Device> all = xgpu::devices();
  REQUIRE_FALSE(all.empty());
  check_error(capture_error([] { xgpu::DeviceGroup group(std::vector<xgpu::Device>{}); }),
              xgpu::Errc::invalid_argument, {"empty"});
  check_error(capture_error([&] {
                xgpu::DeviceGroup group({all[0], all[0]});
              }),
              xgpu::Errc::invalid_argument, {all[0].describe(), "twice"});
  check_error(capture_error([&] {
                xgpu::DeviceGroup group({all[0], xgpu::Device{}});
              }),
              xgpu::Errc::invalid_argument, {"device 1", "empty Device"});
  xgpu::DeviceGroup group(std::vector<xgpu::Device>{all[0]});
  CHECK(group.size() == 1);
  CHECK(group[0].device == all[0]);
  check_error(capture_error([&] { (void)group[1]; }), xgpu::Errc::out_of_range,
              {"device 1 of a group of 1"});
}

TEST_CASE("a Distributed works only with the group that made it", "[multi_errors]") {
  const std::vector<xgpu::Device> all = xgpu::devices();
  REQUIRE_FALSE(all.empty());
  // Two groups of the same device: still different groups.
  xgpu::DeviceGroup mine(std::vector<xgpu::Device>{all[0]});
  xgpu::DeviceGroup other(std::vector<xgpu::Device>{all[0]});
  auto d = mine.scatter(std::vector<int>{1, 2, 3});
  std::vector<int> host(3);
  check_error(capture_error([&] { other.gather(d, host.data()); }), xgpu::Errc::invalid_argument,
              {"DeviceGroup::gather", "another DeviceGroup"});
  check_error(capture_error([&] { other.all_reduce_sum(d); }), xgpu::Errc::invalid_argument,
              {"DeviceGroup::all_reduce_sum", "another DeviceGroup"});
  check_error(
      capture_error([&] { other.for_each(d, [](xgpu::Queue&, std::size_t, xgpu::Slice) {}); }),
      xgpu::Errc::invalid_argument, {"DeviceGroup::for_each", "another DeviceGroup"});
  // A copy of the group is the same group.
  xgpu::DeviceGroup copy = mine;
  CHECK(copy.gather(d) == std::vector<int>{1, 2, 3});
  xgpu::Distributed<int> empty;
  check_error(capture_error([&] { mine.gather(empty, host.data()); }), xgpu::Errc::invalid_argument,
              {"empty"});
  check_error(capture_error([&] { (void)d.buffer(1); }), xgpu::Errc::out_of_range,
              {"Distributed::buffer"});
  check_error(capture_error([&] { mine.scatter(static_cast<const int*>(nullptr), 4); }),
              xgpu::Errc::invalid_argument, {"DeviceGroup::scatter", "null"});
}

TEST_CASE("all_reduce_sum refuses buffers of different sizes, naming the device",
          "[multi_errors]") {
  const auto pocl = xgpu::select_all("pocl");
  REQUIRE(pocl.size() >= 2);  // the entry runs with POCL_DEVICES="pthread pthread"
  xgpu::DeviceGroup group(std::vector<xgpu::Device>{pocl[0], pocl[1]});
  auto d = group.scatter(std::vector<float>(5, 1.0f));  // slices of 3 and 2
  check_error(capture_error([&] { group.all_reduce_sum(d); }), xgpu::Errc::invalid_argument,
              {"DeviceGroup::all_reduce_sum", "device 1 (" + pocl[1].describe(),
               "2 elements but device 0 holds 3"});
  // Unchanged after the refusal.
  CHECK(group.gather(d) == std::vector<float>(5, 1.0f));
}

TEST_CASE("set_weights refuses a wrong count, negative, NaN, infinite and all-zero weights",
          "[multi_errors]") {
  const auto pocl = xgpu::select_all("pocl");
  REQUIRE(pocl.size() >= 2);
  xgpu::DeviceGroup group(std::vector<xgpu::Device>{pocl[0], pocl[1]});
  group.set_weights({1, 3});
  const auto before = group.weights();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  struct Case {
    std::vector<double> weights;
    std::string mentions;
  };
  for (const Case& c :
       {Case{{1}, "1 weights for a group of 2"}, Case{{1, 2, 3}, "3 weights for a group of 2"},
        Case{{1, -1}, "weight 1 is -1"}, Case{{nan, 1}, "weight 0 is nan"},
        Case{{1, inf}, "weight 1 is inf"}, Case{{0, 0}, "sum to 0"}}) {
    check_error(capture_error([&] { group.set_weights(c.weights); }), xgpu::Errc::invalid_argument,
                {"DeviceGroup::set_weights", c.mentions});
  }
  CHECK(group.weights() == before);  // a refused call changes nothing
}
