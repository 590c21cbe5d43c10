HardwareSpec = {
    "A10":
    {
        "compute_ablility": 
         {
            "bfloat16": 125 * 2 ** 40,
            "float16": 125 * 2 ** 40,
         },
   
        "bandwidth": 600 * 2 ** 30,
    },

    "H800":
    {
        "compute_ablility":
         {
            "bfloat16": 1979 * 2 ** 40,
            "float16": 1979 * 2 ** 40,
         },
        "bandwidth": 3500 * 2 ** 30,
    },

    "H100":
    {
        "compute_ablility":
         {
            "bfloat16": 1979 * 2 ** 40,
            "float16": 1979 * 2 ** 40,
         },
        "bandwidth": 3500 * 2 ** 30,
    }
}