// Placeholder: filled by the elementwise work of issue 6.
#pragma once

#include <xgpu/queue.hpp>
