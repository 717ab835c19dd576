// Placeholder: filled by the gemm work of issue 6.
#pragma once

#include <xgpu/queue.hpp>
