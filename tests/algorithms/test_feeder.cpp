// xgpu::Feeder on every device: every batch filled once and delivered once, in order, over
// epochs, its bytes intact on the device while the compute queue still works on it (the
// compute queue copies each batch away behind a slow kernel, with no host wait, while later
// uploads race ahead); shuffled orders fixed by the seed; drop_last; a fill that throws (the
// batches before it delivered, then the error with its batch, every time); shut-down in the
// middle, also while a fill is running; batches of no bytes; more workers than cores; and
// bad options.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>
#include <xgpu/algorithms.hpp>

#include "test_support.hpp"

using xgpu::Feeder;
using xgpu::FeederBatch;
using xgpu::FeederOptions;
using xgpu::FeederRequest;
using xgpu_test::capture_error;
using xgpu_test::check_error;

namespace {

/// The value a sample stands for in epoch e: what the fill writes, what the device must hold.
std::uint32_t sample_value(std::size_t sample, std::size_t epoch) {
  return static_cast<std::uint32_t>(sample * 7919 + epoch * 104729 + 1);
}

/// A fill that writes one uint32 per sample and counts its calls per batch of the run.
struct CountingFill {
  std::vector<std::atomic<int>> calls;
  std::size_t per_epoch;
  CountingFill(std::size_t batches, std::size_t per) : calls(batches), per_epoch(per) {}
  std::size_t operator()(const FeederRequest& r) {
    ++calls[r.epoch * per_epoch + r.index];
    auto* out = static_cast<std::uint32_t*>(r.data);
    for (std::size_t i = 0; i < r.count; ++i) out[i] = sample_value(r.samples[i], r.epoch);
    return r.count * sizeof(std::uint32_t);
  }
};

// Spins a while, so that the compute queue lags behind the uploads.
const char* const kSlow = R"(
kernel void slow(global uint* sink, uint rounds) {
  uint x = sink[0];
  for (uint r = 0; r < rounds; ++r) x = x * 1664525u + 1013904223u;
  sink[1] = x;
}
)";

/// Runs a feeder to its end on `queue`: each batch copied by the compute queue, behind a slow
/// kernel, into `result` at the batch's place (batch_size uint32 per batch), with no host
/// wait; returns the batches in the order next() gave them.
std::vector<FeederBatch> drain_on_device(xgpu::Queue& queue, Feeder& feeder, const FeederOptions& o,
                                         xgpu::Buffer<std::uint32_t>& out) {
  xgpu::Context context = queue.context();
  const xgpu::Kernel slow = context.build(xgpu::Source{"feeder_slow.cl", kSlow}).kernel("slow");
  auto sink = context.alloc<std::uint32_t>(2);
  queue.fill(sink, 1u);
  const unsigned rounds = xgpu_test::is_oclgrind(queue.device()) ? 50 : 200000;
  std::vector<FeederBatch> batches;
  while (std::optional<FeederBatch> batch = feeder.next()) {
    queue.launch(slow, xgpu::Range{1}, sink, rounds);
    const std::size_t place = (batch->epoch * feeder.batches_per_epoch() + batch->index);
    if (batch->bytes > 0)
      queue.copy(batch->as<std::uint32_t>(), out, batch->bytes / sizeof(std::uint32_t), 0,
                 place * o.batch_size);
    batches.push_back(std::move(*batch));
  }
  return batches;
}

FeederOptions small_options() {
  FeederOptions o;
  o.samples = 103;  // 10 batches of 10 and one of 3
  o.batch_size = 10;
  o.batch_bytes = 10 * sizeof(std::uint32_t);
  o.workers = 3;
  o.prefetch = 2;
  o.epochs = 2;
  return o;
}

}  // namespace

TEST_CASE("Feeder: every batch once and in order, intact on the device", "[feeder]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      const FeederOptions o = small_options();
      CountingFill fill(22, 11);
      Feeder feeder(queue, o, [&](const FeederRequest& r) { return fill(r); });
      CHECK(feeder.batches_per_epoch() == 11);
      CHECK(feeder.size() == 22);
      auto out = context.alloc<std::uint32_t>(22 * o.batch_size);
      queue.fill(out, 0u);
      const std::vector<FeederBatch> batches = drain_on_device(queue, feeder, o, out);
      CHECK_FALSE(feeder.next().has_value());  // the end stays the end
      REQUIRE(batches.size() == 22);
      for (std::size_t p = 0; p < batches.size(); ++p) {
        INFO("batch " << p);
        CHECK(batches[p].epoch == p / 11);
        CHECK(batches[p].index == p % 11);
        const std::size_t count = p % 11 == 10 ? 3 : 10;
        REQUIRE(batches[p].samples.size() == count);
        CHECK(batches[p].samples.front() == (p % 11) * 10);  // in order, unshuffled
        CHECK(batches[p].bytes == count * sizeof(std::uint32_t));
        CHECK(fill.calls[p] == 1);
      }
      const std::vector<std::uint32_t> got = queue.read(out);
      std::size_t wrong = 0;
      for (std::size_t p = 0; p < 22; ++p) {
        for (std::size_t i = 0; i < batches[p].samples.size(); ++i) {
          const std::uint32_t expected = sample_value(batches[p].samples[i], p / 11);
          if (got[p * o.batch_size + i] != expected && wrong++ < 5)
            FAIL_CHECK("batch " << p << " element " << i << ": " << got[p * o.batch_size + i]
                                << ", expected " << expected);
        }
      }
      CHECK(wrong == 0);
    }
  }
}

