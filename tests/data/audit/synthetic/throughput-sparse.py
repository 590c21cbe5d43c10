# Synthetic: a Lightning-style table holding the sparse peak for several number formats.
import torch

_CUDA_FLOPS = {
    "h100 sxm": {
        torch.bfloat16: 1.979e15,
        torch.float16: 1.979e15,
        torch.float8_e4m3fn: 3.958e15,
        torch.int8: 3.958e15,
    },
    "a100": {
        torch.bfloat16: 312e12,
    },
}
