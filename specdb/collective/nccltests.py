"""Read the text output of an nccl-tests (or rccl-tests) run and write it as measured figures to review and commit.

A run prints one row per message size: size, count, type, [redop, root,]
then time, algbw, busbw and #wrong out of place and again in place. Two rows
become figures: the largest size (what the efficiency is derived from) and,
when the sweep reaches down to it, the size nearest 1 MiB below the
large-message threshold (what the latency is derived from). Each cites the
log line it comes from.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

from specdb.collective.calibration import LARGE_MESSAGE
from specdb.errors import UsageError

_TEST = re.compile(r"Collective test starting:\s*(\w+)_perf")
_LIBRARY = re.compile(r"^\s*#?\s*(NCCL|RCCL) version\s+(\S+)")
_RANK = re.compile(r"^#\s*Rank\s+(\d+)\s.*?\bon\s+(\S+)\s+device\s+\d+\s+\[[^\]]*\]\s+(.+?)\s*$")
_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_DIGITS = re.compile(r"[0-9]+")
# More digits than any size a run can send (validation bounds sizes at 1 ZB, 22 digits).
_SIZE_DIGITS = 30
OPERATIONS = {"all_reduce": "all-reduce", "all_gather": "all-gather", "reduce_scatter": "reduce-scatter", "alltoall": "all-to-all", "sendrecv": "point-to-point"}
SMALL_MESSAGE = 2**20
# A run prints a few kB (NCCL_DEBUG=INFO on thousands of ranks some MB): a file past this is no log, and /dev/zero never ends.
MAX_LOG_BYTES = 64 * 2**20


@dataclass(frozen=True)
class Row:
    line: int
    text: str
    size: int
    busbw_gbps: float


@dataclass(frozen=True)
class Log:
    operation: str | None
    library: str | None
    hosts: list[str]
    devices: list[str]
    rows: list[Row]


def read_log(path: Path) -> str:
    """The text of a log (a file, or a pipe such as a shell's process substitution); what cannot be read as one is a usage error."""
    from specdb.textfile import read_text

    return read_text(str(path), MAX_LOG_BYTES, name_instead="the log to import", too_large="more than the output of one run")


def parse(text: str, name: str) -> Log:
    """The rows and header facts of one run's log; a log without a result table, or holding a second run, is a usage error naming the file and line."""
    rows: list[Row] = []
    first_row_of_size: dict[int, int] = {}
    ranks: dict[int, tuple[str, str]] = {}
    test = library = None
    for number, line in enumerate(text.splitlines(), start=1):
        if found := _TEST.search(line):
            if test is not None:
                raise _second_run(name, number, "a second 'Collective test starting' line")
            test = found.group(1)
        elif found := _RANK.match(line):
            rank = int(found.group(1))
            if rank in ranks:
                raise _second_run(name, number, f"rank {rank} is listed a second time")
            ranks[rank] = (found.group(2), found.group(3))
        elif found := _LIBRARY.match(line):
            library = library or f"{found.group(1)} {found.group(2)}"
        elif row := _row(line, number, name):
            if row.size in first_row_of_size:
                raise _second_run(name, number, f"a second row for {row.size} bytes (the first is line {first_row_of_size[row.size]})")
            first_row_of_size[row.size] = number
            rows.append(row)
    if not rows:
        raise UsageError(f"{name}: no nccl-tests result table found (rows of size, count, type, time, algbw, busbw)")
    return Log(
        OPERATIONS.get(test) if test else None,
        library,
        sorted({host for host, _ in ranks.values()}),
        [device for _, device in ranks.values()],
        rows,
    )


def _row(line: str, number: int, name: str) -> Row | None:
    """The result row on a line, or None for a line that is not one; a line that begins like one but is malformed is a usage error."""
    fields = line.split()
    if not fields or line.lstrip().startswith("#") or not _DIGITS.fullmatch(fields[0]):
        return None
    # From the end: in place #wrong, busbw, algbw, time; then the same out of place.
    measured = (fields[-7], fields[-6], fields[-3], fields[-2]) if len(fields) >= 10 else ()
    if len(fields[0]) > _SIZE_DIGITS or not measured or not all(_NUMBER.fullmatch(field) for field in measured):
        raise UsageError(f"{name}:{number}: not an nccl-tests result row: '{line.strip()}'")
    if not all(0 <= float(field) < math.inf for field in measured):
        raise UsageError(f"{name}:{number}: a bandwidth that is negative or not finite is not a measurement: '{line.strip()}'")
    return Row(number, line.strip(), int(fields[0]), float(fields[-2]))


def _second_run(name: str, number: int, what: str) -> UsageError:
    return UsageError(f"{name}:{number}: {what}: the log holds more than one run; import each run from a log of its own")


def chosen_rows(log: Log) -> list[Row]:
    """The largest size, and the size nearest 1 MiB among the small ones (when the sweep has one)."""
    largest = max(log.rows, key=lambda row: row.size)
    small = [row for row in log.rows if row.size < LARGE_MESSAGE and row.size != largest.size and row.busbw_gbps > 0]
    nearest = min(small, key=lambda row: abs(row.size - SMALL_MESSAGE), default=None)
    return [largest] + ([nearest] if nearest else [])


def records(log: Log, *, log_name: str, platform: str, record_id: str, operation: str, algorithm: str, accelerators: int, date: str) -> dict[str, str]:
    """The measured-figures record (a cluster record that uses the platform) and its source record, as YAML text by folder."""
    if log.operation is not None and log.operation != operation:
        raise UsageError(f"{log_name} is a {log.operation} run, not {operation}")
    if not log_name.isprintable():  # a control character, or a byte that is not UTF-8 (decoded as a lone surrogate)
        raise UsageError(f"{log_name!r}: the records quote the log's file name, and this one is not printable UTF-8 text; rename the file")
    library = log.library or "NCCL, version not in the log"
    source_id = f"{record_id}-log"
    hosts = f" on {len(log.hosts)} host(s)" if log.hosts else ""
    device = f" {log.devices[0]}" if log.devices else ""
    spans = f", domains: {len(log.hosts)}" if len(log.hosts) > 1 else ""
    figures = []
    for row in chosen_rows(log):
        name = f"measured_{operation.replace('-', '_')}_busbw_{accelerators}gpu_{algorithm}_{row.size}b"
        method = (f"nccl-tests {operation.replace('-', '_')}_perf on {accelerators}{device} GPUs{hosts} with algorithm {algorithm}; "
                  f"in-place busbw at {row.size} bytes ({log_name}, line {row.line})")
        figures.append(
            f"  {name}:\n"
            f"    value: {row.busbw_gbps:g} GB/s\n"
            "    direction: per-direction\n"
            "    scope: per-accelerator\n"
            "    status: measured\n"
            f"    as_of: {date}\n"
            f"    reviewed: {date}\n"
            f"    method: {json.dumps(method)}\n"
            f"    collective: {{operation: {operation}, accelerators: {accelerators}, size: {row.size} B, algorithm: {algorithm}, library: {json.dumps(library)}{spans}}}\n"
            "    sources:\n"
            f"      - ref: {source_id}\n"
            f"        quote: {json.dumps(row.text)}\n"
            f"        locator: line {row.line}\n"
        )
    record = (
        "schema: 2\n"
        f"id: {record_id}\n"
        "kind: cluster\n"
        f"name: {json.dumps(f'{platform} nccl-tests run of {date}')}\n"
        "vendor: measured\n"
        f"uses: {{system: {platform}}}\n"
        f"notes: {json.dumps(f'{operation} bus bandwidth measured with nccl-tests on {accelerators} GPUs of {platform}; written by specdb import nccl-tests from {log_name}.')}\n"
        "figures:\n" + "".join(figures)
    )
    source = (
        "schema: 2\n"
        f"id: {source_id}\n"
        "kind: source\n"
        f"name: {json.dumps(f'nccl-tests output {log_name}')}\n"
        "publisher: measured\n"
        f"citation: {json.dumps(f'nccl-tests log {log_name}, kept beside these specs')}\n"
        f"published: {date}\n"
    )
    return {"cluster": record, "source": source}
