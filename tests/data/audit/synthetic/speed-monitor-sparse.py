# Synthetic: a Composer-style table, with mixed-precision keys and one device's rates in a dict named at the top,
# holding sparse peaks where it means dense.
_HSERIES_SXM = {
    'fp64': 67e12,
    'amp_fp16': 1.979e15,
    'amp_bf16': 1.979e15,
    'amp_fp8': 3.958e15,
    'int8': 3.958e15 / 2,
}

GPU_AVAILABLE_FLOPS = {
    'h200-sxm': _HSERIES_SXM,
    'a100': {
        'fp32': 19.5e12,
        'amp_bf16': 312e12,
    },
}
