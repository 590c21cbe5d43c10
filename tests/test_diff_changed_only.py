"""diff reads only what changed between two git revisions or two database files, and reports exactly what reading both whole reports."""

import json
import os
import pty
import select
import shutil
import sqlite3
import subprocess
import sys
import tempfile

import pytest

import specdb.load.dataset
from conftest import TEST_SPECS
from specdb.versions import cache as revisioncache
from specdb.db.builder import build
from specdb.versions.diff import FORMATS, compare_versions, diff, open_version, render
from specdb.errors import InvalidSpecs, SpecdbError
from specdb.versions.dbcompare import changed_records

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

LONG_NOTE = "A fabric for the tests, with a note long enough to be cut short in a summary line."
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
VALID = ("c0", "c1", "c2", "c3", "c4", "c5", "c7", "c8", "c9", "c10")
PAIRS = [*zip(VALID, VALID[1:]), ("c0", "c9"), ("c9", "c0"), ("c2", "c8")]


def _edit(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    """c0 the test data; c1 a GPU figure that moves an unchanged platform's ratios; c2 a direction; c3 a value with its
    review date; c4 a claim citing a new source; c5 a history-only edit; c6 a rename with unchanged bytes (invalid);
    c7 a record renamed through an alias; c8 a source deleted; c9 review policies, which reach every record; c10 a
    source's publisher, a long note, a figure citing a new source, a value written another way."""
    root = tmp_path_factory.mktemp("history") / "repo"
    specs = root / "data" / "specs"
    shutil.copytree(TEST_SPECS, specs)
    gpu = specs / "accelerator" / "test-gpu.yaml"
    run = lambda *args: subprocess.run([*GIT, "-C", str(root), *args], check=True, capture_output=True)  # noqa: E731
    subprocess.run(["git", "init", "-q", str(root)], check=True)

    def commit(tag):
        run("add", "-A")
        run("commit", "-qm", tag)
        run("tag", tag)

    commit("c0")
    _edit(gpu, "value: 3.35 TB/s", "value: 3.6 TB/s")
    commit("c1")
    _edit(gpu, "value: 900 GB/s\n    direction: bidirectional", "value: 900 GB/s\n    direction: per-direction")
    commit("c2")
    _edit(gpu, "value: 80 GiB\n    scope: per-accelerator\n    status: shipping\n    as_of: 2023-01\n    reviewed: 2026-07-15",
          "value: 96 GiB\n    scope: per-accelerator\n    status: shipping\n    as_of: 2023-01\n    reviewed: 2026-08-01")
    commit("c3")
    (specs / "source" / "test-brief.yaml").write_text(
        "schema: 2\nid: test-brief\nkind: source\nname: A brief\npublisher: Test Vendor\nurl: https://example.com/brief\npublished: 2024-01-02\n"
    )
    _edit(gpu, "status: announced, sources: [{ref: test-datasheet}]", "status: announced, sources: [{ref: test-brief}]")
    commit("c4")
    _edit(gpu, "as_of: 2022-03-22", "as_of: 2022-03-23")
    commit("c5")
    run("mv", "data/specs/link/test-pcie.yaml", "data/specs/link/test-pcie-x.yaml")
    commit("c6")
    run("mv", "data/specs/link/test-pcie-x.yaml", "data/specs/link/test-pcie.yaml")
    pcie = specs / "link" / "test-pcie.yaml"
    (specs / "link" / "test-pcie-5.yaml").write_text(pcie.read_text().replace("id: test-pcie", "id: test-pcie-5\naliases: [test-pcie]"))
    pcie.unlink()
    _edit(gpu, "host_link: test-pcie}", "host_link: test-pcie-5}")
    _edit(specs / "system" / "test-system.yaml", "host_link: test-pcie,", "host_link: test-pcie-5,")
    commit("c7")
    _edit(gpu, "sources: [{ref: test-brief}]", "sources: [{ref: test-datasheet}]")
    (specs / "source" / "test-brief.yaml").unlink()
    commit("c8")
    (specs / "policy.yaml").write_text("schema: 2\nreview:\n  accelerator:\n    warn_after: {count: 6, period: month}\n")
    commit("c9")
    _edit(specs / "source" / "test-datasheet.yaml", "publisher: Test Vendor", "publisher: Test Vendor Inc.")
    _edit(specs / "fabric" / "test-fabric.yaml", "released: 2021-11", f"released: 2021-11\nnotes: {LONG_NOTE}")
    (specs / "source" / "test-whitepaper.yaml").write_text(
        "schema: 2\nid: test-whitepaper\nkind: source\nname: A whitepaper\npublisher: Test Vendor\nurl: https://example.com/paper\npublished: 2024-01-02\n"
    )
    _edit(gpu, "sources: [{ref: test-datasheet}]\n  scale_up", "sources: [{ref: test-whitepaper}]\n  scale_up")
    _edit(gpu, "value: 3.6 TB/s", "value: 3600 GB/s")
    commit("c10")
    return specs


ALL_FORMATS = (*FORMATS, "stat")


def _whole(old, new, specs):
    """The report in every format from both versions read whole, each on its own, with nothing remembered, and the two versions."""
    with pytest.MonkeyPatch.context() as nothing_remembered, tempfile.TemporaryDirectory() as cache:
        nothing_remembered.setenv("XDG_CACHE_HOME", cache)
        before, after = open_version(old, specs), open_version(new, specs)
    changes = diff(before, after)
    return {fmt: render(changes, fmt, before, after) for fmt in ALL_FORMATS}, before, after


def _reading_changes_only(old, new, specs):
    before, after, changes = compare_versions(old, new, specs)
    return {fmt: render(changes, fmt, before, after) for fmt in ALL_FORMATS}, before, after


def _same_versions(found, expected):
    """What the library returns of each version besides the report is what reading it whole gives."""
    return [(s.label, s.git_revision, s.content_hash) for s in found] == [(s.label, s.git_revision, s.content_hash) for s in expected]


def _changes(old, new, specs):
    return [(c.change, c.record, c.figure, c.old, c.new, c.detail) for c in compare_versions(old, new, specs)[2]]


def test_every_format_matches_the_whole_reading_on_every_kind_of_change(history):
    for old, new in PAIRS:
        expected, *versions = _whole(old, new, history)
        # The first diff meets a revision unseen and reads it whole; the second reads only the changed files.
        for _ in range(2):
            found, *read = _reading_changes_only(old, new, history)
            assert found == expected, (old, new)
        assert _same_versions(read, versions)


def test_a_changed_gpu_moves_the_ratios_of_the_unchanged_platform_built_on_it(history):
    _assert_c0_to_c1_moves_the_platforms_ratios(history)


def _assert_c0_to_c1_moves_the_platforms_ratios(history, validate=False):
    """c0 to c1, diffed twice (the second from what the first remembered), changes the GPU and two of its platform's ratios."""
    compare_versions("c0", "c1", history, validate=validate)
    changes = compare_versions("c0", "c1", history, validate=validate)[2]
    # per-direction: memory 3.35 TB/s and 3.6 TB/s, scale-up 900 GB/s both ways = 450 GB/s, scale-out 400 Gb/s = 50 GB/s.
    assert [(c.change, c.record, c.figure, c.old, c.new, c.percent) for c in changes] == [
        ("value_changed", "test-gpu", "memory_bandwidth", "3.35 TB/s", "3.6 TB/s", 7.46),
        ("ratio_changed", "test-system", "memory_to_scale_up", 7.44, 8.0, 7.53),  # 3350 / 450, 3600 / 450
        ("ratio_changed", "test-system", "memory_to_scale_out", 67.0, 72.0, 7.46),  # 3350 / 50, 3600 / 50
    ]


def test_a_direction_change_is_reported_with_the_ratios_it_moves(history):
    assert _changes("c1", "c2", history) == [
        ("counting_changed", "test-gpu", "scale_up_bandwidth", "bidirectional", "per-direction", "direction"),
        ("ratio_changed", "test-system", "memory_to_scale_up", 8.0, 4.0, "basis per-direction"),  # 3600 / 900
        ("ratio_changed", "test-system", "scale_up_to_scale_out", 9.0, 18.0, "basis per-direction"),  # 450 / 50, 900 / 50
    ]


def test_a_value_and_its_review_date_changed_together(history):
    assert _changes("c2", "c3", history) == [
        ("value_changed", "test-gpu", "memory_capacity", "80 GiB", "96 GiB", None),
        ("review_changed", "test-gpu", "memory_capacity", "2026-07-15", "2026-08-01", "reviewed"),
    ]


def test_a_claim_citing_another_source_and_a_history_only_edit(history):
    assert _changes("c3", "c4", history) == [
        ("record_added", "test-brief", None, None, "A brief", None),
        ("history_changed", "test-gpu", "memory_bandwidth", ["test-datasheet"], ["test-brief"], "history 1 sources: removed / added"),
    ]
    assert _changes("c4", "c5", history) == [("history_changed", "test-gpu", "memory_bandwidth", "2022-03-22", "2022-03-23", "history 1 as_of")]


def test_a_rename_through_an_alias_and_a_deleted_record(history):
    assert [change[:2] for change in _changes("c5", "c7", history)] == [
        ("record_changed", "test-gpu"), ("record_renamed", "test-pcie-5"), ("record_changed", "test-pcie-5"), ("record_changed", "test-system"),
    ]
    assert _changes("c7", "c8", history) == [
        ("record_removed", "test-brief", None, "A brief", None, None),
        ("history_changed", "test-gpu", "memory_bandwidth", ["test-brief"], ["test-datasheet"], "history 1 sources: removed / added"),
    ]


def test_a_policy_change_reaches_figures_in_unchanged_files(history):
    compare_versions("c8", "c9", history)
    changes = _changes("c8", "c9", history)
    # Four GPU figures now warn after 6 months; the other kinds have no policy in either version.
    assert changes == [
        ("review_changed", "test-gpu", name, None, "6 month", "warn_after")
        for name in ("dense_bf16_flops", "memory_bandwidth", "memory_capacity", "scale_up_bandwidth")
    ]


def _counting_parses(monkeypatch):
    parsed = []
    real = specdb.load.dataset.parse_yaml
    monkeypatch.setattr(specdb.load.dataset, "parse_yaml", lambda raw, **options: parsed.append(raw) or real(raw, **options))
    return parsed


def test_the_policy_file_is_the_one_validation_reads():
    from specdb.load import dataset
    from specdb.versions import revisions

    assert revisions.POLICY_FILE == dataset.POLICY_FILE


def test_a_revision_seen_before_has_only_its_changed_files_read(history, monkeypatch):
    compare_versions("c0", "c1", history)
    revisioncache.files_path().unlink()
    parsed = _counting_parses(monkeypatch)
    compare_versions("c0", "c1", history)
    # One file changed (the GPU), read as each side holds it; there is no policy file to read.
    assert len(parsed) == 2 and all(b"id: test-gpu" in raw for raw in parsed)
    # Its rows on each side are remembered now: the same diff reads no file.
    parsed.clear()
    compare_versions("c0", "c1", history)
    assert parsed == []


def test_a_file_is_remembered_under_the_review_policies_it_was_read_with(history, monkeypatch):
    # The GPU's file has the same bytes in c8, without review policies, and in c9, with them; c10 changes it.
    compare_versions("c9", "c10", history)
    compare_versions("c7", "c8", history)
    parsed = _counting_parses(monkeypatch)
    found = _reading_changes_only("c9", "c10", history)[0]
    assert parsed == []
    assert found == _whole("c9", "c10", history)[0]


def _remembered(statement, *parameters):
    with sqlite3.connect(revisioncache.files_path()) as connection:
        return connection.execute(statement, parameters).fetchall()


def _forged(text):
    """An entry's text with the checksum specdb writes for it: what is left to check is the text itself."""
    return text, revisioncache._checksum(text)


@pytest.mark.parametrize("damaged", [
    lambda text, checksum: (text[:40], checksum),  # cut short
    lambda text, checksum: (text.replace("Test GPU 80GB", "Test GPU 96GB"), checksum),  # changed after it was written
    lambda text, checksum: (text, "0" * 32),
    lambda text, checksum: _forged("not json"),
    lambda text, checksum: _forged("{}"),
    lambda text, checksum: _forged("[]"),
    lambda text, checksum: _forged('[["nope", {}]]'),
    lambda text, checksum: _forged('[["record"]]'),
    lambda text, checksum: _forged('["record"]'),
    lambda text, checksum: _forged('[["figure", {}]]'),  # no record
    lambda text, checksum: (text.encode(), checksum),  # bytes, not text
])
def test_a_damaged_remembered_file_is_read_again_and_replaced(history, monkeypatch, damaged):
    compare_versions("c0", "c1", history)
    for key, text, checksum in _remembered("SELECT key, rows, checksum FROM file WHERE rows LIKE '%Test GPU 80GB%'"):
        _remembered("UPDATE file SET rows = ?, checksum = ? WHERE key = ?", *damaged(text, checksum), key)
    parsed = _counting_parses(monkeypatch)
    # c0 to c1 moved the GPU's memory bandwidth from 3.35 TB/s to 3.6 TB/s, and two of the platform's ratios.
    assert [c.change for c in compare_versions("c0", "c1", history)[2]] == ["value_changed", "ratio_changed", "ratio_changed"]
    assert len(parsed) == 2
    parsed.clear()
    compare_versions("c0", "c1", history)
    assert parsed == []


@pytest.mark.parametrize("made", [
    lambda path: path.write_bytes(b"not a database, " * 1000),
    lambda path: sqlite3.connect(path).execute("CREATE TABLE file (key TEXT PRIMARY KEY, rows TEXT NOT NULL)").connection.commit(),
])
def test_a_cache_file_that_is_not_a_database_or_not_of_this_layout_is_replaced(history, monkeypatch, made):
    revisioncache.files_path().parent.mkdir(parents=True)
    made(revisioncache.files_path())
    _assert_c0_to_c1_moves_the_platforms_ratios(history, validate=True)
    parsed = _counting_parses(monkeypatch)
    compare_versions("c0", "c1", history, validate=True)
    assert parsed == [] and _remembered("SELECT count(*) FROM file") == [(7,)]  # six files in c0 and c1, five with the same bytes


def test_a_cache_folder_not_made_yet_is_made(history, monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "not" / "made" / "yet"))
    compare_versions("c0", "c1", history)
    parsed = _counting_parses(monkeypatch)
    compare_versions("c0", "c1", history)
    assert parsed == []


