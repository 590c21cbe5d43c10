"""figure_history over a throwaway git repository whose commits change one figure, and the rest of its file, one thing at a time."""

import os
import re
import shutil
import sqlite3
import subprocess

import pytest

from conftest import TEST_SPECS
from specdb.db.builder import build
from specdb.errors import NotFound
from specdb.versions.history import figure_history
from specdb.db.store import connect_readonly

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

BRIEF = "schema: 2\nid: test-brief\nkind: source\nname: A brief\npublisher: Test Vendor\nurl: https://example.com/brief\npublished: 2024-01-02\n"
NOTE = "schema: 2\nid: test-note\nkind: source\nname: A note\npublisher: Test Vendor\nurl: https://example.com/note\npublished: 2024-01-03\n"
# The memory bandwidth's block in the GPU's file, up to the next figure.
BLOCK = re.compile(r"  memory_bandwidth:\n.*?(?=  memory_capacity:\n)", re.DOTALL)

# The memory bandwidth's sources once the brief is quoted.
SOURCES = '    sources:\n      - ref: test-brief\n        quote: "3.6 TB/s of HBM3"\n      - ref: test-datasheet\n        quote: "GPU Memory Bandwidth 3.35TB/s"\n'
# A history entry later than the test data's one, listed before it, without a status.
LATER_ENTRY = "      - {value: 3.2 TB/s, as_of: 2022-09-20, reviewed: 2022-10-01, sources: [{ref: test-note}]}\n"
ALTERNATIVE = "    alternatives:\n      - {value: 3.5 TB/s, reason: measured by a benchmark, sources: [{ref: test-note}]}\n"


def _git(repo, *args, env=None):
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env=env).stdout.strip()


