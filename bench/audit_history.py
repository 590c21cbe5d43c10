"""Whether `specdb audit` reads every version of other projects' hardware tables: each distinct version (blob) of each
file matching the paths given, in every commit of a git repository, is read as `specdb audit` reads it (format told
from the path, the file's fields, each field's part resolved against the data, each field judged without an internal
error). Verdicts are not printed: this measures reading, not judging.

    python bench/audit_history.py GIT_DIR PATHSPEC... [--list]

A PATHSPEC is a git pathspec (`'*/systems/*.yaml'`, `'**/hardware.ts'`). Printed per path pattern: versions read,
versions failing (the message), versions with no field, fields read and how many name a part the data holds, and the
part names nothing in the data answers to, with how many fields carry them. With --list, every version with its commit, format and field count.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

import specdb
from specdb.audit.formats import read
from specdb.audit.judge import Data, judge
from specdb.errors import UsageError

ROOT = Path(__file__).resolve().parent.parent


def versions(git_dir: str, pathspecs: list[str]) -> list[tuple[str, str, str]]:
    """(path, blob, first commit) of each distinct version of each matching file, oldest first."""
    log = subprocess.run(
        ["git", "--git-dir", git_dir, "log", "--all", "--reverse", "--raw", "--no-abbrev", "--no-renames", "--format=commit %H",
         "--", *pathspecs], capture_output=True, text=True, check=False).stdout
    seen: set[tuple[str, str]] = set()
    found = []
    commit = ""
    for line in log.splitlines():
        if line.startswith("commit "):
            commit = line.split()[1]
        elif line.startswith(":"):
            meta, path = line.split("\t", 1)
            blob, status = meta.split()[3], meta.split()[4]
            if status != "D" and (path, blob) not in seen:
                seen.add((path, blob))
                found.append((path, blob, commit))
    return found


def blobs(git_dir: str, names: list[str]) -> dict[str, bytes | None]:
    """The content of each blob; None for one the repository lacks."""
    process = subprocess.run(["git", "--git-dir", git_dir, "cat-file", "--batch"], input="\n".join(names).encode() + b"\n",
                             capture_output=True, check=True)
    out, at, contents = process.stdout, 0, {}
    for name in names:
        end = out.index(b"\n", at)
        header = out[at:end].split()
        at = end + 1
        if header[-1] == b"missing":
            contents[name] = None
            continue
        size = int(header[2])
        contents[name] = out[at:at + size]
        at += size + 1
    return contents


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("git_dir")
    parser.add_argument("pathspecs", nargs="+")
    parser.add_argument("--list", action="store_true")
    arguments = parser.parse_args()
    data = Data(specdb.connect(ROOT / "specs"))
    listed = versions(arguments.git_dir, arguments.pathspecs)
    contents = blobs(arguments.git_dir, sorted({blob for _, blob, _ in listed}))
    read_count, absent, failures, empty = 0, 0, [], []
    formats: Counter[str] = Counter()
    fields_total = resolved_total = 0
    unresolved: dict[str, Counter[str]] = defaultdict(Counter)
    resolved_cache: dict[str, bool] = {}
    for path, blob, commit in listed:
        content = contents[blob]
        if content is None:
            absent += 1
            continue
        try:
            name, fields = read(path, content.decode("utf-8"))
            judge(fields, data, path)
        except (UsageError, UnicodeDecodeError) as error:
            failures.append(f"{commit[:10]} {path}: {error}")
            continue
        except Exception as error:  # noqa: BLE001 - an internal error is what this bench is for finding
            failures.append(f"{commit[:10]} {path}: INTERNAL {type(error).__name__}: {error}")
            continue
        read_count += 1
        formats[name] += 1
        fields_total += len(fields)
        if not fields:
            empty.append(f"{commit[:10]} {path} ({name})")
        for item in fields:
            if item.part not in resolved_cache:
                resolved_cache[item.part] = bool(data.parts(item.part)[0])
            if resolved_cache[item.part]:
                resolved_total += 1
            else:
                unresolved[item.part][path.rsplit("/", 1)[-1]] += 1
        if arguments.list:
            print(f"  {commit[:10]} {path}: {name}, {len(fields)} fields")
    print(f"{arguments.git_dir} {' '.join(arguments.pathspecs)}")
    print(f"  versions {len(listed)}, read {read_count}, failed {len(failures)}, not in the snapshot {absent}, "
          f"with no field {len(empty)}, fields {fields_total} ({resolved_total} naming a part in the data); formats {dict(formats)}")
    for line in failures:
        print(f"  failed: {line}")
    for line in empty:
        print(f"  no field: {line}")
    for part, where in sorted(unresolved.items()):
        print(f"  no accelerator: {part!r} ({sum(where.values())} fields in {', '.join(sorted(where))})")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
