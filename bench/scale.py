"""Build at scale, as whole processes, against a floor that does the same inserts with no validation.

Usage: python bench/scale.py [--sizes 10000 100000] [--runs 3] [--data synthetic realistic]

For each data set and size (a number of figures):
  synthetic   bench/synthetic.py: 10 figures a record, one source
  realistic   the bundled specs copied until they hold that many figures, ids
              and aliases renamed (bench/synthetic.py --realistic)

Each round runs, interleaved so that a busy machine weighs on both alike:
  floor       parse every file with PyYAML's C loader (bytes in) and insert
              the same rows into the same schema (specdb/schema.sql): every
              table and column, citations and claims included, in one
              transaction, then PRAGMA integrity_check and foreign_key_check
  full build  specdb build into a new database
  no change   specdb build again (nothing to do)
  read        specdb stale --since 2026-07 on the same database
The first two swap places every round. Each process is measured by its own
CPU time (user + system, from the kernel's accounting of the child), wall
time and peak resident memory; the medians are printed. Targets: full build
within 1.3x the floor's CPU time and 2x its peak memory; a no-change rebuild
no slower than a read command.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from linearity import marginal

HERE = Path(__file__).resolve().parent
SCHEMA = HERE.parent / "specdb" / "schema.sql"
FLOOR = r"""
import os, sqlite3, sys, yaml
specs, db, schema = sys.argv[1:4]
# In the order of ids (each file is named by its record's id), one file at a time, as the build goes.
paths = sorted((name[:-5], os.path.relpath(os.path.join(folder, name), specs)) for folder, _, names in os.walk(specs)
               for name in names if name.endswith(".yaml") and name != "policy.yaml")
def records():
    for _, relpath in paths:
        with open(os.path.join(specs, relpath), "rb") as handle:
            yield relpath, yaml.load(handle.read(), Loader=yaml.CSafeLoader)
text = lambda value: None if value is None else str(value)
connection = sqlite3.connect(db, isolation_level=None)
connection.executescript(open(schema).read())
columns = {table: [row[1] for row in connection.execute(f"PRAGMA table_info({table})")] for table in
           ("meta", "record", "source", "alias", "record_use", "figure", "collective_run", "claim", "citation")}
rows = {table: [] for table in columns}
def add(table, **values):
    rows[table].append(tuple(values.get(column) for column in columns[table]))
    if len(rows[table]) >= 5000:
        flush(table)
def flush(table):
    connection.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(columns[table]))})", rows[table])
    rows[table].clear()
def quantity(value):
    number, _, unit = str(value).partition(" ")
    return float(number.replace(",", "")), unit
figure_id = claim_id = citation_id = 0
def cite(citations, figure, claim):
    global citation_id
    for position, citation in enumerate(citations or ()):
        citation_id += 1
        add("citation", id=citation_id, figure_id=figure, claim_id=claim, position=position, source_id=citation["ref"],
            quote=citation.get("quote"), locator=text(citation.get("locator")), note=citation.get("note"))
connection.execute("BEGIN")
add("meta", key="content_hash", value="floor")
for relpath, data in records():
    if data["kind"] == "source":
        add("source", id=data["id"], name=data["name"], publisher=data["publisher"], url=data.get("url"), citation=data.get("citation"),
            published=text(data.get("published")), accessed=text(data.get("accessed")), notes=data.get("notes"), path=relpath)
        continue
    add("record", id=data["id"], kind=data["kind"], name=data["name"], vendor=data.get("vendor"), family=data.get("family"),
        released=text(data.get("released")), released_date=text(data.get("released")), notes=data.get("notes"), path=relpath)
    for alias in data.get("aliases") or ():
        add("alias", alias_key=str(alias).casefold(), alias=str(alias), record_id=data["id"])
    for role, target in sorted((data.get("uses") or {}).items()):
        add("record_use", record_id=data["id"], role=role, target_id=target)
    for name, body in sorted((data.get("figures") or {}).items()):
        figure_id += 1
        value, unit = quantity(body["value"])
        derived = body.get("derived") or {}
        add("figure", id=figure_id, record_id=data["id"], name=name, value_text=str(body["value"]), value=value, unit=unit, dimension=unit,
            direction=body.get("direction"), scope=body.get("scope"), status=body["status"], as_of=text(body["as_of"]),
            as_of_text=text(body["as_of"]), reviewed=text(body["reviewed"]), reviewed_text=text(body["reviewed"]),
            precision=body.get("precision"), sparsity=body.get("sparsity"), method=body.get("method"), note=body.get("note"),
            uncertainty=body.get("uncertainty"), derived_product=" ".join(derived.get("product") or ()) or None,
            derived_factor=derived.get("factor"))
        run = body.get("collective")
        if run:
            add("collective_run", figure_id=figure_id, operation=run["operation"], accelerators=run.get("accelerators"),
                size_text=text(run.get("size")), algorithm=run.get("algorithm"), library=run.get("library"), domains=run.get("domains"))
        cite(body.get("sources"), figure_id, None)
        for kind, claims in (("history", body.get("history")), ("alternative", body.get("alternatives"))):
            for position, claim in enumerate(claims or ()):
                claim_id += 1
                value, unit = quantity(claim["value"])
                add("claim", id=claim_id, figure_id=figure_id, claim_kind=kind, position=position, value_text=str(claim["value"]),
                    value=value, unit=unit, status=claim.get("status"), direction=claim.get("direction"), scope=claim.get("scope"),
                    as_of=text(claim.get("as_of")), reviewed=text(claim.get("reviewed")), reason=claim.get("reason"), note=claim.get("note"))
                cite(claim.get("sources"), figure_id, claim_id)
