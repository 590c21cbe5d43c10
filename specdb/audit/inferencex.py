"""InferenceX's `packages/app/src/lib/gpu-specs.ts`: `GPU_SPECS`, one object literal per system with quoted quantities.

Field meanings from the file's own header and `GpuSpec` doc comments: "All compute TFLOPS values are dense (without
sparsity) tensor core peak values" (`fp4`, `fp8`, `bf16`, in TFLOPS); `memory` the GPU memory capacity as written
("80 GB", a marketing GB that may be GiB); `memoryBandwidth` per GPU; `scaleUpBandwidth` "the per-GPU unidirectional
NVLink/Infinity Fabric bandwidth". `scaleOutBandwidth` is per NIC, not per GPU, and is not judged.
"""

from __future__ import annotations

import re

from specdb.audit import fields as meaning
from specdb.audit.fields import Field, UnreadableTable
from specdb.audit.typescript import code_of
from specdb.format.units import UnitError, number_and_unit, parse_quantity
from specdb.textfile import line_and_column

NAME = "inferencex"
_NUMBERS = {"fp4": "fp4", "fp8": "fp8", "bf16": "bf16"}
_QUANTITIES = {
    "memory": meaning.MEMORY_CAPACITY,
    "memoryBandwidth": meaning.MEMORY_BANDWIDTH,
    "scaleUpBandwidth": meaning.SCALE_UP_PER_DIRECTION,
}
_ENTRY = re.compile(r"\bname\s*:\s*(['\"`])(.*?)\1")
_KEY = re.compile(r"\b(\w+)\s*:\s*(?:(['\"`])(.*?)\2|([-+\d.eE_]+)\b)")


def looks_like(path: str, text: str) -> bool:
    return path.endswith(".ts") and "GPU_SPECS" in text


def read(path: str, text: str) -> list[Field]:
    code = code_of(path, text)
    start = code.find("GPU_SPECS")
    opening = code.find("[", code.find("=", start)) if start >= 0 else -1
    if opening < 0:
        raise UnreadableTable(path, "no GPU_SPECS array", 1, 1)
    found: list[Field] = []
    for entry in _objects(code, opening):
        named = _ENTRY.search(code, entry[0], entry[1])
        if named is None:
            continue
        part = named.group(2)
        for key in _KEY.finditer(code, entry[0], entry[1]):
            name, text_value, number = key.group(1), key.group(3), key.group(4)
            line, column = line_and_column(text, key.start(3) if text_value is not None else key.start(4))
            if name in _NUMBERS and number is not None:
                found.append(Field(line, column, f"{part}.{name}", number, float(number) * 1e12, 1e12, "", part,
                                   meaning.dense(_NUMBERS[name])))
            elif name in _QUANTITIES and text_value:
                try:
                    quantity = parse_quantity(text_value)
                    number, unit = number_and_unit(text_value)
                except UnitError:
                    continue
                found.append(Field(line, column, f"{part}.{name}", text_value, quantity.value, quantity.value / number, unit, part,
                                   _QUANTITIES[name], either_gb=name == "memory"))
    return found


def _objects(code: str, opening: int) -> list[tuple[int, int]]:
    """The (start, end) of each top-level object literal in the array that opens at `opening`."""
    spans, depth, start = [], 0, 0
    for index in range(opening + 1, len(code)):
        char = code[index]
        if char == "{":
            if depth == 0:
                start = index
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                spans.append((start, index))
        elif char == "]" and depth == 0:
            break
    return spans