def test_a_cache_another_process_holds_is_done_without(history, monkeypatch):
    compare_versions("c0", "c1", history)
    monkeypatch.setattr(revisioncache, "LOCK_TIMEOUT_SECONDS", 0.05)
    holder = sqlite3.connect(revisioncache.files_path(), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        parsed = _counting_parses(monkeypatch)
        _assert_c0_to_c1_moves_the_platforms_ratios(history)
        # Neither read nor written: the changed file is validated on each side, every time.
        assert len(parsed) == 4
    finally:
        holder.close()


def _store_many(first):
    revisioncache.store_files({f"key {number}": [("record_digest", {"id": str(number)})] for number in range(first, first + 300)})


def test_concurrent_writers_each_leave_their_entries(tmp_path, monkeypatch):
    import multiprocessing

    context = multiprocessing.get_context("fork")
    writers = [context.Process(target=_store_many, args=(first,)) for first in (0, 300, 600)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(30)
    assert [writer.exitcode for writer in writers] == [0, 0, 0]
    assert _remembered("SELECT count(*) FROM file") == [(900,)]


def test_an_invalid_revision_keeps_its_message_and_is_never_remembered(history, cli):
    with pytest.raises(InvalidSpecs) as whole:
        open_version("c6", history)
    for old, new in (("c5", "c6"), ("c6", "c7")):
        with pytest.raises(InvalidSpecs) as changed_only:
            compare_versions(old, new, history)
        assert changed_only.value.problems == whole.value.problems and changed_only.value.exit_code == 2
    [problem] = whole.value.problems
    assert str(problem) == "c6:data/specs/link/test-pcie-x.yaml:2:5: id 'test-pcie' does not match the file name 'test-pcie-x.yaml'"
    result = cli("diff", "c5", "c6", "--specs", str(history), data=False)
    assert result.exit_code == 2 and str(problem) in result.stderr
    # Only c5, valid, was remembered (c6 is read first, and fails, when it is the old version).
    assert [entry.name.split("-")[0] for entry in _entries()] == [_tree(history, "c5")]


def test_unknown_revisions_and_a_folder_outside_git_keep_their_messages(history, cli, specs):
    for args in (("nope", "c1"), ("c1", "nope")):
        result = cli("diff", *args, "--specs", str(history), data=False)
        assert result.exit_code == 2
        assert f"'nope' is not a folder, a database file, or a git revision of {history.parent.parent}" in result.stderr
    result = cli("diff", "HEAD~1", "HEAD", "--specs", str(specs), data=False)
    assert result.exit_code == 2 and f"{specs} is not in a git repository, so revisions cannot be read" in result.stderr


def test_a_folder_that_holds_no_specs_and_a_missing_file_are_named_as_such(cli, specs, tmp_path):
    """An empty folder is no specs folder (not a version with every record removed); outside git, a missing database is missing."""
    build(specs, tmp_path / "a.sqlite")
    for name in ("empty", "notes"):
        (tmp_path / name).mkdir()
    (tmp_path / "notes" / "readme.txt").write_text("not specs\n")
    for args in ((str(tmp_path / "a.sqlite"), str(tmp_path / "empty")), (str(tmp_path / "notes"),), (str(tmp_path / "empty"), str(tmp_path / "a.sqlite"))):
        folder = next(arg for arg in args if not arg.endswith(".sqlite"))
        result = cli("diff", *args, "--stat", data=False)
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr.startswith(f"specdb: {folder}: not a specs folder")
    missing = tmp_path / "missing.sqlite"
    for args in ((str(missing), str(tmp_path / "a.sqlite")), (str(missing),), (str(tmp_path / "a.sqlite"), str(missing))):
        result = cli("diff", *args, "--specs", str(specs), data=False)
        assert result.exit_code == 2
        assert result.stderr.startswith(f"specdb: {missing}: no such file or folder, and {specs} is not in a git repository")


POLICY = "schema: 2\nreview:\n  accelerator:\n    warn_after: {{count: {months}, period: month}}\n"


@pytest.fixture(scope="module")
def branches(tmp_path_factory):
    """r0 the test data, and revisions made from it, each in one file, that break a file they leave unchanged."""
    root = tmp_path_factory.mktemp("branches") / "repo"
    specs = root / "specs"
    shutil.copytree(TEST_SPECS, specs)
    run = lambda *args: subprocess.run([*GIT, "-C", str(root), *args], check=True, capture_output=True)  # noqa: E731
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    run("add", "-A")
    run("commit", "-qm", "r0")
    run("tag", "r0")
    system = (specs / "system" / "test-system.yaml").read_text()
    changes = {
        # The platform's scale-out figure is derived from the fabric's port: halving the port breaks the platform.
        "port-halved": lambda: _edit(specs / "fabric" / "test-fabric.yaml", "value: 400 Gb/s", "value: 200 Gb/s"),
        "pcie-gone": lambda: (specs / "link" / "test-pcie.yaml").unlink(),
        "datasheet-gone": lambda: (specs / "source" / "test-datasheet.yaml").unlink(),
        # A second GPU claims an alias of the first; its file comes first ('-' sorts before '.'), so it keeps it.
        "alias-taken": lambda: (specs / "accelerator" / "test-gpu-2.yaml").write_text(
            (specs / "accelerator" / "test-gpu.yaml").read_text().replace("id: test-gpu", "id: test-gpu-2").replace("[TEST GPU 80GB HBM3, Test GPU SXM]", "[Test GPU SXM]")
        ),
        # A link whose id is the GPU's: valid on its own, a second record of one id in the revision.
        "id-twice": lambda: (specs / "link" / "test-gpu.yaml").write_text(
            (specs / "link" / "test-pcie.yaml").read_text().replace("id: test-pcie", "id: test-gpu")
        ),
        # Two review policies, the GPU's file the same under both, then changed under the second.
        "policy-6mo": lambda: (specs / "policy.yaml").write_text(POLICY.format(months=6)),
        "policy-12mo": lambda: (specs / "policy.yaml").write_text(POLICY.format(months=12)),
        "policy-12mo-gpu": lambda: (
            (specs / "policy.yaml").write_text(POLICY.format(months=12)),
            _edit(specs / "accelerator" / "test-gpu.yaml", "value: 3.35 TB/s", "value: 3.6 TB/s"),
        ),
        # Valid: a platform with no accelerator of its own.
        "bare-platform": lambda: (specs / "system" / "test-bare-system.yaml").write_text(
            system.replace("id: test-system", "id: test-bare-system").replace("accelerator: test-gpu, ", "")
        ),
    }
    for tag, change in changes.items():
        run("checkout", "-q", "--detach", "r0")
        change()
        run("add", "-A")
        run("commit", "-qm", tag)
        run("tag", tag)
    # The GPU names a runtime name seen in a log (seen-base); the log's source record is then deleted (seen-gone).
    run("checkout", "-q", "--detach", "r0")
    (specs / "source" / "test-log.yaml").write_text(
        (specs / "source" / "test-datasheet.yaml").read_text().replace("id: test-datasheet", "id: test-log").replace("name: A datasheet for the tests", "name: A log")
    )
    _edit(specs / "accelerator" / "test-gpu.yaml", "\nfigures:", "\nruntime_names:\n  - {name: TEST GPU X, reported_by: nvidia-smi, ref: test-log}\nfigures:")
    for tag in ("seen-base", "seen-gone"):
        if tag == "seen-gone":
            (specs / "source" / "test-log.yaml").unlink()
        run("add", "-A")
        run("commit", "-qm", tag)
        run("tag", tag)
    return specs


@pytest.mark.parametrize("tag, expected", [
    ("port-halved", [("system/test-system.yaml", "derived: test-fabric.port_bandwidth x 1 = 2.5e+10, but value is 5e+10 (more than 2% apart)")]),  # 200 Gb/s is 25 GB/s
    ("alias-taken", [("accelerator/test-gpu.yaml", "alias 'Test GPU SXM' already names 'test-gpu-2'")]),
])
def test_a_revision_never_seen_is_checked_across_records_where_only_a_remembered_file_is_wrong(branches, tmp_path, monkeypatch, tag, expected):
    compare_versions("r0", "r0", branches)
    # The wrong file is remembered from r0: only the changed file is validated again, and the checks across records
    # still find the problem.
    problems = _problems_of_both_readings(tag, branches, tmp_path, monkeypatch)
    assert [(problem.path, problem.message) for problem in problems] == [(f"{tag}:specs/{path}", message) for path, message in expected]


def test_a_revision_naming_a_record_it_no_longer_holds_is_read_as_committed_on_both_readings(branches, tmp_path, monkeypatch, capsys):
    """A reference to a record the revision does not hold is its only problem: found as a first reading finds it,
    said on stderr, and the revision diffed as it was committed (the record shows as removed)."""
    compare_versions("r0", "r0", branches)
    *_, fast = compare_versions("r0", "pcie-gone", branches)
    warned = capsys.readouterr().err
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "nothing-remembered"))
    *_, whole = compare_versions("r0", "pcie-gone", branches)
    assert "pcie-gone names records it does not hold" in warned and "uses.host_link: no record 'test-pcie'" in warned
    assert [change.as_dict() for change in fast] == [change.as_dict() for change in whole]
    assert ("record_removed", "test-pcie") in {(change.as_dict()["change"], change.as_dict()["record"]) for change in whole}


