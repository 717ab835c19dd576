// The allocation trace of one training step of a small transformer (GPT-like decoder, fp32),
// replayed through Context::alloc for `xgpu bench memory`: parameters and Adam's two moments
// live across steps; the forward pass keeps each layer's activations for the backward pass
// and frees its workspace at once; the backward pass frees a layer's activations as it
// consumes them, holds the weight gradients until the optimizer step and frees its own
// temporaries. No kernel runs: only the sizes and the order of allocations and frees matter.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>
#include <xgpu/context.hpp>

namespace xgpu::cli::bench {

struct TrainingStep {
  std::size_t batch, sequence, model, heads, feed_forward, layers, vocabulary;
};

/// Quick: 4 x 64 tokens, width 128, 2 layers. Full: 8 x 128 tokens, width 256, 4 layers,
/// 4 heads, feed-forward 4x, vocabulary 8000.
inline TrainingStep small_transformer(bool quick) {
  if (quick) return {4, 64, 128, 4, 512, 2, 4000};
  return {8, 128, 256, 4, 1024, 4, 8000};
}

/// Replays `steps` training steps; returns the allocations and frees it made.
inline std::size_t replay_training(const Context& context, const TrainingStep& s, int steps) {
  using Block = Buffer<std::uint8_t>;
  std::size_t events = 0;
  auto take = [&](std::size_t floats) {
    events += 2;  // its allocation, and its free whenever it goes
    return context.alloc<std::uint8_t>(floats * sizeof(float));
  };
  const std::size_t tokens = s.batch * s.sequence;
  const std::size_t scores = s.batch * s.heads * s.sequence * s.sequence;
  // Parameters: per layer Wqkv, Wo, W1, W2 and the norms' scales and shifts; the embedding.
  const std::vector<std::size_t> layer_parameters{s.model * 3 * s.model,
                                                  3 * s.model,
                                                  s.model * s.model,
                                                  s.model,
                                                  s.model * s.feed_forward,
                                                  s.feed_forward,
                                                  s.feed_forward * s.model,
                                                  s.model,
                                                  4 * s.model};
  std::vector<Block> parameters, adam_m, adam_v;
  for (std::vector<Block>* state : {&parameters, &adam_m, &adam_v}) {
    state->push_back(take(s.vocabulary * s.model));
    for (std::size_t layer = 0; layer < s.layers; ++layer) {
      for (std::size_t size : layer_parameters) state->push_back(take(size));
    }
  }
  for (int step = 0; step < steps; ++step) {
    struct Saved {
      Block norm1, qkv, probabilities, attention, projection, norm2, hidden, activated, output;
    };
    std::vector<Saved> saved;
    Block ids = take(tokens);
    Block input = take(tokens * s.model);  // the embedding's output
    for (std::size_t layer = 0; layer < s.layers; ++layer) {
      Saved a;
      a.norm1 = take(tokens * s.model);
      a.qkv = take(tokens * 3 * s.model);
      {
        Block raw_scores = take(scores);  // workspace: gone once softmax has run
        a.probabilities = take(scores);
      }
      a.attention = take(tokens * s.model);
      a.projection = take(tokens * s.model);
      a.norm2 = take(tokens * s.model);
      a.hidden = take(tokens * s.feed_forward);
      a.activated = take(tokens * s.feed_forward);
      a.output = take(tokens * s.model);
      saved.push_back(std::move(a));
    }
    Block logits = take(tokens * s.vocabulary);
    { Block loss_workspace = take(tokens); }
    // Backward: the logits' gradient, then the layers in reverse, gradients kept for Adam.
    std::vector<Block> gradients;
    Block incoming = take(tokens * s.vocabulary);
    logits = Block();
    gradients.push_back(take(s.vocabulary * s.model));
    Block flowing = take(tokens * s.model);
    incoming = Block();
    for (std::size_t layer = s.layers; layer-- > 0;) {
      Saved& a = saved[layer];
      for (std::size_t size : layer_parameters) gradients.push_back(take(size));
      Block d_activated = take(tokens * s.feed_forward);
      a.output = Block();
      Block d_hidden = take(tokens * s.feed_forward);
      a.activated = Block();
      a.hidden = Block();
      d_activated = Block();
      Block d_norm2 = take(tokens * s.model);
      d_hidden = Block();
      a.norm2 = Block();
      a.projection = Block();
      Block d_attention = take(tokens * s.model);
      d_norm2 = Block();
      {
        Block d_probabilities = take(scores);
        Block d_scores = take(scores);
        a.probabilities = Block();
      }
      Block d_qkv = take(tokens * 3 * s.model);
      a.attention = Block();
      d_attention = Block();
      a.qkv = Block();
      Block d_input = take(tokens * s.model);
      d_qkv = Block();
      a.norm1 = Block();
      flowing = std::move(d_input);
    }
    flowing = Block();
    input = Block();
    ids = Block();
    // Adam: one temporary per parameter for the update, then the gradients go.
    for (const Block& parameter : parameters) {
      Block update = take(parameter.bytes() / sizeof(float));
    }
    gradients.clear();
  }
  return events;
}

}  // namespace xgpu::cli::bench
