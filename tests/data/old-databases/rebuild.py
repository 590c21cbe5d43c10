"""Rebuild the databases made by earlier specdb releases, one at each schema revision, from the git history.

Usage: python tests/data/old-databases/rebuild.py   (from the top of a whole clone, with specdb's dependencies installed)

Each database is built by the code and from the specs of one commit, the last
at its schema revision (the Alembic revision its migrations end at), taken
with `git archive` and run with today's dependencies:

- 0001 (migration 0001_create_schema): e7850fd, the parent of 8058ccb, which added 0002;
- 0002 (0002_figure_view): fb0929e, the parent of 52d600c, which added 0003;
- 0003 (0003_collective_run): 52d600c, which added it, before 3cc6a5a gave its
  `collective_run` table a `domains` column under the same revision; and
  088fd21, the parent of c1991d0, which added 0004;
- 0004 (0004_record_digest): 9f0f591, the parent of 2f985e9, which added 0005.

No specdb database predates Alembic: the first commit that builds one
(03c9dc3) stamps it with revision 0001. The files are stored gzipped;
`tests/test_diff_old_databases.py` reads them.
"""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOP = HERE.parents[2]
# (schema revision, commit) of each database.
RELEASES = [("0001", "e7850fd"), ("0002", "fb0929e"), ("0003", "52d600c"), ("0003", "088fd21"), ("0004", "9f0f591")]


def build_at(commit: str, target: Path) -> None:
    """The database the code of `commit` builds from its own specs, written to `target`."""
    with tempfile.TemporaryDirectory() as folder:
        checkout = Path(folder) / commit
        checkout.mkdir()
        archive = subprocess.run(["git", "-C", str(TOP), "archive", commit], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(checkout)], input=archive, check=True)
        env = {**os.environ, "PYTHONPATH": str(checkout), "XDG_CACHE_HOME": str(Path(folder) / "cache")}
        env.pop("SPECDB_SPECS", None)
        env.pop("SPECDB_DB", None)
        subprocess.run(
            [sys.executable, "-m", "specdb", "build", "--specs", "specs", "--db", str(target)], cwd=checkout, env=env, check=True,
        )


def main() -> None:
    for revision, commit in RELEASES:
        with tempfile.TemporaryDirectory() as folder:
            database = Path(folder) / "built.sqlite"
            build_at(commit, database)
            (HERE / f"{revision}-{commit}.sqlite.gz").write_bytes(gzip.compress(database.read_bytes(), mtime=0))


if __name__ == "__main__":
    main()
