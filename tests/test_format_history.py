"""Every past version of this repository's specs reads and diffs against HEAD, through the record-format conversions.

The commits are those of this checkout that touch specs/, found with `git log`, never by tag. The walk of all of them
(each read with an empty cache; 16 s of one core, 30 s on a busy machine) runs with SPECDB_SOAK=1; the normal suite
walks the oldest, the newest and every SAMPLE_STEP-th between, which spans each state of record format 1.
"""

import json
import re
import shutil
import subprocess

import pytest
from typer.testing import CliRunner

from conftest import REPO, SOAK
from specdb.cli import app

SPECS = REPO / "specs"
SAMPLE_STEP = 6
# Records format 1 kept inside another record's file, which the conversion splits off (format/upgrades/f1_to_f2.py).
SPLIT_OFF = {"amd-infinity-fabric-cdna4"}
# Figure names of format 1 that format 2 renamed or moved: none may appear in a diff read through the conversions.
OLD_FIGURE_NAMES = re.compile(r"^(signal_pair_rate|signaling_rate|mi355x_\w+)$")


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True, check=True).stdout


def _history_reason() -> str | None:
    if shutil.which("git") is None:
        return "git is not installed"
    try:
        if _git("rev-parse", "--is-shallow-repository").strip() == "true":
            return "a shallow clone: the commits that touch specs/ are not all here (CI clones with history)"
    except subprocess.CalledProcessError:
        return "not a git checkout: there is no history to walk"
    return None


pytestmark = pytest.mark.skipif(_history_reason() is not None, reason=_history_reason() or "")


def _commits() -> list[str]:
    """The commits that touch specs/, oldest first."""
    return _git("log", "--reverse", "--format=%H", "--", "specs/").split()


def _record_ids(commit: str) -> set[str]:
    listing = _git("ls-tree", "-r", "--name-only", commit, "--", "specs/").split()
    return {path.rsplit("/", 1)[1].removesuffix(".yaml") for path in listing if path.count("/") == 2 and path.endswith(".yaml")}


def _diff(*args: str):
    return CliRunner().invoke(app, ["diff", *args, "--specs", str(SPECS)], catch_exceptions=False)


def _walked() -> list[str]:
    commits = _commits() if _history_reason() is None else []
    if SOAK:
        return commits
    return sorted({*commits[:1], *commits[-1:], *commits[::SAMPLE_STEP]}, key=commits.index)


@pytest.mark.parametrize("commit", _walked(), ids=lambda commit: commit[:7])
def test_a_past_version_of_the_specs_diffs_against_head(commit):
    result = _diff(commit, "HEAD")
    assert result.exit_code == 0, result.stderr


def test_the_oldest_readable_version_diffs_against_head_with_its_real_changes():
    """Records added and removed are those whose files came and went; renamed, moved and re-unit figures are no change."""
    first = next(commit for commit in _commits() if _diff(commit, "HEAD").exit_code == 0)
    result = _diff(first, "HEAD", "--format", "json", "--exit-code")
    assert result.exit_code == 1, result.stderr
    changes = json.loads(result.stdout)
    before, after = _record_ids(first), _record_ids("HEAD")
    assert {c["record"] for c in changes if c["change"] == "record_added"} == after - before - SPLIT_OFF
    assert {c["record"] for c in changes if c["change"] == "record_removed"} == before - after
    assert not [c for c in changes if c["figure"] and OLD_FIGURE_NAMES.match(c["figure"])]
    # A capacity written "80 GB" in format 1 is the "80 GiB" of format 2: the same value, not a change.
    unit_only = [c for c in changes if c["change"] == "value_changed" and c["old"] and c["new"]
                 and c["old"].replace(" GB", " GiB") == c["new"]]
    assert not unit_only