for table in rows:
    flush(table)
connection.execute("COMMIT")
assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
assert connection.execute("PRAGMA foreign_key_check").fetchall() == []
connection.close()
"""


@dataclass(frozen=True)
class Sample:
    cpu: float  # seconds of user + system time
    wall: float
    peak: int  # KiB of resident memory


def run(command: list[str], env: dict[str, str]) -> Sample:
    start = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(command)}\n{process.stderr.read().decode()}")
    return Sample(usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss)


def median(samples: list[Sample]) -> Sample:
    return Sample(statistics.median(s.cpu for s in samples), statistics.median(s.wall for s in samples), int(statistics.median(s.peak for s in samples)))


def measure(data: str, figures: int, runs: int, specdb: str, env: dict[str, str], folder: Path) -> dict[str, Sample]:
    specs = folder / f"{data}-{figures}"
    generate = [sys.executable, str(HERE / "synthetic.py"), str(specs), "--figures", str(figures)]
    subprocess.run(generate + (["--realistic"] if data == "realistic" else []), check=True, stdout=subprocess.DEVNULL)
    db = folder / f"specdb-{data}-{figures}.sqlite"
    floor_db = folder / f"floor-{data}-{figures}.sqlite"
    build = [specdb, "build", "--specs", str(specs), "--db", str(db)]
    commands = {
        "floor": [sys.executable, "-c", FLOOR, str(specs), str(floor_db), str(SCHEMA)],
        "full build": build,
    }
    samples: dict[str, list[Sample]] = {name: [] for name in ("floor", "full build", "no change", "read")}
    for round_number in range(runs):
        order = list(commands) if round_number % 2 == 0 else list(reversed(commands))
        for name in order:
            for path in folder.glob(f"{'floor' if name == 'floor' else 'specdb'}-{data}-{figures}.sqlite*"):
                path.unlink()
            samples[name].append(run(commands[name], env))
        reads = {"no change": build, "read": [specdb, "stale", "--since", "2026-07", "--specs", str(specs), "--db", str(db)]}
        for name in (reads if round_number % 2 == 0 else reversed(reads)):
            samples[name].append(run(reads[name], env))
    return {name: median(values) for name, values in samples.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--data", nargs="+", choices=("synthetic", "realistic"), default=["synthetic", "realistic"])
    args = parser.parse_args()
    specdb = str(Path(sys.executable).with_name("specdb"))
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"load average {os.getloadavg()[0]:.1f}; medians of {args.runs} interleaved rounds")
    with tempfile.TemporaryDirectory() as folder:
        for data in args.data:
            results: dict[int, dict[str, Sample]] = {}
            for figures in args.sizes:
                results[figures] = result = measure(data, figures, args.runs, specdb, env, Path(folder))
                floor, built = result["floor"], result["full build"]
                print(f"\n{data}, {figures} figures:")
                for name, sample in result.items():
                    print(f"  {name:11} cpu {sample.cpu:8.3f} s  wall {sample.wall:8.3f} s  peak {sample.peak / 1024:7.1f} MiB")
                print(f"  full build / floor: cpu {built.cpu / floor.cpu:.2f}x, wall {built.wall / floor.wall:.2f}x, peak memory {built.peak / floor.peak:.2f}x"
                      " (targets 1.3x, 2x)")
                print(f"  no change / read: cpu {result['no change'].cpu / result['read'].cpu:.2f}x, wall {result['no change'].wall / result['read'].wall:.2f}x")
            if len(results) > 1:
                for name in ("full build", "floor"):
                    print(marginal(f"{data} {name}", {size: (result[name].cpu, result[name].peak * 1024) for size, result in results.items()}))


if __name__ == "__main__":
    main()
