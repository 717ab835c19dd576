// Placeholder: filled by the reduce work of issue 6.
#pragma once

#include <xgpu/queue.hpp>
