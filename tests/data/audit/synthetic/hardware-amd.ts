// Synthetic: huggingface.js's later layout, one table per vendor (hardware-amd.ts), with a shorthand holding another
// part's figure; the CPU table beside it is not read.
import type { HardwareSpec } from "./hardware.js";

export const AMD_GPU_SKUS: Record<string, HardwareSpec> = {
	MI300: {
		tflops: 383.0,
		memory: [192],
		msrp: 15_000,
	},
	MI325: {
		tflops: 1307.4,
		memory: [256],
	},
};

export const CPU_AMD_SKUS: Record<string, HardwareSpec> = {
	"EPYC 9004": {
		tflops: 383.0,
		memory: [192],
	},
};
