"""Peak-FLOPS tables in Python source, as training libraries keep them to compute MFU.

Two shapes are read, from the syntax tree (the file is never run):
- a dict keyed by device name whose values are dicts keyed by number format (`torch.bfloat16`, `"tfloat32"`, `"int8"`),
  as Lightning's `src/lightning/fabric/utilities/throughput.py` writes `_CUDA_FLOPS`, nested deeper by platform or
  vendor, or by number format first; a flat dict of device name to FLOP/s is one rate per device, which Lightning's
  `_TPU_FLOPS` documents as "the same for all precisions";
- a function that returns a number under `if "NAME" in device_name:` tests (or `==`, `.startswith`), as torchtitan's
  `get_peak_flops` (`torchtitan/tools/utils.py`) does, nesting tests for the variant ("NVL", "PCIe") and an `else`
  for the rest; or that assigns it there to a name saying it is the rate (VeOmni's `get_device_flops`: `flops = 989e12`
  in an `if`/`elif` chain, returned after it), a name saying its unit (`peak_tflops = 989`) holding numbers in that unit.
A dict's keys that name what a rate is (`"compute_ability"`, `"flops"`) are neither device nor format, and a key naming
another quantity (`"bandwidth"`, `"memory"`) holds no peak.
Numbers may be written with constants the module names at its top (`TERA = 1e12`), a device's rates may be a dict the
module names at its top (Composer's `'h100-sxm': _HSERIES_SXM`, read where that dict writes them), and a table named for
its unit (`PEAK_TFLOPS`) holds numbers in that unit. A number format may carry Composer's prefix for mixed precision
(`amp_bf16` is BF16).
Both libraries divide achieved FLOP/s by these numbers for MFU, so each is a dense peak: Lightning's table promises
dense figures in its docstring of `get_available_flops`, and torchtitan notes "Specifications are one-half lower without
sparsity". A flat rate or a returned rate is the 16-bit one (BF16, else FP16).
"""

from __future__ import annotations

import ast
import operator
import re
from dataclasses import replace

from specdb.audit import fields as meaning
from specdb.audit.fields import Field, UnreadableTable

NAME = "pyflops"
_DTYPES = {
    "bfloat16": "bf16", "bf16": "bf16", "float16": "fp16", "half": "fp16", "fp16": "fp16", "tf16": "fp16", "int8": "int8",
    "float8": "fp8", "fp8": "fp8", "float8_e4m3fn": "fp8", "tfloat32": "tf32", "tf32": "tf32", "fp4": "fp4",
}
# Words of a key that names the rate itself, not a device or a number format (torchtitan's `{"h100": {"flops": 989e12,
# "source": ...}}`, timeflies' `{"H100": {"compute_ablility": {"bfloat16": ...}}}`).
_RATE_WORDS = frozenset(("flops", "tflops", "tops", "peak", "compute", "throughput"))
# The words a key naming a number format's rate may add to it ("fp8_peak_tops", "bf16_tflops", "dense_fp8_flops").
_RATE_KEY_WORDS = _RATE_WORDS | {"tops", "ops", "pflops", "dense", "tensor", "tc"}
# Words of a key that names another quantity of the device, whose numbers are no peak rate (timeflies' "bandwidth").
_OTHER_QUANTITY_WORDS = frozenset(("bandwidth", "bw", "memory", "mem", "capacity", "power", "tdp", "clock", "latency",
                                   "gips", "ips", "gbps", "tbps", "mhz", "ghz",
                                   "pct", "percent", "fraction", "ratio", "efficiency", "utilization", "mfu"))
