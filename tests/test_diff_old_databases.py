"""diff of database files built by earlier specdb releases, one at each earlier schema revision.

The databases in tests/data/old-databases were built by the code of earlier
commits (`rebuild.py` there says which, and rebuilds them); what they hold is
known from git: `git diff --name-status <commit> <commit> -- specs` and the
files themselves.
"""

import gzip
import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO
from specdb.db.builder import build
from specdb.resources import bundled_specs

OLD = Path(__file__).parent / "data" / "old-databases"
# Each database's schema revision, by the commit whose code built it (see rebuild.py).
RELEASES = {"e7850fd": "0001", "fb0929e": "0002", "52d600c": "0003", "088fd21": "0003", "9f0f591": "0004"}


def _old(commit: str, folder: Path) -> Path:
    target = folder / f"made-by-{commit}.sqlite"
    target.write_bytes(gzip.decompress((OLD / f"{RELEASES[commit]}-{commit}.sqlite.gz").read_bytes()))
    return target


def _diff(cli, old: Path, new: Path, *extra: str):
    return cli("diff", str(old), str(new), *extra, data=False)


def _revision(path: Path) -> str:
    connection = sqlite3.connect(path)
    try:
        return connection.execute("SELECT version_num FROM alembic_version").fetchone()[0]
    finally:
        connection.close()


@pytest.mark.parametrize("commit", sorted(RELEASES))
def test_a_database_at_each_earlier_schema_reads_and_is_left_as_it_was(commit, cli, tmp_path):
    old = _old(commit, tmp_path)
    assert _revision(old) == RELEASES[commit]
    before = old.read_bytes()
    result = _diff(cli, old, old, "--exit-code")
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith(": no changes\n")
    assert old.read_bytes() == before
    assert sorted(path.name for path in tmp_path.iterdir()) == [old.name, "specs"]


def test_a_database_of_an_earlier_release_diffs_against_a_later_one(cli, tmp_path):
    # fb0929e (schema 0002, no collective_run table) to 9f0f591 (schema 0004).
    result = _diff(cli, _old("fb0929e", tmp_path), _old("9f0f591", tmp_path), "--format", "json", "--exit-code")
    assert result.exit_code == 1, result.output
    changes = json.loads(result.stdout)
    # amd-mi300x.yaml: memory_capacity "192 GB" became "192 GiB": (192 * 2**30 - 192e9) / 192e9 = +7.37%.
    assert {
        "change": "value_changed", "record": "amd-mi300x", "figure": "memory_capacity", "old": "192 GB", "new": "192 GiB",
        "percent": 7.37, "detail": None, "group": "values",
    } in changes
    by_record = {(change["change"], change["record"]) for change in changes}
    # Files git lists as added (A) and deleted (D) between the two commits.
    assert {("record_added", "amd-helios"), ("record_added", "amd-mi455x"), ("record_added", "nvlink-6")} <= by_record
    assert {("record_removed", "acecloud-h200-hbm3e"), ("record_removed", "thundercompute-a100-specs")} <= by_record


@pytest.mark.parametrize("older, newer", [("e7850fd", "fb0929e"), ("fb0929e", "52d600c"), ("088fd21", "9f0f591")])
def test_releases_with_the_same_data_at_different_schemas_do_not_differ(older, newer, cli, tmp_path):
    # e7850fd -> fb0929e changed only a comment of policy.yaml; fb0929e -> 52d600c and 088fd21 -> 9f0f591 no spec file.
    result = _diff(cli, _old(older, tmp_path), _old(newer, tmp_path), "--exit-code")
    assert result.exit_code == 0, result.output


def test_a_database_of_an_earlier_release_diffs_against_one_built_today(cli, tmp_path):
    today = tmp_path / "today.sqlite"
    build(bundled_specs(), today)
    result = _diff(cli, _old("fb0929e", tmp_path), today, "--format", "json", "--exit-code")
    assert result.exit_code == 1, result.output
    by_record = {(change["change"], change["record"]) for change in json.loads(result.stdout)}
    # Added after fb0929e: specs/accelerator/amd-mi210.yaml and specs/link/pcie-7.yaml.
    assert {("record_added", "amd-mi210"), ("record_added", "pcie-7")} <= by_record


def test_an_earlier_database_the_migrations_cannot_bring_forward_is_refused_and_left_alone(cli, tmp_path):
    old = _old("fb0929e", tmp_path)
    connection = sqlite3.connect(old)
    connection.execute("CREATE TABLE collective_run (note TEXT)")  # the table migration 0003 creates
    connection.commit()
    connection.close()
    before = old.read_bytes()
    result = _diff(cli, old, old)
    assert result.exit_code == 2
    assert f"{old}: made by an older specdb (schema revision 0002), and a copy of it could not be brought to revision" in result.stderr
    assert "Traceback" not in result.output
    assert old.read_bytes() == before


def test_a_database_built_by_the_code_of_an_earlier_commit_diffs(cli, tmp_path):
    """Built now from the git history, where the clone holds it (a shallow clone does not)."""
    commit = "fb0929e"
    if shutil.which("git") is None or subprocess.run(["git", "-C", str(REPO), "cat-file", "-e", f"{commit}^{{commit}}"], capture_output=True, check=False).returncode:
        pytest.skip(f"commit {commit} is not in this clone")
    sys.path.insert(0, str(OLD))
    try:
        from rebuild import build_at
    finally:
        sys.path.remove(str(OLD))
    built = tmp_path / "built-now.sqlite"
    build_at(commit, built)
    assert _revision(built) == "0002"
    result = _diff(cli, built, _old(commit, tmp_path), "--exit-code")
    assert result.exit_code == 0, result.output
