"""NVIDIA AIConfigurator's `systems/*.yaml`: a `gpu` section for the accelerator and a `node` section for the platform.

Field meanings as AIConfigurator's own files comment them (e.g. `src/aiconfigurator/systems/h200_sxm.yaml` and, in the
layout of 2026, `aic-core/src/aiconfigurator_core/systems/gb200.yaml`): SI units; `mem_bw` in B/s, `mem_capacity` in
bytes ("# 141GiB"), `*_tc_flops` dense tensor FLOP/s, `power` in W; node bandwidths "Byte/s per GPU, single direction".
`get_p2p_bandwidth` takes `intra_node_bw` up to `num_gpus_per_node`, `inter_node_bw` up to `num_gpus_per_rack` (the
NVLink domain of a rack-scale system, "NVLink via NVSwitch within rack"), then `inter_rack_bw`; without a rack,
`inter_node_bw` is the scale-out network ("1:1 CX7 per node"). On PCIe cards the files give `intra_node_bw` as the
PCIe rate ("PCIe Gen5 x16 without NVLink"): where its comment names PCIe it is judged as the host link one way, loosely,
since files model PCIe's protocol overhead in their own ways ("limited by line rate and TLP header"). A PCIe generation
the comment names ("pcie 6.0") is the link the file means. The gpu keys are the exporter's own table
(`specdb.export.aiconfigurator.GPU_FIGURES`), so export and audit read a key alike; `float16_tc_flops` is the name the
older layout gave the 16-bit rate (renamed `bfloat16_tc_flops` in AIConfigurator's PR 895).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from specdb.audit import fields as meaning
from specdb.audit.fields import Field, UnreadableTable, figure_meaning
from specdb.export.aiconfigurator import GPU_FIGURES
from specdb.load.yamlread import parse_yaml

NAME = "aiconfigurator"
GPU_MEANINGS = {key: figure_meaning(figure) for key, figure in GPU_FIGURES} | {"float16_tc_flops": meaning.dense("16bit")}


def looks_like(path: str, text: str) -> bool:
    return path.endswith((".yaml", ".yml")) and "\ngpu:" in f"\n{text}" and "\nnode:" in f"\n{text}"


def read(path: str, text: str) -> list[Field]:
    # AIConfigurator loads these files with PyYAML, which takes a key written twice at its last value.
    located, problems = parse_yaml(text.encode("utf-8"), last_duplicate_wins=True)
    if located is None:
        problem = problems[0]
        raise UnreadableTable(path, problem.message, problem.line, problem.column)
    data = located.data
    if not isinstance(data, dict) or not isinstance(data.get("gpu"), dict):
        raise UnreadableTable(path, "not an AIConfigurator system file: no 'gpu' mapping", 1, 1)
    part = _part(path, data)
    node = data.get("node") if isinstance(data.get("node"), dict) else {}
    node_meanings = {
        "intra_node_bw": meaning.SCALE_UP_PER_DIRECTION,
        "inter_node_bw": meaning.SCALE_UP_PER_DIRECTION if "num_gpus_per_rack" in node else meaning.SCALE_OUT_PER_DIRECTION,
        "inter_rack_bw": meaning.SCALE_OUT_PER_DIRECTION,
        "pcie_bw": meaning.HOST_LINK_PER_DIRECTION,
    }
    found = []
    for section, meanings in (("gpu", GPU_MEANINGS), ("node", node_meanings)):
        for key, value in (data.get(section) or {}).items():
            number = _number(value)
            if key in meanings and number is not None:
                line, column = located.where((section, key))
                written = _written(text, line, column)
                comment = _comment(text, line)
                over_pcie = key == "intra_node_bw" and bool(_PCIE.search(comment))
                generation = _GENERATION.search(comment) if over_pcie or key == "pcie_bw" else None
                found.append(Field(line, column, f"{section}.{key}", written, number, 1.0, "", part,
                                   meaning.HOST_LINK_PER_DIRECTION if over_pcie else meanings[key], loose=over_pcie,
                                   link=f"PCIe {generation.group(1)}" if generation else ""))
    return found


_PCIE = re.compile(r"\bpcie\b", re.IGNORECASE)
# The PCIe generation a comment names: "pcie 5.0", "PCIe Gen5 x16", "(pcie 4.0)".
_GENERATION = re.compile(r"\bpcie\s*(?:gen\s*)?(\d)(?:\.0)?\b", re.IGNORECASE)


def _comment(text: str, line: int) -> str:
    return text.splitlines()[line - 1].partition("#")[2]


def _number(value: Any) -> float | None:
    """A scalar as a number (the YAML reader keeps every scalar as its text, constructing nothing)."""
    try:
        return float(str(value).replace("_", ""))
    except ValueError:
        return None


def _part(path: str, data: dict[str, Any]) -> str:
    """The system's name: the last folder of `data_dir` ('data/h200_sxm'), else the file's name."""
    data_dir = data.get("data_dir")
    if isinstance(data_dir, str) and data_dir.strip("/"):
        return data_dir.strip("/").split("/")[-1]
    return Path(path).stem


def _written(text: str, line: int, column: int) -> str:
    rest = text.splitlines()[line - 1][column - 1:]
    return rest.split("#")[0].strip()
