"""huggingface.js `packages/tasks/src/hardware.ts`: `SKUS`, nested by kind, vendor and SKU name, each with `tflops` and
`memory` options.

Field meanings from the file's own `HardwareSpec` doc comment: `tflops` is an "Approximate value, in FP16 whenever
possible for GPUs ... only approximate/theoretical", taken from techpowerup.com (which lists the non-tensor rate for
many GPUs); `memory` lists the memory options in GB ("an A100 exists in 40 or 80 GB"). Both are documented loosely, so a
value matching none of the data's figures is unmatched rather than wrong; a value equal to an older figure, a sparse
peak or another part's figure is still found. Only the `GPU` section is read.
"""

from __future__ import annotations

import re

from specdb.audit import fields as meaning
from specdb.audit.fields import Field, UnreadableTable
from specdb.audit.typescript import code_of
from specdb.textfile import line_and_column

NAME = "huggingface"
_OPEN = re.compile(r"""(?:"([^"]+)"|'([^']+)'|([A-Za-z_$][\w$]*))\s*:\s*\{""")
_FIELD = re.compile(r"\b(tflops|memory)\s*:\s*(\[[^\]]*\]|[-+\d.eE_]+)")
_NUMBER = re.compile(r"[-+]?\d[\d_]*(?:\.\d+)?(?:[eE][-+]?\d+)?")


def looks_like(path: str, text: str) -> bool:
    return path.endswith(".ts") and "SKUS" in text and "tflops" in text


def read(path: str, text: str) -> list[Field]:
    code = code_of(path, text)
    start = code.find("SKUS")
    if start < 0:
        raise UnreadableTable(path, "no SKUS table", 1, 1)
    found: list[Field] = []
    stack: list[str] = []
    index = code.find("{", start)
    if index < 0:
        raise UnreadableTable(path, "SKUS is not an object", *line_and_column(text, start))
    depth = 0
    for token in re.finditer(r"""(?:"[^"\n]*"|'[^'\n]*'|[A-Za-z_$][\w$]*)\s*:\s*\{|\{|\}|\b(?:tflops|memory)\s*:""", code[index:]):
        at = index + token.start()
        chunk = token.group()
        if chunk.endswith("{"):
            opened = _OPEN.match(chunk)
            stack.append(next(name for name in opened.groups() if name) if opened else "")
            depth += 1
        elif chunk == "}":
            depth -= 1
            stack.pop()
            if depth == 0:
                break
        elif len(stack) >= 4 and stack[1] == "GPU":
            found.extend(_fields(text, code, at, stack))
    return found


def _fields(text: str, code: str, at: int, stack: list[str]) -> list[Field]:
    match = _FIELD.match(code, at)
    if match is None:
        return []
    key, body = match.groups()
    part, path = stack[-1], ".".join(["SKUS", *stack[1:]])
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