def _edit(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


class _Repository:
    """A git repository holding a copy of the test data in data/specs, committed step by step on chosen dates."""

    def __init__(self, root):
        self.root = root
        self.specs = root / "data" / "specs"
        self.commits = {}  # subject -> full hash
        shutil.copytree(TEST_SPECS, self.specs)
        _git(root.parent, "init", "-q", str(root))

    def commit(self, subject, day):
        _git(self.root, "add", "-A")
        when = f"{day}T12:00:00+00:00"
        env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
        _git(self.root, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", "commit", "-qm", subject, env=env)
        self.commits[subject] = _git(self.root, "rev-parse", "HEAD")


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    """The GPU's memory bandwidth through 26 commits of the GPU's file (one more commit touches only the fabric's), then the database."""
    repository = _Repository(tmp_path_factory.mktemp("history") / "repo")
    specs = repository.specs
    gpu = specs / "accelerator" / "test-gpu.yaml"
    whole = gpu.read_text()
    gpu.write_text(BLOCK.sub("", whole))
    repository.commit("Add the test data without the memory bandwidth", "2024-01-02")
    gpu.write_text(whole)
    repository.commit("Add the memory bandwidth", "2024-01-09")
    _edit(gpu, "    direction: total\n", "    direction: total\n    note: HBM3, all stacks together\n")
    repository.commit("Note how the memory bandwidth is counted", "2024-01-16")
    _edit(gpu, "value: 3.35 TB/s", "value: 3.6 TB/s")
    repository.commit("Revise the memory bandwidth", "2024-01-23")
    _edit(gpu, "value: 989 TFLOPS", "value: 990 TFLOPS")
    repository.commit("Revise the BF16 figure", "2024-01-30")
    _edit(specs / "fabric" / "test-fabric.yaml", "reviewed: 2026-07-15", "reviewed: 2026-08-01")
    repository.commit("Review the fabric again", "2024-02-01")
    _edit(gpu, "    status: shipping\n    as_of: 2023-01\n    reviewed: 2026-07-15\n    sources:\n", "    status: announced\n    as_of: 2023-01\n    reviewed: 2026-07-15\n    sources:\n")
    repository.commit("Mark the memory bandwidth announced", "2024-02-06")
    _edit(gpu, "    status: announced\n    as_of: 2023-01\n    reviewed: 2026-07-15\n", "    status: announced\n    as_of: 2023-01\n    reviewed: 2026-08-01\n")
    repository.commit("Review the memory bandwidth again", "2024-02-13")
    (specs / "source" / "test-brief.yaml").write_text(BRIEF)
    _edit(gpu, '        quote: "GPU Memory Bandwidth 3.35TB/s"\n', '        quote: "GPU Memory Bandwidth 3.35TB/s"\n      - ref: test-brief\n')
    repository.commit("Cite the brief", "2024-02-20")
    _edit(
        gpu,
        '      - ref: test-datasheet\n        quote: "GPU Memory Bandwidth 3.35TB/s"\n      - ref: test-brief\n',
        '      - ref: test-brief\n        quote: "3.6 TB/s of HBM3"\n      - ref: test-datasheet\n        quote: "GPU Memory Bandwidth 3.35TB/s"\n',
    )
    repository.commit("Quote the brief and list it first", "2024-02-27")
    (specs / "source" / "test-note.yaml").write_text(NOTE)
    _edit(gpu, "    history:\n", ALTERNATIVE + "    history:\n" + LATER_ENTRY)
    repository.commit("Record a later entry and an alternative", "2024-03-05")
    restored = gpu.read_text()
    gpu.write_text(BLOCK.sub("", restored))
    repository.commit("Drop the memory bandwidth", "2024-03-12")
    gpu.write_text(restored)
    repository.commit("Restore the memory bandwidth", "2024-03-19")
    _edit(gpu, "aliases: [TEST GPU 80GB HBM3, Test GPU SXM]", "aliases: [TEST GPU 80GB HBM3, Test GPU SXM")
    repository.commit("Break the YAML", "2024-03-26")
    gpu.write_text(restored)
    repository.commit("Repair the YAML", "2024-04-02")
    _edit(gpu, "figures:\n  memory_bandwidth:", "figures:\n- memory_bandwidth:")
    repository.commit("Make the figures a list", "2024-04-09")
    gpu.write_text(restored)
    repository.commit("Make the figures a mapping again", "2024-04-16")
    gpu.write_text(BLOCK.sub("  memory_bandwidth: 3.6 TB/s\n", restored))
    repository.commit("Give the memory bandwidth as a bare value", "2024-04-23")
    gpu.write_text(restored)
    repository.commit("Give the memory bandwidth in full again", "2024-04-30")
    gpu.write_text("- " + restored.rstrip("\n").replace("\n", "\n  ") + "\n")
    repository.commit("Make the file a list", "2024-05-07")
    gpu.write_text(restored)
    repository.commit("Make the file a mapping again", "2024-05-14")
    gpu.write_text(restored.replace(SOURCES, ""))
    repository.commit("Leave the memory bandwidth without sources", "2024-05-15")
    gpu.write_text(restored)
    repository.commit("Cite the sources again", "2024-05-16")
    gpu.unlink()
    repository.commit("Delete the GPU", "2024-05-21")
    gpu.write_text(restored)
    repository.commit("Bring the GPU back", "2024-05-28")
    _git(repository.root, "mv", "data/specs/accelerator/test-gpu.yaml", "data/specs/accelerator/test-gpu-sxm.yaml")
    gpu = specs / "accelerator" / "test-gpu-sxm.yaml"
    _edit(gpu, "id: test-gpu\n", "id: test-gpu-sxm\n")
    _edit(gpu, "aliases: [TEST GPU 80GB HBM3, Test GPU SXM]", "aliases: [test-gpu, TEST GPU 80GB HBM3, Test GPU SXM]")
    _edit(specs / "system" / "test-system.yaml", "accelerator: test-gpu,", "accelerator: test-gpu-sxm,")
    repository.commit("Rename the GPU test-gpu-sxm", "2024-06-04")
    _edit(gpu, "    status: announced\n    as_of: 2023-01\n    reviewed: 2026-08-01\n", "    status: shipping\n    as_of: 2023-01\n    reviewed: 2026-09-01\n")
    repository.commit("Ship and review the memory bandwidth", "2024-06-11")
    # Not committed, so only the database has it: another value, and the datasheet cited a second time.
    _edit(gpu, "value: 3.6 TB/s", "value: 3600 GB/s")
    _edit(gpu, '        quote: "GPU Memory Bandwidth 3.35TB/s"\n', '        quote: "GPU Memory Bandwidth 3.35TB/s"\n      - ref: test-datasheet\n        locator: table 2\n')
    repository.db = specs.parent / "specs.sqlite"
    build(specs, repository.db)
    return repository


def _history(repo, record="test-gpu-sxm", figure="memory_bandwidth", progress=None, db=None):
    connection = connect_readonly(db or repo.db)
    try:
        return figure_history(connection, repo.specs, record, figure, progress)
    finally:
        connection.close()


def _commit_row(repo, subject, date, value, status, reviewed, sources):
    commit = repo.commits[subject]
    return {"origin": f"commit {commit[:10]}: {subject}", "date": date, "value": value, "status": status, "reviewed": reviewed, "sources": sources, "commit": commit}


def _absent(repo, subject, date):
    return _commit_row(repo, subject, date, "(absent)", None, None, [])


HISTORY_ENTRIES = [
    {"origin": "history entry", "date": "2022-03-22", "value": "3 TB/s", "status": "announced", "reviewed": "2022-04-01", "sources": ["test-datasheet"], "commit": None},
    {"origin": "history entry", "date": "2022-09-20", "value": "3.2 TB/s", "status": None, "reviewed": "2022-10-01", "sources": ["test-note"], "commit": None},
]
# The database's figure, its own two sources (the datasheet cited twice counts once), not those of its history or alternative.
CURRENT = {"origin": "current", "date": "2023-01-01", "value": "3600 GB/s", "status": "shipping", "reviewed": "2026-09-01", "sources": ["test-brief", "test-datasheet"], "commit": None}


def test_history_lists_the_entries_each_commit_that_changed_the_figure_and_the_current_value(repo):
    both = ["test-brief", "test-datasheet"]
    announced = ("3.6 TB/s", "announced", "2026-08-01", both)
    assert _history(repo) == [
        *HISTORY_ENTRIES,
        # Commits that changed the note, another figure, only the order or quotes of the sources, the history or alternatives,
        # or only another file, give no row.
        _commit_row(repo, "Add the memory bandwidth", "2024-01-09", "3.35 TB/s", "shipping", "2026-07-15", ["test-datasheet"]),
        _commit_row(repo, "Revise the memory bandwidth", "2024-01-23", "3.6 TB/s", "shipping", "2026-07-15", ["test-datasheet"]),
        _commit_row(repo, "Mark the memory bandwidth announced", "2024-02-06", "3.6 TB/s", "announced", "2026-07-15", ["test-datasheet"]),
        _commit_row(repo, "Review the memory bandwidth again", "2024-02-13", "3.6 TB/s", "announced", "2026-08-01", ["test-datasheet"]),
        _commit_row(repo, "Cite the brief", "2024-02-20", *announced),
        _absent(repo, "Drop the memory bandwidth", "2024-03-12"),
        _commit_row(repo, "Restore the memory bandwidth", "2024-03-19", *announced),
        _absent(repo, "Break the YAML", "2024-03-26"),
        _commit_row(repo, "Repair the YAML", "2024-04-02", *announced),
        _absent(repo, "Make the figures a list", "2024-04-09"),
        _commit_row(repo, "Make the figures a mapping again", "2024-04-16", *announced),
        _absent(repo, "Give the memory bandwidth as a bare value", "2024-04-23"),
        _commit_row(repo, "Give the memory bandwidth in full again", "2024-04-30", *announced),
        _absent(repo, "Make the file a list", "2024-05-07"),
        _commit_row(repo, "Make the file a mapping again", "2024-05-14", *announced),
        _commit_row(repo, "Leave the memory bandwidth without sources", "2024-05-15", "3.6 TB/s", "announced", "2026-08-01", []),
        _commit_row(repo, "Cite the sources again", "2024-05-16", *announced),
        _absent(repo, "Delete the GPU", "2024-05-21"),
        _commit_row(repo, "Bring the GPU back", "2024-05-28", *announced),
        # After the rename: the history above is that of the file's old name.
        _commit_row(repo, "Ship and review the memory bandwidth", "2024-06-11", "3.6 TB/s", "shipping", "2026-09-01", both),
        CURRENT,
    ]


def test_a_shallow_clone_says_its_history_is_cut_rather_than_crediting_the_oldest_commit_fetched(repo, tmp_path):
    """Two commits deep, the clone starts at the rename, which changed nothing of the figure (it has no row in the whole history)."""
    clone = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "2", f"file://{repo.root}", str(clone)], check=True, capture_output=True)
    connection = connect_readonly(repo.db)
    try:
        rows = figure_history(connection, clone / "data" / "specs", "test-gpu-sxm", "memory_bandwidth")
    finally:
        connection.close()
    rename = repo.commits["Rename the GPU test-gpu-sxm"]
    assert rows == [
        *HISTORY_ENTRIES,
        {**_commit_row(repo, "Rename the GPU test-gpu-sxm", "2024-06-04", "3.6 TB/s", "announced", "2026-08-01", ["test-brief", "test-datasheet"]),
         "origin": f"history truncated (shallow clone) at commit {rename[:10]}: Rename the GPU test-gpu-sxm"},
        _commit_row(repo, "Ship and review the memory bandwidth", "2024-06-11", "3.6 TB/s", "shipping", "2026-09-01", ["test-brief", "test-datasheet"]),
        CURRENT,
    ]