# Words of a variable's name saying it holds the device's peak rate, where a function assigns it under device tests.
_RATE_NAME = re.compile(r"flops?", re.IGNORECASE)
# Number formats whose peaks the data does not record: their keys are neither a format judged nor a device.
_OTHER_FORMATS = frozenset(("fp32", "float32", "fp64", "float64", "double", "int4", "fp6", "nvfp4", "mxfp4", "mxfp6", "mxfp8", "int16"))
_SMALLEST = 1e11  # FLOP/s: a number below this is not an accelerator's peak
# A rate of a number format written with no unit (`"bf16": 1979 // 2`, `'Flops': 989`, `tops={torch.bfloat16: 1979.0}`):
# no accelerator's peak is below 1e11 FLOP/s, so a number from 10 to 100,000 can only be in TFLOPS (one in GFLOPS would be
# a part of under 100 TFLOPS, which the data's 16- and 8-bit peaks are not).
_TFLOPS_WRITTEN = (10.0, 1e5)
# Words of a key or keyword naming the unit of the rates under it (`gemm_tflops`, `fp16_tflops`, `tops`).
_KEY_UNIT_WORDS = {"tops": 1e12}  # beside the FLOP units a table's name may give (_NAMED_UNITS)
_TENSOR_PREFIXED = frozenset(("tf16", "tf64"))
_FLOAT8 = re.compile(r"float8_e(?:4m3|5m2)\w*")
# Keys or keywords of a record that give its device's name (`{"name": "H100 SXM", ...}`, `DeviceLimit(name="H100")`).
_NAME_KEYS = frozenset(("name", "device", "device_name", "gpu", "gpu_name", "model"))
_NAMED_UNITS = (("pflop", 1e15), ("tflop", 1e12), ("gflop", 1e9))
_OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
              ast.FloorDiv: operator.floordiv, ast.Pow: operator.pow}


def looks_like(path: str, text: str) -> bool:
    return path.endswith(".py")


def read(path: str, text: str) -> list[Field]:
    try:
        tree = ast.parse(text)
    except SyntaxError as error:
        raise UnreadableTable(path, f"Python syntax: {error.msg}", error.lineno or 0, error.offset or 0) from None
    constants = _constants(tree)
    dicts = _module_dicts(tree)
    found: list[Field] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Dict):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            name = ast.unparse(targets[0])
            found.extend(_table(text, name, node.value, constants, dicts))
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, (ast.Tuple, ast.List)):
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            found.extend(_rows(text, ast.unparse(target), node.value, constants, dicts))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.extend(_returns(text, node.name, node.body, [], constants))
    return found


def _constants(tree: ast.Module) -> dict[str, float]:
    """Numbers the module names once at its top (`TERA = 10**12`), for tables written in them."""
    constants: dict[str, float] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value = _number(node.value, constants)
            if value is not None:
                constants[node.targets[0].id] = value
    return constants


def _module_dicts(tree: ast.Module) -> dict[str, ast.Dict]:
    """Dicts the module names once at its top, which a table may give as a device's rates (`'h100-sxm': _HSERIES_SXM`)."""
    return {node.targets[0].id: node.value for node in tree.body
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Dict)}


def _number(node: ast.AST, constants: dict[str, float] | None = None) -> float | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.Name) and constants and node.id in constants:
        return constants[node.id]
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        left, right = _number(node.left, constants), _number(node.right, constants)
        if left is None or right is None or (isinstance(node.op, (ast.Div, ast.FloorDiv)) and right == 0):
            return None
        try:
            return float(_OPERATORS[type(node.op)](left, right))
        except OverflowError:
            return None
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("int", "float", "round")
            and len(node.args) == 1 and not node.keywords):
        return _number(node.args[0], constants)  # `int(1979e12 * dense_correction)`: the number, whole
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _number(node.operand, constants)
        return None if inner is None else -inner
    return None


def _dtype(node: ast.AST) -> str | None:
    """The number format a key names: the whole key (`torch.bfloat16`, `"int8"`), or one word of a key that otherwise names
    the rate (torchao's `"fp8_peak_tops"`, `"bf16_peak_tops"`)."""
    word = node.attr if isinstance(node, ast.Attribute) else node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
    if not word:
        return None
    whole = _DTYPES.get(_format_word(word))
    if whole is not None:
        return whole
    if _FLOAT8.fullmatch(_format_word(word)):
        return "fp8"  # torch's FP8 matmul types (float8_e4m3fnuz, float8_e5m2); float8_e8m0fnu is a scale format
    words = [part for part in re.split(r"[_\-\s]+", word.lower()) if part]
    formats = {_DTYPES[part] for part in words if part in _DTYPES}
    rest = {part for part in words if part not in _DTYPES}
    return formats.pop() if len(formats) == 1 and rest and rest <= _RATE_KEY_WORDS else None


