HARDWARE = {
    "nvidia_A800_80G_PCIe": {
        "bandwidth": 1935e9,
        "FP16": 312e12,
        "INT8": 624e12,
        "onchip_buffer": 27648e3,
    },
    "nvidia_T4": {"bandwidth": 320e9, "FP16": 65e12},
    "google_TPU_v5e1": {"bandwidth": 819e9, "FP16": 197e12},
}