def test_a_commit_row_names_the_commit_by_its_short_hash_and_subject(repo):
    row = _history(repo)[2]
    assert re.fullmatch(r"commit [0-9a-f]{10}: Add the memory bandwidth", row["origin"])
    assert re.fullmatch(r"[0-9a-f]{40}", row["commit"]) and row["origin"][7:17] == row["commit"][:10]


def test_progress_counts_each_version_of_the_file_from_one(repo):
    told = []
    _history(repo, progress=lambda *step: told.append(step))
    # The 27 commits less the one that touched only the fabric.
    assert told == [("reading the history of accelerator/test-gpu-sxm.yaml", done, 26) for done in range(1, 27)]


def test_a_record_named_by_alias_or_name_gives_the_same_history(repo):
    by_id = _history(repo)
    assert _history(repo, record="test-gpu") == by_id
    assert _history(repo, record="TEST GPU 80GB HBM3") == by_id
    assert _history(repo, record="Test GPU 80GB") == by_id


def test_an_unknown_figure_names_the_figures_the_record_has(repo):
    with pytest.raises(NotFound) as raised:
        _history(repo, record="Test GPU SXM", figure="memory_bw")
    assert str(raised.value) == "test-gpu-sxm has no figure 'memory_bw'; it has dense_bf16_flops, memory_bandwidth, memory_capacity, scale_up_bandwidth"