def _format_word(word: str) -> str:
    """A number format's key as the tables spell it apart from the prefix of automatic mixed precision ('amp_bf16') or
    of torch's dtypes written as a string ('torch.tf32')."""
    return word.lower().removeprefix("amp_").removeprefix("torch.")


def _field(text: str, node: ast.AST, key: str, value: float, part: str, quantity: str, unit_scale: float = 1.0,
           said: str = "") -> Field:
    written = ast.get_source_segment(text, node) or repr(value)
    scale, unit = (unit_scale, "") if unit_scale != 1.0 else _notation(node, written)
    share = bool(_SHARE.search(f"{said} {_comments(text, node.lineno)}"))
    return Field(node.lineno, node.col_offset + 1, key, written, value * unit_scale, scale, unit, part, quantity,
                 share_of_part=share)


# What a comment says when its rate is one die's, core's or device's share of the part: torchtitan's MI250X "(per
# GCD)", its Trainium "90 BF16 TFLOPS/core" and TPU v7 "halve for per-device", Composer's Trainium "Numbers are halved
# as ... each chip appears as 2 devices".
_SHARE = re.compile(r"\bper[- ](?:gcd|die|core|chiplet|tile|neuroncore|tensorcore)\b|/core\b|\bhalve[ds]?\b"
                    r"|\bappears as \d+ devices\b|\bas a separate device\b", re.IGNORECASE)


def _comments(text: str, line: int) -> str:
    """The comment on a line and the comment lines directly above it."""
    lines = text.splitlines()
    said = [lines[line - 1].partition("#")[2]] if "#" in lines[line - 1] else []
    above = line - 2
    while above >= 0 and lines[above].lstrip().startswith("#"):
        said.append(lines[above].lstrip()[1:])
        above -= 1
    return " ".join(said)


def _notation(node: ast.AST, written: str) -> tuple[float, str]:
    """How the file writes a rate, for a replacement written alike: `989e12` (scale 1e12, 'e12'), `989 * TERA`."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult) and isinstance(node.right, ast.Name):
        return 1.0, ""
    exponent = re.fullmatch(r"[\d.]+e\+?(\d+)", written.replace("_", ""))
    return (10.0 ** int(exponent.group(1)), f"e{exponent.group(1)}") if exponent else (1.0, "")


def _table(text: str, name: str, table: ast.Dict, constants: dict[str, float], dicts: dict[str, ast.Dict]) -> list[Field]:
    """A table's rates; a table named for its unit (`PEAK_TFLOPS`, `gpu_tflops`) holds numbers in that unit."""
    unit_scale = next((scale for word, scale in _NAMED_UNITS if word in name.lower()), 1.0)
    found: list[Field] = []
    _walk(text, name, table, [], None, (constants, dicts), unit_scale, found, "")
    return found


def _entries(table: ast.Dict | ast.Call) -> list[tuple[ast.expr, ast.expr]]:
    """A dict's keys and values, or a record's keywords as string keys (`DeviceInfo(tops={...}, dram_gb=80)`)."""
    if isinstance(table, ast.Dict):
        return [(key, value) for key, value in zip(table.keys, table.values) if key is not None]
    return [(ast.copy_location(ast.Constant(keyword.arg), keyword.value), keyword.value) for keyword in table.keywords if keyword.arg]