def _problems_of_both_readings(tag, branches, tmp_path, monkeypatch):
    """The problems a diff reports against a revision whose files are partly remembered, required to be those of a first reading."""
    with pytest.raises(InvalidSpecs) as fast:
        compare_versions("r0", tag, branches)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "nothing-remembered"))
    with pytest.raises(InvalidSpecs) as whole:
        open_version(tag, branches)
    assert fast.value.problems == whole.value.problems
    return whole.value.problems


def test_an_id_given_twice_one_of_them_remembered_is_reported_as_a_first_reading_reports_it(branches, tmp_path, monkeypatch):
    compare_versions("r0", "r0", branches)
    problems = _problems_of_both_readings("id-twice", branches, tmp_path, monkeypatch)
    assert "duplicate-id" in {problem.code for problem in problems}


def test_files_remembered_under_one_review_policy_are_not_taken_under_another(branches):
    compare_versions("policy-6mo", "policy-6mo", branches)
    found, *read = _reading_changes_only("policy-12mo", "policy-12mo-gpu", branches)
    expected, *versions = _whole("policy-12mo", "policy-12mo-gpu", branches)
    assert found == expected and _same_versions(read, versions)
    # Only the GPU's memory bandwidth moved; its figures warn after 12 months on both sides.
    assert [(c.change, c.figure) for c in compare_versions("policy-12mo", "policy-12mo-gpu", branches)[2]][0] == ("value_changed", "memory_bandwidth")
    assert {figure.fields["warn_after"] for figure in read[0].records["test-gpu"].figures.values()} == {"12 month"}


