"""The closed sets of words the record format and the commands share.

Kept apart from `schema` (which needs pydantic) so that the command line can
offer exactly these choices without importing the validator.
"""

KINDS = ("accelerator", "link", "fabric", "system", "cluster", "source")
DIRECTIONS = ("total", "per-direction", "bidirectional")
SCOPES = ("per-accelerator", "per-link", "per-port", "per-lane", "per-system")
STATUSES = ("spec", "announced", "shipping", "measured")
PRECISIONS = ("fp64", "fp32", "tf32", "bf16", "fp16", "fp8", "fp6", "fp4", "int8")
SPARSITIES = ("dense", "sparse")
PERIODS = ("day", "month", "year")
COLLECTIVE_OPERATIONS = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all", "point-to-point")
COLLECTIVE_ALGORITHMS = ("ring", "tree", "nvls", "collnet")
# A measured run may also say `default`: the library chose (NCCL_ALGO unset) and the log does not say which. Such a run
# checks the estimate's own choice; it cannot calibrate an algorithm.
RUN_ALGORITHMS = (*COLLECTIVE_ALGORITHMS, "default")
ROLE_KINDS = {
    "accelerator": "accelerator",
    "scale_up": "link",
    "host_link": "link",
    "scale_out": "fabric",
    "nic": "fabric",
    "system": "system",
}
