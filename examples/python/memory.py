"""Memory statistics with torch.cuda's names, and an out-of-memory error caught.

    python examples/python/memory.py
"""

import numpy as np

import xgpu

print(f"allocated {xgpu.memory_allocated()} B, reserved {xgpu.memory_reserved()} B")
a = xgpu.empty((1024, 1024), np.float32)  # 4 MiB
print(f"after a 4 MiB array: allocated {xgpu.memory_allocated()} B, "
      f"reserved {xgpu.memory_reserved()} B")
del a
print(f"after del: allocated {xgpu.memory_allocated()} B, "
      f"reserved {xgpu.memory_reserved()} B (the block is cached for the next array)")
xgpu.empty_cache()
print(f"after empty_cache: reserved {xgpu.memory_reserved()} B")

# Cap the process at 1% of the device, then ask for more.
xgpu.set_per_process_memory_fraction(0.01)
total = xgpu.get_device_properties().total_memory
try:
    xgpu.empty(total // 50, np.uint8)
    raise SystemExit("expected an out-of-memory error")
except xgpu.OutOfMemoryError as error:
    print(f"caught: {error}")
stats = xgpu.memory_stats()
print(f"peak allocated {stats['peak_allocated']} B, out-of-memory errors {stats['num_ooms']}")
assert stats["num_ooms"] == 1
print("memory: OK")