def test_a_revision_has_the_content_hash_of_its_files(history, tmp_path):
    folder = _folder_at(history, "c1", tmp_path / "c1")
    expected = open_version(str(folder), history).content_hash
    # Read whole the first time, from its summary the second.
    for _ in range(2):
        assert open_version("c1", history).content_hash == compare_versions("c0", "c1", history)[1].content_hash == expected


def test_a_source_gone_is_missed_by_every_remembered_file_citing_it(branches, tmp_path, monkeypatch):
    compare_versions("r0", "r0", branches)
    problems = _problems_of_both_readings("datasheet-gone", branches, tmp_path, monkeypatch)
    # Every record of the test data cites the datasheet.
    assert {(problem.path, problem.code) for problem in problems} == {
        (f"datasheet-gone:specs/{path}", "unknown-source")
        for path in ("accelerator/test-gpu.yaml", "fabric/test-fabric.yaml", "link/test-link.yaml", "link/test-pcie.yaml", "system/test-system.yaml")
    }


def test_a_source_gone_is_missed_by_a_remembered_runtime_name_citing_it(branches, tmp_path, monkeypatch):
    compare_versions("seen-base", "seen-base", branches)
    problems = _problems_of_both_readings("seen-gone", branches, tmp_path, monkeypatch)
    assert {(problem.path, problem.code) for problem in problems} == {("seen-gone:specs/accelerator/test-gpu.yaml", "unknown-source")}


def test_a_platform_without_an_accelerator_has_its_ratios_from_a_revision_never_seen(branches):
    compare_versions("r0", "r0", branches)
    found, *read = _reading_changes_only("r0", "bare-platform", branches)
    expected, *versions = _whole("r0", "bare-platform", branches)
    assert found == expected and _same_versions(read, versions)
    # Without an accelerator it has no memory or scale-up figure, so no ratio; it is listed all the same.
    assert compare_versions("bare-platform", "bare-platform", branches, validate=True)[1].ratios("per-direction")["test-bare-system"] == (None, None, None)


def _tree(history, tag):
    return subprocess.run(["git", "-C", str(history), "rev-parse", f"{tag}:data/specs"], capture_output=True, text=True, check=True).stdout.strip()


def _entries():
    return sorted(revisioncache.entry_path("x").parent.glob("*"))