def _record_name(table: ast.Dict | ast.Call) -> str | None:
    """The device a record names itself (`{"name": "H100 SXM", ...}`, `DeviceLimit("H100", "https://...", ...)`)."""
    if isinstance(table, ast.Call):
        for argument in table.args:
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str) and "://" not in argument.value:
                return argument.value
    for key, value in _entries(table):
        if (isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value.lower() in _NAME_KEYS
                and isinstance(value, ast.Constant) and isinstance(value.value, str)):
            return value.value
    return None


def _walk(text: str, path: str, table: ast.Dict | ast.Call, devices: list[str], dtype: str | None,
          named_values: tuple[dict[str, float], dict[str, ast.Dict]], unit_scale: float, found: list[Field], said: str,
          rated: bool = False) -> None:
    """Rates at any depth: keys that name a number format give the format, the other keys name the device ("NVIDIA",
    then "A100", is 'NVIDIA A100'), in either order; a record's own name field names it too. A value naming a module's
    dict is that dict, read once per device that names it (never twice on one path, so dicts naming each other end).
    `rated`: a key on the way named the rate or a format, so a unitless number under it is a rate (in TFLOPS)."""
    constants, dicts = named_values
    # dcgm-profiling's `{"fp16": 133.8, "tf16": 1979, "fp64": 34, "tf64": 67}`: where "tf16" or "tf64" stand for the tensor
    # cores' rates, "fp16" and the like are the vector units', which no record holds.
    keys = {key.value.lower() for key, _ in _entries(table) if isinstance(key, ast.Constant) and isinstance(key.value, str)}
    vector_keys = {f"fp{bits}" for bits in ("16", "32", "64")} if keys & _TENSOR_PREFIXED else set()
    own_name = _record_name(table)
    if own_name is not None:
        devices = [*devices, own_name]
    for key, value in _entries(table):
        if isinstance(key, ast.Constant) and not isinstance(key.value, str):
            # `{True: {"NVIDIA H100": NV_H100}}`: a key that is no name (tritonbench's compute-bound switch) names nothing.
            if isinstance(value, (ast.Dict, ast.Call)):
                _walk(text, f"{path}[{ast.unparse(key)}]", value, devices, dtype, named_values, unit_scale, found, said, rated)
            continue
        if isinstance(key, ast.Constant) and isinstance(key.value, str) and (
                key.value.lower() in vector_keys
                or key.value.lower() in _NAME_KEYS and isinstance(value, ast.Constant) and isinstance(value.value, str)):
            continue
        own_dtype = _dtype(key)
        device = key.value if own_dtype is None and isinstance(key, ast.Constant) and isinstance(key.value, str) else None
        key_words = set(re.findall(r"[a-z]+", device.lower())) if device is not None else set()
        key_text = key.value.lower() if isinstance(key, ast.Constant) and isinstance(key.value, str) else ""
        key_scale = next((scale for word, scale in _NAMED_UNITS if word in key_text), None) or next(
            (_KEY_UNIT_WORDS[word] for word in re.split(r"[_\-\s]+", key_text) if word in _KEY_UNIT_WORDS), None)
        if key_words & _OTHER_QUANTITY_WORDS:
            continue
        if key_words & _RATE_WORDS:
            device = None
        elif (own_dtype is None and device is None) or _format_word(device or "") in _OTHER_FORMATS:
            continue
        key_rated = rated or own_dtype is not None or bool(key_words & _RATE_WORDS)
        scale = key_scale or unit_scale
        where = f"{path}[{ast.unparse(key)}]"
        named = [*devices, device] if device else devices
        inner = named_values
        if isinstance(value, ast.Name) and value.id in dicts:
            value = dicts[value.id]
            inner = (constants, {name: other for name, other in dicts.items() if other is not value})
        if isinstance(value, (ast.Dict, ast.Call)):
            _walk(text, where, value, named, own_dtype or dtype, inner, scale, found, f"{said} {_comments(text, key.lineno)}", key_rated)
            continue
        value = _rate_of_record(value, constants)
        rate = _number(value, constants)
        if rate is not None and rate >= _SMALLEST:
            scale = 1.0  # already in FLOP/s, whatever unit a key's name gives ("bf16_peak_tops": 989e12)
        elif rate is not None and scale == 1.0 and key_rated and _TFLOPS_WRITTEN[0] <= rate < _TFLOPS_WRITTEN[1]:
            scale = 1e12
        if not named or rate is None or rate * scale < _SMALLEST:
            continue
        part = " ".join(named)
        # Lightning's `_TPU_FLOPS` is keyed "v4": the table's name says what the part is.
        if "tpu" in path.lower() and "tpu" not in part.lower():
            part = f"TPU {part}"
        found.append(_field(text, value, where, rate, part, meaning.dense(own_dtype or dtype or "16bit"), scale, said))