// next() returns once a batch's upload is enqueued, not done: the compute queue must wait for
// it. Here the compute queue reads each batch's last word at once, while the 4 MiB upload
// that writes it may still run: without that wait it reads an older batch's word.
TEST_CASE("Feeder: the compute queue waits for each upload", "[feeder]") {
  xgpu_test::for_each_pocl_device([](const xgpu::Device& device) {
    xgpu::Context context(device);
    xgpu::Queue queue = context.queue();
    FeederOptions o;
    o.samples = 12;
    o.batch_bytes = std::size_t{4} << 20;
    o.workers = 2;
    const std::size_t words = o.batch_bytes / sizeof(std::uint32_t);
    Feeder feeder(queue, o, [&](const FeederRequest& r) {
      auto* out = static_cast<std::uint32_t*>(r.data);
      std::fill(out, out + words, static_cast<std::uint32_t>(r.index + 1));
      return r.capacity;
    });
    auto last_words = context.alloc<std::uint32_t>(o.samples);
    while (std::optional<FeederBatch> batch = feeder.next())
      queue.copy(batch->as<std::uint32_t>(), last_words, 1, words - 1, batch->index);
    std::vector<std::uint32_t> expected(o.samples);
    std::iota(expected.begin(), expected.end(), 1u);
    CHECK(queue.read(last_words) == expected);
  });
}

TEST_CASE("Feeder: a shuffled order is fixed by the seed, new each epoch; drop_last", "[feeder]") {
  xgpu::Context context(xgpu::devices().at(0));
  xgpu::Queue queue = context.queue();
  const auto orders = [&](std::uint64_t seed, bool drop_last) {
    FeederOptions o;
    o.samples = 50;
    o.batch_size = 7;
    o.batch_bytes = 4;
    o.shuffle = true;
    o.seed = seed;
    o.epochs = 2;
    o.drop_last = drop_last;
    Feeder feeder(queue, o, [](const FeederRequest&) { return std::size_t{0}; });
    std::vector<std::vector<std::size_t>> epochs(2);
    while (auto batch = feeder.next())
      epochs[batch->epoch].insert(epochs[batch->epoch].end(), batch->samples.begin(),
                                  batch->samples.end());
    return epochs;
  };
  const auto first = orders(5, false);
  for (const auto& epoch : first) {
    std::vector<std::size_t> sorted = epoch;
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::size_t> all(50);
    std::iota(all.begin(), all.end(), std::size_t{0});
    CHECK(sorted == all);  // a permutation
    CHECK(epoch != all);   // shuffled
  }
  CHECK(first[0] != first[1]);       // a new order each epoch
  CHECK(orders(5, false) == first);  // the same seed, the same orders
  CHECK(orders(6, false) != first);  // another seed, others
  const auto dropped = orders(5, true);
  CHECK(dropped[0].size() == 49);  // 7 whole batches; the last sample's batch dropped
  CHECK(std::equal(dropped[0].begin(), dropped[0].end(), first[0].begin()));
}

TEST_CASE("Feeder: a throwing fill reaches next() with its batch", "[feeder]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      FeederOptions o = small_options();
      o.epochs = 1;
      std::atomic<int> calls{0};
      Feeder feeder(queue, o, [&](const FeederRequest& r) -> std::size_t {
        ++calls;
        if (r.index == 5) throw std::runtime_error("sample file missing");
        return 4;
      });
      for (std::size_t i = 0; i < 5; ++i) {
        const auto batch = feeder.next();
        REQUIRE(batch.has_value());
        CHECK(batch->index == i);
      }
      for (int again = 0; again < 2; ++again) {  // every later call: the same error
        bool nested = false;
        try {
          feeder.next();
          FAIL("next() did not throw");
        } catch (const xgpu::Error& error) {
          check_error(error, xgpu::Errc::user_function,
                      {"xgpu::Feeder::next", "batch 5 of epoch 0", "sample file missing"});
          try {
            std::rethrow_if_nested(error);  // the original, as the fill threw it
          } catch (const std::runtime_error& original) {
            nested = std::string(original.what()) == "sample file missing";
          }
        }
        CHECK(nested);
      }
      feeder.close();  // joins every worker, although one threw
      CHECK_FALSE(feeder.next().has_value());
      CHECK(calls <= 11);
    }
  }
}

TEST_CASE("Feeder: a fill returning more than the capacity is an error", "[feeder]") {
  xgpu::Context context(xgpu::devices().at(0));
  FeederOptions o = small_options();
  Feeder feeder(context.queue(), o, [&](const FeederRequest& r) { return r.capacity + 1; });
  check_error(capture_error([&] { feeder.next(); }), xgpu::Errc::user_function,
              {"batch 0", "41 bytes", "40"});
}