@pytest.mark.parametrize("content", [
    b"{not json", b"", b"\xff\xfe", b"[]", b'{"content_hash": 1, "ratios": {}}', b'{"ratios": {}}',
    b'{"content_hash": "x", "ratios": {"per-direction": {"test-system": [1, 2]}, "as-quoted": {}}}',
    b'{"content_hash": "x", "ratios": {"per-direction": {"test-system": [1, 2, "3"]}, "as-quoted": {}}}',
    b'{"content_hash": "x", "ratios": {"per-direction": {"test-system": [1, 2, true]}, "as-quoted": {}}}',
    b'{"content_hash": "x", "ratios": {"per-direction": {"test-system": "1 2 3"}, "as-quoted": {}}}',
    b'{"content_hash": "x", "ratios": {"per-direction": [], "as-quoted": {}}}',
    b'{"content_hash": "x", "ratios": {"per-direction": {}}}',
    b'{"content_hash": "x", "ratios": {"per-direction": {}, "as-quoted": {}, "other": {}}}',
    b'{"content_hash": "x", "ratios": []}',
])
@pytest.mark.parametrize("checksummed", [False, True], ids=["as written", "with its checksum"])
def test_an_entry_not_of_the_expected_shape_is_not_trusted(content, checksummed):
    entry = revisioncache.entry_path("t")
    entry.parent.mkdir(parents=True)
    entry.write_bytes(revisioncache._checksum(content.decode(errors="replace")).encode() + b"\n" + content if checksummed else content)
    assert revisioncache.load("t") is None


def test_an_entry_holds_ratios_of_either_kind_of_number_or_none():
    summary = revisioncache.RevisionSummary("x", {"per-direction": {"p": (7.44, 67, None)}, "as-quoted": {}})
    revisioncache.store("t", summary)
    assert revisioncache.load("t") == summary
    assert revisioncache.load("other") is None


def test_a_corrupt_entry_is_ignored_and_replaced(history):
    compare_versions("c0", "c1", history, validate=True)
    for entry in _entries():
        entry.write_bytes(b'{"content_hash": "x", "ratios": {"per-direction": {"test-system": [1, 2]}, "as-quoted": {}}}')
    _assert_c0_to_c1_moves_the_platforms_ratios(history, validate=True)
    # Rewritten with the platform's ratios in each version: memory / scale-up, scale-up / scale-out, memory / scale-out.
    remembered = [json.loads(entry.read_text().partition("\n")[2])["ratios"]["per-direction"]["test-system"] for entry in _entries()]
    assert sorted(remembered) == [[7.44, 9.0, 67.0], [8.0, 9.0, 72.0]]


def test_an_entry_changed_after_it_was_written_is_not_trusted(history):
    """One digit changed in a remembered ratio (scale-up / scale-out, 9.0 in c0) would be a +50% ratio change that does not exist."""
    compare_versions("c0", "c1", history, validate=True)
    [c0] = [entry for entry in _entries() if entry.name.startswith(_tree(history, "c0"))]
    text = c0.read_text()
    assert text.count("[7.44, 9.0, 67.0]") == 1
    c0.write_text(text.replace("[7.44, 9.0, 67.0]", "[7.44, 6.0, 67.0]"))
    _assert_c0_to_c1_moves_the_platforms_ratios(history, validate=True)
    assert c0.read_text() == text


def test_a_damaged_cache_database_is_replaced(history, monkeypatch):
    """Garbage over the pages after the first: SQLite reads the file as a database, then finds it malformed."""
    compare_versions("c0", "c1", history)
    path = revisioncache.files_path()
    content = path.read_bytes()
    page = int.from_bytes(content[16:18], "big")
    assert len(content) > page
    path.write_bytes(content[:page] + b"\xa5" * (len(content) - page))
    _assert_c0_to_c1_moves_the_platforms_ratios(history)
    parsed = _counting_parses(monkeypatch)
    compare_versions("c0", "c1", history)
    assert parsed == [] and _remembered("PRAGMA integrity_check") == [("ok",)]


def test_a_cache_folder_that_cannot_be_written_only_costs_time(history, tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    _assert_c0_to_c1_moves_the_platforms_ratios(history)


def test_entries_are_whole_files_named_by_content(history):
    compare_versions("c0", "c1", history, validate=True)
    trees = {_tree(history, tag) for tag in ("c0", "c1")}
    entries = _entries()
    # No temporary file is left behind, and each entry is named by its specs tree and the code that made it.
    assert {entry.name.split("-")[0] for entry in entries} == trees and all(entry.suffix == ".json" for entry in entries)
    assert revisioncache.entry_path("abc").name == f"abc-{revisioncache.code_digest()[:16]}.json"


def _folder_at(history, tag, target):
    target.mkdir()
    archive = subprocess.run(["git", "-C", str(history.parent.parent), "archive", tag, "data/specs"], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(target), "--strip-components=2"], input=archive, check=True)
    return target


@pytest.fixture(scope="module")
def databases(history, tmp_path_factory):
    """c0 built, and c0 edited as c1 and c4 would have it and built: the GPU's memory bandwidth, a new source cited by its claims."""
    folder = tmp_path_factory.mktemp("databases")
    build(_folder_at(history, "c0", folder / "c0"), folder / "c0.sqlite")
    edited = _folder_at(history, "c0", folder / "edited")
    gpu = edited / "accelerator" / "test-gpu.yaml"
    _edit(gpu, "value: 3.35 TB/s", "value: 3.6 TB/s")
    _edit(gpu, "status: announced, sources: [{ref: test-datasheet}]", "status: announced, sources: [{ref: test-brief}]")
    _edit(gpu, "reason: raw stacks, sources: [{ref: test-datasheet}]", "reason: raw stacks, sources: [{ref: test-brief}]")
    (edited / "source" / "test-brief.yaml").write_text(
        "schema: 2\nid: test-brief\nkind: source\nname: A brief\npublisher: Test Vendor\nurl: https://example.com/brief\npublished: 2024-01-02\n"
    )
    build(edited, folder / "edited.sqlite")
    return folder


def test_two_database_files_report_what_their_whole_reading_reports(history, databases, tmp_path, monkeypatch):
    working = tmp_path / "working-folder"
    working.mkdir()
    monkeypatch.chdir(working)
    old, new = str(databases / "c0.sqlite"), str(databases / "edited.sqlite")
    for pair in ((old, new), (new, old)):
        found, *read = _reading_changes_only(*pair, history)
        expected, *versions = _whole(*pair, history)
        assert found == expected and _same_versions(read, versions)
    assert changed_records(databases / "c0.sqlite", databases / "edited.sqlite") == {"test-gpu", "test-brief"}
    assert list(working.iterdir()) == [], "comparing two files writes nothing where it runs"
    assert [(c.change, c.record, c.figure, c.old, c.new) for c in compare_versions(old, new, history)[2]] == [
        ("record_added", "test-brief", None, None, "A brief"),
        ("value_changed", "test-gpu", "memory_bandwidth", "3.35 TB/s", "3.6 TB/s"),
        ("history_changed", "test-gpu", "memory_bandwidth", ["test-datasheet"], ["test-brief"]),
        ("history_changed", "test-gpu", "memory_capacity", ["test-datasheet"], ["test-brief"]),
        ("ratio_changed", "test-system", "memory_to_scale_up", 7.44, 8.0),  # 3350 / 450, 3600 / 450
        ("ratio_changed", "test-system", "memory_to_scale_out", 67.0, 72.0),  # 3350 / 50, 3600 / 50
    ]