def _rows(text: str, name: str, table: ast.Tuple | ast.List, constants: dict[str, float], dicts: dict[str, ast.Dict]) -> list[Field]:
    """A sequence of rows each holding a device's name, its rate and perhaps a source address (torchtitan's
    `device_flops = (("A100", 312e12, "https://..."), ...)`): the 16-bit rate of each device; or of records that name
    their device (`[{"name": "H100 SXM", "fp16_tflops": 1979}, ...]`, xformers' `(DeviceLimit("H100", ...), ...)`)."""
    found: list[Field] = []
    for at, row in enumerate(table.elts):
        if isinstance(row, (ast.Dict, ast.Call)) and _record_name(row) is not None:
            _walk(text, f"{name}[{at}]", row, [], None, (constants, dicts), 1.0, found, "")
            continue
        if not isinstance(row, (ast.Tuple, ast.List)):
            continue
        words = [item.value for item in row.elts if isinstance(item, ast.Constant) and isinstance(item.value, str)
                 and "://" not in item.value]
        numbers = [item for item in row.elts if _number(item, constants) is not None]
        if len(words) == 1 and len(numbers) == 1 and (_number(numbers[0], constants) or 0) >= _SMALLEST:
            found.append(_field(text, numbers[0], f"{name}[{words[0]!r}]", _number(numbers[0], constants) or 0.0, words[0],
                                meaning.dense("16bit")))
    return found


def _rate_of_record(value: ast.AST, constants: dict[str, float]) -> ast.AST:
    """The number in a tuple holding one beside its source (torchtitan's `"A100": (312e12, "https://...")`), else the value."""
    if isinstance(value, (ast.Tuple, ast.List)):
        numbers = [item for item in value.elts if _number(item, constants) is not None]
        if len(numbers) == 1:
            return numbers[0]
    return value


def _names(test: ast.AST) -> tuple[list[str], str]:
    """The device names an `if` tests for, and what it tests them in: `"H100" in name`, `name == "H100"`,
    `name.startswith("H100")`, `name in ("trn1", "trn1n")`; several joined by `or` are several names, by `and` one name
    ("H100" and "NVL": 'H100 NVL')."""
    if isinstance(test, ast.BoolOp):
        parts = [_names(value) for value in test.values]
        subject = next((tested for _, tested in parts if tested), "")
        if isinstance(test.op, ast.Or):
            return [name for names, _ in parts for name in names], subject
        if all(len(names) == 1 for names, _ in parts):
            return [" ".join(names[0] for names, _ in parts)], subject
        return [], ""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.In, ast.Eq)):
        left, right = test.left, test.comparators[0]
        for side, other in ((left, right), (right, left)) if isinstance(test.ops[0], ast.Eq) else ((left, right),):
            if isinstance(side, ast.Constant) and isinstance(side.value, str):
                return [side.value], ast.unparse(other)
        if isinstance(test.ops[0], ast.In) and isinstance(right, (ast.Tuple, ast.List, ast.Set)):
            names = [item.value for item in right.elts if isinstance(item, ast.Constant) and isinstance(item.value, str)]
            return (names, ast.unparse(left)) if len(names) == len(right.elts) else ([], "")
    if (isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute) and test.func.attr in ("startswith", "endswith")
            and len(test.args) == 1 and isinstance(test.args[0], ast.Constant) and isinstance(test.args[0].value, str)):
        return [test.args[0].value], ast.unparse(test.func.value)
    return [], ""