def test_a_file_never_committed_has_only_its_entries_and_current_value(tmp_path):
    repository = _Repository(tmp_path / "repo")
    repository.commit("Add the test data", "2024-01-02")
    fabric = repository.specs / "fabric" / "test-fabric.yaml"
    (repository.specs / "fabric" / "test-fabric-800.yaml").write_text(
        fabric.read_text().replace("id: test-fabric", "id: test-fabric-800").replace("Test Fabric 400", "Test Fabric 800").replace("400 Gb/s", "800 Gb/s")
    )
    repository.db = tmp_path / "specs.sqlite"
    build(repository.specs, repository.db)
    told = []
    rows = _history(repository, record="test-fabric-800", figure="port_bandwidth", progress=lambda *step: told.append(step))
    assert rows == [{"origin": "current", "date": "2021-11-01", "value": "800 Gb/s", "status": "shipping", "reviewed": "2026-07-15", "sources": ["test-datasheet"], "commit": None}]
    assert told == []


def test_specs_outside_git_give_the_entries_and_the_current_value(repo, tmp_path, monkeypatch):
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    specs = tmp_path / "specs"
    shutil.copytree(repo.specs, specs)
    build(specs, tmp_path / "plain.sqlite")
    connection = connect_readonly(tmp_path / "plain.sqlite")
    told = []
    try:
        rows = figure_history(connection, specs, "test-gpu-sxm", "memory_bandwidth", lambda *step: told.append(step))
    finally:
        connection.close()
    assert rows == [*HISTORY_ENTRIES, CURRENT] and told == []


def test_a_history_entry_that_cites_no_source_lists_none(repo, tmp_path):
    # The schema requires a source; a database another tool wrote may hold an entry without one.
    db = tmp_path / "edited.sqlite"
    shutil.copyfile(repo.db, db)
    with sqlite3.connect(db) as connection:
        deleted = connection.execute("DELETE FROM citation WHERE claim_id = (SELECT id FROM claim WHERE claim_kind = 'history' AND as_of = '2022-09-20')").rowcount
    connection.close()
    assert deleted == 1
    assert _history(repo, db=db)[:2] == [HISTORY_ENTRIES[0], {**HISTORY_ENTRIES[1], "sources": []}]