def test_databases_of_different_column_sets_have_every_record_compared(databases, tmp_path):
    wider = tmp_path / "wider.sqlite"
    shutil.copy(databases / "edited.sqlite", wider)
    with sqlite3.connect(wider) as connection:
        connection.execute("ALTER TABLE citation ADD COLUMN page TEXT")
    everything = {"test-gpu", "test-fabric", "test-link", "test-pcie", "test-datasheet", "test-system", "test-brief"}
    assert changed_records(databases / "c0.sqlite", wider) == everything


def test_a_bad_database_file_keeps_its_message(databases, tmp_path, cli):
    broken = tmp_path / "broken.sqlite"
    broken.write_text("not a database")
    for args in ((str(broken), str(databases / "c0.sqlite")), (str(databases / "c0.sqlite"), str(broken))):
        with pytest.raises(SpecdbError) as raised:
            compare_versions(*args, databases)
        assert raised.value.exit_code == 2 and str(broken) in str(raised.value)


def _on_a_terminal(args, cwd):
    """The CLI's exit code, and its stderr when it is a terminal."""
    leader, follower = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "specdb", *args], cwd=cwd, stdout=subprocess.DEVNULL, stderr=follower, env={**os.environ, "COLUMNS": "100"})
    os.close(follower)
    seen = b""
    while True:
        ready, _, _ = select.select([leader], [], [], 30)
        try:
            chunk = os.read(leader, 65536) if ready else b""
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    process.wait(30)
    os.close(leader)
    return process.returncode, seen.decode(errors="replace")


def test_progress_shows_on_a_terminal_and_not_when_piped(history, cli):
    args = ["diff", "c0", "c1", "--validate", "--specs", str(history)]
    code, shown = _on_a_terminal(args, history)
    # The test data's six files, counted to the end, each line erased by the next and the last erased when done; c1 has
    # five of c0's files, byte for byte, so only the GPU's is validated again.
    erase = "\r\x1b[K"
    assert code == 0 and f"reading c0  6/6 (100%){erase}reading c1  1/1 (100%){erase}" in shown
    piped = cli(*args, data=False)
    assert piped.exit_code == 0 and piped.stderr == "" and piped.stdout.startswith("c0 (")


def test_history_tells_its_progress_commit_by_commit(history, databases):
    from specdb.versions.history import figure_history
    from specdb.db.store import connect_readonly

    told = []
    rows = figure_history(connect_readonly(databases / "c0.sqlite"), history, "test-gpu", "memory_bandwidth", progress=lambda *step: told.append(step))
    # The GPU's file changed in c0, c1, c2, c3, c4, c5, c7, c8 and c10.
    assert told == [("reading the history of accelerator/test-gpu.yaml", done, 9) for done in range(1, 10)]
    # The database is c0's: its history entry and its current value; git adds each commit that changed the value.
    assert rows[0] == {"origin": "history entry", "date": "2022-03-22", "value": "3 TB/s", "status": "announced", "reviewed": "2022-04-01", "sources": ["test-datasheet"], "commit": None}
    assert [(row["value"], row["origin"].split(": ")[-1]) for row in rows[1:-1]] == [("3.35 TB/s", "c0"), ("3.6 TB/s", "c1"), ("3600 GB/s", "c10")]
    assert rows[-1] == {"origin": "current", "date": "2023-01-01", "value": "3.35 TB/s", "status": "shipping", "reviewed": "2026-07-15", "sources": ["test-datasheet"], "commit": None}


def test_a_diff_of_two_database_files_imports_no_validation_or_orm_library(databases):
    from conftest import heavy_modules_loaded

    assert heavy_modules_loaded(["diff", str(databases / "c0.sqlite"), str(databases / "edited.sqlite"), "--stat"]) == []


def test_a_diff_of_two_revisions_seen_before_imports_no_validation_or_orm_library(history):
    from conftest import heavy_modules_loaded

    compare_versions("c0", "c1", history)
    assert heavy_modules_loaded(["diff", "c0", "c1", "--specs", str(history), "--stat"]) == []
    # A revision never seen is validated, with pydantic.
    assert "pydantic" in heavy_modules_loaded(["diff", "c1", "c2", "--specs", str(history), "--stat"])


def _commit(history, tag):
    return subprocess.run(["git", "-C", str(history), "rev-parse", tag], capture_output=True, text=True, check=True).stdout[:10]


def test_the_working_tree_is_named_as_such(history, cli):
    result = cli("diff", "c8", "--stat", "--specs", str(history), data=False)
    # The working tree is c10: c9's policy gives the GPU's four figures a warning age, c10 makes five changes.
    assert result.stdout == f"c8 ({_commit(history, 'c8')}) -> working tree: 9 changes\n" + "".join(
        f"  {kind:18} {count}\n" for kind, count in (
            ("record_added", 1), ("record_changed", 1), ("value_changed", 1), ("sources_changed", 1), ("source_changed", 1), ("review_changed", 4),
        )
    )


def test_summary_lines_for_each_kind_of_change(history, cli):
    run = lambda old, new: cli("diff", old, new, "--specs", str(history), data=False).stdout  # noqa: E731
    assert run("c1", "c2") == (
        f"c1 ({_commit(history, 'c1')}) -> c2 ({_commit(history, 'c2')}): 1 counting changed, 2 ratio changed\n\n"
        "test-gpu\n  scale_up_bandwidth: direction bidirectional -> per-direction\n\n"
        "test-system (tier ratios)\n"
        "  memory_to_scale_up: 8x -> 4x (-50%) (basis per-direction)\n"  # 3600 / 450, 3600 / 900
        "  scale_up_to_scale_out: 9x -> 18x (+100%) (basis per-direction)\n"  # 450 / 50, 900 / 50
    )
    assert run("c7", "c8") == (
        f"c7 ({_commit(history, 'c7')}) -> c8 ({_commit(history, 'c8')}): 1 record removed, 1 history changed\n\n"
        "test-brief\n  removed: A brief\n\n"
        "test-gpu\n  memory_bandwidth: history 1 sources: removed / added: ['test-brief'] -> ['test-datasheet']\n"
    )
    assert run("c9", "c10") == (
        f"c9 ({_commit(history, 'c9')}) -> c10 ({_commit(history, 'c10')}): "
        "1 record added, 1 record changed, 1 value changed, 1 sources changed, 1 source changed\n\n"
        "test-datasheet\n  publisher: 'Test Vendor' -> 'Test Vendor Inc.'\n\n"
        # The note is cut to 57 characters and '...', 60 in all.
        "test-fabric\n  notes: none -> 'A fabric for the tests, with a note long enough to be cut...'\n\n"
        "test-gpu\n  dense_bf16_flops: sources -test-datasheet +test-whitepaper\n"
        "  memory_bandwidth: 3.6 TB/s -> 3600 GB/s [rewritten, same quantity]\n\n"
        "test-whitepaper\n  added: A whitepaper\n"
    )