def _returns(text: str, function: str, body: list[ast.stmt], context: list[tuple[str, str]],
             constants: dict[str, float], fallback: bool = False) -> list[Field]:
    """The rates returned, or assigned to a name saying it is the rate, under `if` tests, each for the names tested on
    the way to it: a test of the same string narrows the name ("H100", then "NVL" in it, is 'H100 NVL'), a test of
    another string names the device anew (torchtitan tests "neuron" in the device's name, then the chip's own name in
    ("trn1", "trn1n")). A rate given in the `else` of such tests is a fallback for devices none of them names ("for H100
    SXM and other variants", "fallback to A100"): it is judged as documented loosely."""
    found: list[Field] = []
    constants = dict(constants)
    for statement in body:
        if isinstance(statement, ast.If):
            names, subject = _names(statement.test)
            if names:
                for name in names:
                    narrowed = [*context, (name, subject)] if not context or context[-1][1] == subject else [(name, subject)]
                    found.extend(_returns(text, function, statement.body, narrowed, constants))
                # An `else` whose comment names the device it assumes gives that device's rate, not a loose fallback.
                assumed = [] if context else _assumed(text, statement)
                found.extend(_returns(text, function, statement.orelse, context or assumed, constants, fallback=not assumed))
            else:
                # A test of something other than the device (`if using_half_precision:`) leaves the device as it was.
                found.extend(_returns(text, function, statement.body, context, constants, fallback))
                found.extend(_returns(text, function, statement.orelse, context, constants, fallback))
        elif (isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name)
              and not _RATE_NAME.search(statement.targets[0].id) and (number := _number(statement.value, constants)) is not None):
            constants[statement.targets[0].id] = number  # `dense_correction = 0.5`, used in the rates below it
        elif context and (given := _given_rate(statement)) is not None:
            value, unit_scale = given
            rate = _number(value, constants)
            if rate is not None and rate * unit_scale >= _SMALLEST:
                part = " ".join(name for name, _ in context)
                found.append(replace(_field(text, value, f"{function}({part!r})", rate, part, meaning.dense("16bit"), unit_scale),
                                     loose=fallback))
    return found


def _given_rate(statement: ast.stmt) -> tuple[ast.AST, float] | None:
    """The value a statement under a device test gives as the rate, with the scale of the unit it is in: a value
    returned, or one assigned to a single name that says it is the rate (`flops = 989e12`, `peak_tflops = 989`)."""
    if isinstance(statement, ast.Return) and statement.value is not None:
        return statement.value, 1.0
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
    elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
        target = statement.target
    else:
        return None
    # A name, or an attribute of an object (`self.device_peak_flops_per_second = ...`, OLMo-core's speed monitor).
    name = target.id if isinstance(target, ast.Name) else target.attr if isinstance(target, ast.Attribute) else ""
    if not _RATE_NAME.search(name):
        return None
    return statement.value, next((scale for word, scale in _NAMED_UNITS if word in name.lower()), 1.0)


# The device a final `else` assumes, in its comment ("# for other GPU types, assume A100", "# fallback to A100").
_ASSUMED = re.compile(r"\b(?:assum(?:e|es|ing)|fall\s*back\s+to|fallback\s+to|defaults?\s+to)\s+(?:an?\s+|the\s+)?([A-Za-z]+[\w-]*\d[\w-]*)",
                      re.IGNORECASE)


def _assumed(text: str, test: ast.If) -> list[tuple[str, str]]:
    """The device named in the comment of a top-level `else` after device tests, as the context of its rate; else none."""
    if not test.orelse or isinstance(test.orelse[0], ast.If):
        return []
    lines = text.splitlines()[test.body[-1].end_lineno or test.body[-1].lineno:test.orelse[0].lineno]  # `else:` to the rate
    said = _ASSUMED.search(" ".join(line.partition("#")[2] for line in lines))
    return [(said.group(1), "")] if said else []
