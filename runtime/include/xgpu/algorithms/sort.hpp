// Placeholder: filled by the sort work of issue 6.
#pragma once

#include <xgpu/queue.hpp>