TEST_CASE("Feeder: shut-down in the middle joins every thread", "[feeder]") {
  xgpu::Context context(xgpu::devices().at(0));
  xgpu::Queue queue = context.queue();
  FeederOptions o;
  o.samples = 1000;
  o.batch_bytes = 64;
  o.workers = 4;
  o.prefetch = 2;
  std::atomic<int> calls{0}, running{0};
  SECTION("destroyed with batches left and workers waiting for slots") {
    {
      Feeder feeder(queue, o, [&](const FeederRequest&) {
        ++calls;
        return std::size_t{64};
      });
      for (int i = 0; i < 3; ++i) REQUIRE(feeder.next().has_value());
    }
    // The ring bounds the work done ahead: 3 handed out, at most 3 + prefetch + 1 uploaded,
    // plus a full ring of host slots (workers + prefetch) filled behind them.
    CHECK(calls <= 3 + 3 + 6);
  }
  SECTION("closed while fills are running: close waits for them") {
    Feeder feeder(queue, o, [&](const FeederRequest&) {
      ++running;
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      ++calls;
      --running;
      return std::size_t{8};
    });
    REQUIRE(feeder.next().has_value());
    feeder.close();
    CHECK(running == 0);  // no fill still running after close
    const int after = calls;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    CHECK(calls == after);  // and none started after it
    CHECK_FALSE(feeder.next().has_value());
    feeder.close();  // again: nothing
  }
}

TEST_CASE("Feeder: batches of no bytes and more workers than cores", "[feeder]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      FeederOptions o = small_options();
      o.workers = 4 * std::max(1u, std::thread::hardware_concurrency()) + 1;
      o.prefetch = 1;
      CountingFill counting(22, 11);
      Feeder feeder(queue, o, [&](const FeederRequest& r) -> std::size_t {
        const std::size_t bytes = counting(r);
        return (r.epoch * 11 + r.index) % 2 ? 0 : bytes;  // odd places: no bytes
      });
      auto out = context.alloc<std::uint32_t>(22 * o.batch_size);
      queue.fill(out, 0u);
      const std::vector<FeederBatch> batches = drain_on_device(queue, feeder, o, out);
      REQUIRE(batches.size() == 22);
      const std::vector<std::uint32_t> got = queue.read(out);
      for (std::size_t p = 0; p < 22; ++p) {
        INFO("batch " << p);
        CHECK(batches[p].index == p % 11);
        CHECK(counting.calls[p] == 1);
        if (p % 2) {
          CHECK(batches[p].bytes == 0);
          CHECK_FALSE(static_cast<bool>(batches[p].ready));
          CHECK(got[p * o.batch_size] == 0u);  // nothing copied
        } else {
          CHECK(batches[p].bytes == batches[p].samples.size() * 4);
          CHECK(got[p * o.batch_size] == sample_value(batches[p].samples[0], p / 11));
        }
      }
    }
  }
}

TEST_CASE("Feeder: no samples, bad options", "[feeder]") {
  xgpu::Context context(xgpu::devices().at(0));
  xgpu::Queue queue = context.queue();
  const auto fill = [](const FeederRequest&) { return std::size_t{0}; };
  FeederOptions none;
  none.batch_bytes = 16;
  Feeder empty(queue, none, fill);
  CHECK(empty.size() == 0);
  CHECK_FALSE(empty.next().has_value());
  // Each option of small_options() set to 0 alone is refused, by name.
  const auto refused_zero = [&](auto FeederOptions::*option, const char* name) {
    FeederOptions o = small_options();
    o.*option = 0;
    check_error(capture_error([&] { Feeder bad(queue, o, fill); }), xgpu::Errc::invalid_argument,
                {"xgpu::Feeder", name});
  };
  refused_zero(&FeederOptions::batch_size, "batch_size");
  refused_zero(&FeederOptions::batch_bytes, "batch_bytes");
  refused_zero(&FeederOptions::workers, "workers");
  refused_zero(&FeederOptions::prefetch, "prefetch");
  refused_zero(&FeederOptions::epochs, "epochs");
  check_error(capture_error([&] { Feeder bad(queue, small_options(), nullptr); }),
              xgpu::Errc::invalid_argument, {"fill function"});
  check_error(capture_error([&] { Feeder bad(xgpu::Queue(), small_options(), fill); }),
              xgpu::Errc::invalid_handle);
  FeederOptions odd = small_options();
  odd.batch_bytes = 6;
  Feeder feeder(queue, odd, [](const FeederRequest&) { return std::size_t{6}; });
  const auto batch = feeder.next();
  REQUIRE(batch.has_value());
  check_error(capture_error([&] { batch->as<std::uint32_t>(); }), xgpu::Errc::invalid_argument,
              {"6 bytes"});
  CHECK(batch->as<std::uint16_t>().size() == 3);
}
