"""huggingface.js `packages/tasks/src/hardware.ts`: `SKUS`, nested by kind, vendor and SKU name, each with `tflops` and
`memory` options; and the vendor tables it was later split into (`hardware-amd.ts`'s `AMD_GPU_SKUS`,
`hardware-nvidia.ts`'s `NVIDIA_SKUS`, `hardware-gpu-*.ts`), each a `*_SKUS` object keyed by SKU name.

Field meanings from the file's own `HardwareSpec` doc comment: `tflops` is an "Approximate value, in FP16 whenever
possible for GPUs ... only approximate/theoretical", taken from techpowerup.com (which lists the non-tensor rate for
many GPUs); `memory` lists the memory options in GB ("an A100 exists in 40 or 80 GB"). Both are documented loosely, so a
value matching none of the data's figures is unmatched rather than wrong; a value equal to an older figure, a sparse
peak or another part's figure is still found. Only GPUs are read: the `GPU` section of `SKUS`, and the `*_SKUS` tables
whose name does not say CPU.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from specdb.audit import fields as meaning
from specdb.audit.fields import Field, UnreadableTable
from specdb.audit.typescript import code_of
from specdb.textfile import line_and_column

NAME = "huggingface"
_OPEN = re.compile(r"""(?:"([^"]+)"|'([^']+)'|([A-Za-z_$][\w$]*))\s*:\s*\{""")
_FIELD = re.compile(r"\b(tflops|memory)\s*:\s*(\[[^\]]*\]|[-+\d.eE_]+)")
_NUMBER = re.compile(r"[-+]?\d[\d_]*(?:\.\d+)?(?:[eE][-+]?\d+)?")


# `export const SKUS = {`, `export const AMD_GPU_SKUS: Record<string, AmdGpuHardwareSpec> = {`.
_TABLE = re.compile(r"\bconst\s+(\w*SKUS)\b[^=;{]*=\s*\{")


def looks_like(path: str, text: str) -> bool:
    return path.endswith(".ts") and "SKUS" in text and "tflops" in text


def read(path: str, text: str) -> list[Field]:
    code = code_of(path, text)
    tables = list(_TABLE.finditer(code))
    if not tables:
        start = code.find("SKUS")
        raise UnreadableTable(path, "no SKUS object", *(line_and_column(text, start) if start >= 0 else (1, 1)))
    found: list[Field] = []
    for table in tables:
        name = table.group(1)
        if name == "SKUS":
            found.extend(_table(text, code, table.end() - 1, name, lambda stack: len(stack) >= 4 and stack[1] == "GPU"))
        elif "CPU" not in name.upper():
            # A vendor's table is keyed by SKU name at its first level.
            found.extend(_table(text, code, table.end() - 1, name, lambda stack: len(stack) >= 2))
    return found


def _table(text: str, code: str, index: int, name: str, is_gpu: Callable[[list[str]], bool]) -> list[Field]:
    """The fields of the object literal opening at `index`, where `is_gpu` accepts the keys leading to an SKU."""
    found: list[Field] = []
    stack: list[str] = []
    depth = 0
    for token in re.finditer(r"""(?:"[^"\n]*"|'[^'\n]*'|[A-Za-z_$][\w$]*)\s*:\s*\{|\{|\}|\b(?:tflops|memory)\s*:""", code[index:]):
        at = index + token.start()
        chunk = token.group()
        if chunk.endswith("{"):
            opened = _OPEN.match(chunk)
            stack.append(next(key for key in opened.groups() if key) if opened else "")
            depth += 1
        elif chunk == "}":
            depth -= 1
            stack.pop()
            if depth == 0:
                break
        elif is_gpu(stack):
            found.extend(_fields(text, code, at, [name, *stack[1:]]))
    return found


def _fields(text: str, code: str, at: int, stack: list[str]) -> list[Field]:
    """The field at `at` of the SKU that `stack` (the table's name, then the keys leading to the SKU) names."""
    match = _FIELD.match(code, at)
    if match is None:
        return []
    key, body = match.groups()
    part, path = stack[-1], ".".join(stack)
    if key == "tflops":
        number = _NUMBER.search(body)
        if number is None:
            return []
        line, column = line_and_column(text, match.start(2) + number.start())
        return [Field(line, column, f"{path}.tflops", number.group(), float(number.group().replace("_", "")) * 1e12, 1e12, "",
                      part, meaning.dense("16bit"), loose=True)]
    found = []
    for index, number in enumerate(_NUMBER.finditer(body)):
        line, column = line_and_column(text, match.start(2) + number.start())
        found.append(Field(line, column, f"{path}.memory[{index}]", number.group(), float(number.group()) * 1e9, 1e9, "",
                           part, meaning.MEMORY_CAPACITY, loose=True, either_gb=True))
    return found
