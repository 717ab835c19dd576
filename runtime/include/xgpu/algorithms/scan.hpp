// Placeholder: filled by the scan work of issue 6.
#pragma once

#include <xgpu/queue.hpp>