def _edited_copy(databases, tmp_path, *statements, name="c0.sqlite"):
    copy = tmp_path / f"copy-of-{name}"
    shutil.copy(databases / name, copy)
    with sqlite3.connect(copy) as connection:
        for statement in statements:
            connection.execute(statement)
    return copy


# A database without digests (one upgraded from an earlier schema has none) is compared row by row.
WITHOUT_DIGESTS = "DELETE FROM record_digest"


def test_a_row_gone_from_a_record_changes_it_either_way(databases, tmp_path):
    fewer = _edited_copy(databases, tmp_path, WITHOUT_DIGESTS, "DELETE FROM alias WHERE alias = 'Test GPU SXM'")
    assert changed_records(databases / "c0.sqlite", fewer) == changed_records(fewer, databases / "c0.sqlite") == {"test-gpu"}


def test_rows_numbered_differently_are_the_same_rows(databases, tmp_path):
    renumbered = _edited_copy(
        databases, tmp_path, WITHOUT_DIGESTS,
        "UPDATE figure SET id = id + 1000",
        "UPDATE claim SET id = id + 1000, figure_id = figure_id + 1000",
        "UPDATE citation SET id = id + 1000, figure_id = figure_id + 1000, claim_id = claim_id + 1000",
        "UPDATE collective_run SET figure_id = figure_id + 1000",
    )
    assert changed_records(databases / "c0.sqlite", renumbered) == set()


@pytest.fixture(scope="module")
def renumbered(databases, history):
    """c0 with a platform whose id sorts first and which has a measured run: the rows of every other record get new numbers."""
    folder = _folder_at(history, "c0", databases / "renumbered")
    system = (folder / "system" / "test-system.yaml").read_text()
    run = (
        "  measured_all_reduce_busbw_8gpu_ring:\n    value: 370 GB/s\n    direction: per-direction\n    scope: per-accelerator\n"
        "    status: measured\n    as_of: 2024-01\n    reviewed: 2026-07-15\n    method: nccl-tests all_reduce_perf\n"
        "    sources: [{ref: test-datasheet}]\n"
        "    collective: {operation: all-reduce, accelerators: 8, size: 8 GiB, algorithm: ring, library: NCCL 2.18.5}\n"
    )
    (folder / "system" / "test-a-system.yaml").write_text(system.replace("id: test-system", "id: test-a-system") + run)
    build(folder, databases / "renumbered.sqlite")
    return databases / "renumbered.sqlite"


def test_a_record_added_first_renumbers_the_others_rows_yet_only_it_has_changed(databases, renumbered, history, tmp_path):
    old = databases / "c0.sqlite"
    first_gpu_figure = "SELECT min(id) FROM figure WHERE record_id = 'test-gpu'"
    with sqlite3.connect(old) as before, sqlite3.connect(renumbered) as after:
        # The new platform's three figures copied from test-system and its measured run come first.
        assert after.execute(first_gpu_figure).fetchone()[0] == before.execute(first_gpu_figure).fetchone()[0] + 4
        assert after.execute("SELECT count(*) FROM collective_run").fetchone() == (1,)
    assert changed_records(old, renumbered) == changed_records(renumbered, old) == {"test-a-system"}
    # Compared row by row, the same.
    assert changed_records(old, _edited_copy(databases, tmp_path, WITHOUT_DIGESTS, name="renumbered.sqlite")) == {"test-a-system"}
    found, *read = _reading_changes_only(str(old), str(renumbered), history)
    expected, *versions = _whole(str(old), str(renumbered), history)
    assert found == expected and _same_versions(read, versions)


@pytest.mark.parametrize("column", ["value_text", "note"])
def test_a_change_to_any_column_of_any_row_a_record_owns_changes_its_digest(databases, renumbered, tmp_path, column):
    from specdb.db.rows import rows_digest

    def digest(path, record_id):
        with sqlite3.connect(path) as connection:
            return connection.execute("SELECT digest FROM record_digest WHERE id = ?", (record_id,)).fetchone()[0]

    # Built from the same bytes, numbered differently: one digest.
    assert digest(databases / "c0.sqlite", "test-gpu") == digest(renumbered, "test-gpu")
    figure = {"id": 1, "record_id": "r", "name": "memory_bandwidth", "value_text": "3 TB/s", "note": None}
    claim = {"id": 1, "figure_id": 1, "position": 0, "value_text": "2 TB/s", "note": None}
    citation = {"id": 1, "figure_id": 1, "claim_id": 1, "position": 0, "source_id": "s", "quote": None, "note": None}
    rows = [("record", {"id": "r", "name": "R"}), ("figure", figure), ("claim", claim), ("citation", citation)]
    renumbered_rows = [
        ("record", {"id": "r", "name": "R"}), ("figure", {**figure, "id": 7}), ("claim", {**claim, "id": 9, "figure_id": 7}),
        ("citation", {**citation, "id": 3, "figure_id": 7, "claim_id": 9}),
    ]
    assert rows_digest(rows) == rows_digest(renumbered_rows)
    for position, (table, row) in enumerate(rows):
        if column in row:
            edited = [*rows[:position], (table, {**row, column: "other"}), *rows[position + 1:]]
            assert rows_digest(edited) != rows_digest(rows), table
    # The same rows in another order (a citation moved from the claim to the figure) are other rows.
    assert rows_digest([rows[0], rows[1], rows[3], rows[2]]) != rows_digest(rows)


def test_databases_of_one_version_are_compared_by_the_digests_their_builds_wrote(databases, tmp_path):
    # A row changed behind specdb's back keeps its record's digest: the digest is what the build wrote with the rows.
    edited_by_hand = "UPDATE record SET vendor = 'Another Vendor' WHERE id = 'test-fabric'"
    same_version = _edited_copy(databases, tmp_path, edited_by_hand, name="edited.sqlite")
    assert changed_records(databases / "c0.sqlite", same_version) == {"test-gpu", "test-brief"}
    other_version = _edited_copy(databases, tmp_path, edited_by_hand, "UPDATE meta SET value = '0.0.1' WHERE key = 'specdb_version'", name="edited.sqlite")
    # Made by another specdb version, its rows are compared, and the fabric's vendor is found.
    assert changed_records(databases / "c0.sqlite", other_version) == changed_records(other_version, databases / "c0.sqlite") == {"test-gpu", "test-brief", "test-fabric"}
    without_version = _edited_copy(databases, tmp_path, edited_by_hand, "DELETE FROM meta WHERE key = 'specdb_version'", name="edited.sqlite")
    assert changed_records(without_version, databases / "c0.sqlite") == {"test-gpu", "test-brief", "test-fabric"}
    missing_one = _edited_copy(databases, tmp_path, edited_by_hand, "DELETE FROM record_digest WHERE id = 'test-link'", name="edited.sqlite")
    assert changed_records(databases / "c0.sqlite", missing_one) == changed_records(missing_one, databases / "c0.sqlite") == {"test-gpu", "test-brief", "test-fabric"}


