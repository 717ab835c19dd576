// The staging pool (staging.hpp): blocks go back to their context's pool when a collective
// ends, and the next collective takes the smallest that fits.
#include "staging.hpp"

#include <cstdlib>
#include <mutex>
#include <vector>
#include <xgpu/extension.hpp>

#include "errors.hpp"

namespace xgpu::mpi::detail {

struct StagingBlock {
  HostBuffer<std::uint8_t> pinned;  // the pinned kind
  unsigned char* plain = nullptr;   // the ordinary kind (aligned_alloc)
  std::size_t bytes = 0;
  ~StagingBlock() { std::free(plain); }
  unsigned char* data() const { return plain ? plain : pinned.data(); }
};

struct StagingPool {
  std::mutex mutex;
  std::vector<std::unique_ptr<StagingBlock>> free;
};

namespace {

constexpr std::size_t kPage = 4096;

std::unique_ptr<StagingBlock> make_block(const Context& context, std::size_t bytes, bool pinned) {
  auto block = std::make_unique<StagingBlock>();
  block->bytes = (bytes + kPage - 1) / kPage * kPage;
  if (pinned) {
    block->pinned = context.alloc_host<std::uint8_t>(block->bytes);
  } else {
    block->plain = static_cast<unsigned char*>(std::aligned_alloc(kPage, block->bytes));
    if (block->plain == nullptr)
      fail(Errc::out_of_memory, "no host memory for a staging block", "xgpu::mpi");
  }
  return block;
}

}  // namespace

Staging::Staging(const Context& context, std::size_t bytes, bool pinned)
    : pool_(ext::context_slot<StagingPool>(context, "xgpu.mpi.staging")) {
  {
    std::lock_guard<std::mutex> lock(pool_->mutex);
    auto best = pool_->free.end();
    for (auto it = pool_->free.begin(); it != pool_->free.end(); ++it) {
      const bool kind = (*it)->plain == nullptr;
      if (kind == pinned && (*it)->bytes >= bytes &&
          (best == pool_->free.end() || (*it)->bytes < (*best)->bytes))
        best = it;
    }
    if (best != pool_->free.end()) {
      block_ = std::move(*best);
      pool_->free.erase(best);
      return;
    }
  }
  block_ = make_block(context, bytes, pinned);
}

Staging::~Staging() {
  std::lock_guard<std::mutex> lock(pool_->mutex);
  pool_->free.push_back(std::move(block_));
}

unsigned char* Staging::data() const { return block_->data(); }

const HostBuffer<std::uint8_t>* Staging::host() const {
  return block_->plain ? nullptr : &block_->pinned;
}

}  // namespace xgpu::mpi::detail
