// Placeholder: filled by the transpose work of issue 6.
#pragma once

#include <xgpu/queue.hpp>