def test_databases_whose_columns_are_named_otherwise_have_every_record_compared(databases, tmp_path):
    renamed = _edited_copy(databases, tmp_path, "ALTER TABLE citation RENAME COLUMN note TO remark", name="edited.sqlite")
    everything = {"test-gpu", "test-fabric", "test-link", "test-pcie", "test-datasheet", "test-system", "test-brief"}
    assert changed_records(databases / "c0.sqlite", renamed) == everything


def test_two_databases_from_before_digests_are_compared_by_their_rows(databases, tmp_path):
    before_digests = ("DROP TABLE record_digest", "UPDATE alembic_version SET version_num = '0003'")
    old = _edited_copy(databases, tmp_path, *before_digests)
    new = _edited_copy(databases, tmp_path, *before_digests, "UPDATE record SET vendor = 'Another Vendor' WHERE id = 'test-fabric'", name="edited.sqlite")
    assert changed_records(old, new) == {"test-gpu", "test-brief", "test-fabric"}


def test_a_database_upgraded_from_the_schema_before_digests_is_compared_by_its_rows(databases, history, tmp_path):
    from specdb.db.builder import upgrade
    from specdb.db.store import schema_revision

    older = _edited_copy(
        databases, tmp_path, "DROP TABLE runtime_name", "DROP TABLE record_digest", "ALTER TABLE source DROP COLUMN fingerprint",
        "UPDATE alembic_version SET version_num = '0003'",
    )
    for old, new in ((str(older), str(databases / "edited.sqlite")), (str(databases / "edited.sqlite"), str(older))):
        found, *read = _reading_changes_only(old, new, history)
        expected, *versions = _whole(old, new, history)
        assert found == expected and _same_versions(read, versions)
    upgrade(older)
    with sqlite3.connect(older) as connection:
        assert schema_revision(connection) == "0006" and connection.execute("SELECT count(*) FROM record_digest").fetchone() == (0,)
    assert changed_records(older, databases / "edited.sqlite") == {"test-gpu", "test-brief"}
    found, *read = _reading_changes_only(str(older), str(databases / "edited.sqlite"), history)
    expected, *versions = _whole(str(older), str(databases / "edited.sqlite"), history)
    assert found == expected and _same_versions(read, versions)
    assert "value_changed" in found["stat"]


def test_an_invalid_folder_is_reported_at_its_own_path(specs, tmp_path):
    _edit(specs / "link" / "test-pcie.yaml", "kind: link", "kind: lnk")
    with pytest.raises(InvalidSpecs) as raised:
        compare_versions(str(specs), str(TEST_SPECS), tmp_path)
    assert raised.value.exit_code == 2
    assert [problem.path for problem in raised.value.problems] == [f"{specs}/link/test-pcie.yaml"]


def test_a_kind_change_figures_added_removed_rewritten_and_an_unclassified_column():
    from specdb.versions.diff import Change
    from specdb.versions.snapshot import FigureState, RecordState, Snapshot

    def figure(text, value):
        return FigureState({"value_text": text, "value": value, "unit": "B/s"}, ())

    def unclassified(shelf):
        return FigureState({"value_text": "1 GB/s", "value": 1e9, "unit": "B/s", "shelf": shelf}, ())

    old = Snapshot("old", {"r": RecordState("r", "link", {"name": "R"}, figures={"a": figure("1 GB/s", 1e9), "b": figure("2 GB/s", 2e9), "d": unclassified(1)})})
    new = Snapshot("new", {"r": RecordState("r", "fabric", {"name": "R"}, figures={"a": figure("1000 MB/s", 1e9), "c": figure("3 GB/s", 3e9), "d": unclassified(2)})})
    assert diff(old, new) == [
        Change("record_changed", "r", old="link", new="fabric", detail="kind"),
        Change("value_changed", "r", "a", old="1 GB/s", new="1000 MB/s", percent=0.0, detail="rewritten, same quantity"),
        Change("figure_removed", "r", "b", old="2 GB/s"),
        Change("figure_added", "r", "c", new="3 GB/s"),
        # A column diff does not classify is still reported.
        Change("figure_changed", "r", "d", old=1, new=2, detail="shelf"),
    ]


def test_a_revision_against_a_folder_or_a_database(history, databases, tmp_path):
    folder = _folder_at(history, "c1", tmp_path / "c1")
    for old, new in (("c0", str(folder)), (str(folder), "c0"), ("c1", str(databases / "c0.sqlite"))):
        found, *_ = _reading_changes_only(old, new, history)
        expected, *_ = _whole(old, new, history)
        assert found == expected
    # c0 to c1 moved the GPU's memory bandwidth and two of the platform's ratios.
    assert [c.change for c in compare_versions("c0", str(folder), history)[2]] == ["value_changed", "ratio_changed", "ratio_changed"]


def test_progress_counts_a_file_once_it_is_validated(specs, monkeypatch):
    import specdb.load.dataset

    events = []
    real = specdb.load.dataset.parse_yaml
    monkeypatch.setattr(specdb.load.dataset, "parse_yaml", lambda raw, **options: events.append("parsed") or real(raw, **options))
    compare_versions(str(specs), str(specs), specs, progress=lambda label, done, total: events.append(done))
    # Six files a side: each count follows the parse of the file it counts, never precedes it.
    assert events == ["parsed", 1, "parsed", 2, "parsed", 3, "parsed", 4, "parsed", 5, "parsed", 6] * 2


def test_progress_names_each_version_read_whole(history, specs):
    told = []
    compare_versions(str(specs), str(specs), specs, progress=lambda *step: told.append(step))
    # The test data has six files, read once for each side.
    assert told == [(f"reading {specs}", done, 6) for done in range(1, 7)] * 2
    told.clear()
    compare_versions("c0", "c1", history, progress=lambda *step: told.append(step), validate=True)
    # c0 is read whole; c1 has five of its files, byte for byte, so only the GPU's is validated.
    assert [step for step in told if step[1] == step[2]] == [("reading c0", 6, 6), ("reading c1", 1, 1)]
    compare_versions("c8", "c9", history)
    revisioncache.files_path().unlink()
    told.clear()
    compare_versions("c8", "c9", history, progress=lambda *step: told.append(step))
    # The policy file changed between them, so both are read whole again: c8 has six files, c9 the policy as well.
    assert [step for step in told if step[1] == step[2]] == [("reading c8", 6, 6), ("reading c9", 7, 7)]
    told.clear()
    compare_versions("c8", "c9", history, progress=lambda *step: told.append(step))
    # Every file is remembered now but c9's policy file, which is validated each time.
    assert told == [("reading c9", 1, 1)]
    told.clear()
    compare_versions("c9", None, history, progress=lambda *step: told.append(step))
    # Against the working tree both are read whole; the working tree is c10, with one source more than c9.
    assert [step for step in told if step[1] == step[2]] == [("reading c9", 1, 1), ("reading working tree", 8, 8)]
