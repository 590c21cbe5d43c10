// Synthetic: huggingface.js's SKUS layout with a shorthand name holding another part's figure.
export const SKUS = {
	GPU: {
		AMD: {
			MI300: {
				tflops: 383.0,
				memory: [192],
			},
			MI325: {
				tflops: 1307.4,
				memory: [256],
			},
		},
	},
} satisfies HardwareSpec;
