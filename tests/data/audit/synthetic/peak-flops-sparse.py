# Synthetic: torchtitan-style BF16 peaks in three of its shapes, each with one sparse figure where it means dense.
def get_peak_flops(device_name: str) -> int:
    if "A100" in device_name:
        return 312e12
    elif "B200" in device_name:
        # data from the Blackwell datasheet
        return 4.5e15
    elif "neuron" in device_name:
        chip = device_name.split(":")[-1]
        if chip in ("trn2", "trn2n"):
            return 667e12
    return 312e12


def peak_from_records(device_name: str) -> float:
    device_info = {
        "h100": {"flops": 1979e12, "source": "https://www.nvidia.com/en-us/data-center/h100/"},
        "mi300x": {"flops": 1300e12, "source": "https://www.amd.com/en/products/accelerators/instinct/mi300/mi300x.html"},
    }
    return device_info[device_name]["flops"]


def peak_from_rows(device_name: str) -> float:
    device_flops = (
        ("H200", 989e12, "https://www.nvidia.com/en-us/data-center/h200/"),
        ("MI325X", 2614.9e12, "https://www.amd.com/en/products/accelerators/instinct/mi300/mi325x.html"),
    )
    return dict((name, flops) for name, flops, _ in device_flops)[device_name]
