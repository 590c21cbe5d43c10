"""diff reports every change to the data, in its group, and the three readings of one version agree field by field."""

import hashlib
import re
import shutil
import subprocess

import pytest

from conftest import TEST_SPECS
from specdb.db.builder import build
from specdb.load.dataset import load_specs
from specdb.versions.diff import diff, open_version
from specdb.errors import UsageError
from specdb.versions.snapshot import Citation, from_dataset

GPU = "accelerator/test-gpu.yaml"
BRIEF = "schema: 2\nid: test-brief\nkind: source\nname: A brief\npublisher: Test Vendor\nurl: https://example.com/brief\npublished: 2024-01-02\n"


@pytest.fixture
def versions(tmp_path):
    """An old copy of the test data with a second source, and a function that edits a new copy and returns the changes."""
    old = tmp_path / "old"
    shutil.copytree(TEST_SPECS, old)
    (old / "source" / "test-brief.yaml").write_text(BRIEF)

    def changes(*edits, only=None):
        new = tmp_path / "new"
        shutil.rmtree(new, ignore_errors=True)
        shutil.copytree(old, new)
        for relpath, find, replace in edits:
            path = new / relpath
            text = path.read_text()
            assert find in text, find
            path.write_text(text.replace(find, replace, 1))
        found = diff(open_version(str(old), old), open_version(str(new), old), only=only)
        return [(c.change, c.group, c.record, c.figure, c.detail, c.old, c.new) for c in found]

    return changes


def test_a_figure_note_added(versions):
    assert versions((GPU, "    direction: total\n", "    direction: total\n    note: one board\n")) == [
        ("prose_changed", "prose", "test-gpu", "memory_bandwidth", "note", None, "one board"),
    ]


def test_uncertainty_rewritten(versions):
    versions_edit = (GPU, "    direction: total\n", "    direction: total\n    uncertainty: the vendor rounds\n")
    assert versions(versions_edit)[0][:5] == ("prose_changed", "prose", "test-gpu", "memory_bandwidth", "uncertainty")


def test_a_citation_locator_added(versions):
    assert versions((GPU, '        quote: "GPU Memory Bandwidth 3.35TB/s"', '        quote: "GPU Memory Bandwidth 3.35TB/s"\n        locator: page 2')) == [
        ("sources_changed", "sources", "test-gpu", "memory_bandwidth", "sources: test-datasheet locator", None, "page 2"),
    ]


def test_a_quote_changed(versions):
    assert versions((GPU, '"GPU Memory Bandwidth 3.35TB/s"', '"Memory bandwidth 3.35 TB/s"')) == [
        ("sources_changed", "sources", "test-gpu", "memory_bandwidth", "sources: test-datasheet quote", "GPU Memory Bandwidth 3.35TB/s", "Memory bandwidth 3.35 TB/s"),
    ]


def test_a_history_entry_re_dated(versions):
    assert versions((GPU, "reviewed: 2022-04-01", "reviewed: 2022-05-01")) == [
        ("history_changed", "history", "test-gpu", "memory_bandwidth", "history 1 reviewed", "2022-04-01", "2022-05-01"),
    ]


def test_an_alternative_citing_another_source(versions):
    assert versions((GPU, "{value: 80 GiB, reason: raw stacks, sources: [{ref: test-datasheet}]}", "{value: 80 GiB, reason: raw stacks, sources: [{ref: test-brief}]}")) == [
        ("history_changed", "history", "test-gpu", "memory_capacity", "alternative 1 sources: removed / added", ["test-datasheet"], ["test-brief"]),
    ]


def test_a_history_entry_added(versions):
    entry = "      - {value: 3 TB/s, as_of: 2022-03-22, reviewed: 2022-04-01, status: announced, sources: [{ref: test-datasheet}]}\n"
    older = "      - {value: 2.5 TB/s, as_of: 2021-12-01, reviewed: 2022-04-01, status: announced, sources: [{ref: test-brief}]}\n"
    assert versions((GPU, entry, entry + older)) == [
        ("history_changed", "history", "test-gpu", "memory_bandwidth", "history 2 added", None, "2.5 TB/s"),
    ]


def test_a_source_record_moved_to_another_url(versions):
    assert versions(("source/test-brief.yaml", "https://example.com/brief", "https://example.org/brief")) == [
        ("source_changed", "sources", "test-brief", None, "url", "https://example.com/brief", "https://example.org/brief"),
    ]


def test_record_notes_are_prose(versions):
    assert versions(("fabric/test-fabric.yaml", "released: 2021-11\n", "released: 2021-11\nnotes: a 4x lane port\n")) == [
        ("record_changed", "prose", "test-fabric", None, "notes", None, "a 4x lane port"),
    ]


def test_an_as_of_date_with_the_same_value(versions):
    assert versions(("fabric/test-fabric.yaml", "as_of: 2021-11,", "as_of: 2021-12,")) == [
        ("review_changed", "review", "test-fabric", "port_bandwidth", "as_of", "2021-11-01", "2021-12-01"),
    ]


def test_a_date_rewritten_as_the_same_day(versions):
    assert versions(("fabric/test-fabric.yaml", "as_of: 2021-11,", "as_of: 2021-11-01,")) == [
        ("review_changed", "review", "test-fabric", "port_bandwidth", "as_of_text", "2021-11", "2021-11-01"),
    ]


def test_a_value_and_its_review_date_changed_together(versions):
    # The first review date in the file is memory_bandwidth's.
    found = versions((GPU, "value: 3.35 TB/s", "value: 3.6 TB/s"), (GPU, "reviewed: 2026-07-15", "reviewed: 2026-08-01"))
    assert found[:2] == [
        ("value_changed", "values", "test-gpu", "memory_bandwidth", None, "3.35 TB/s", "3.6 TB/s"),
        ("review_changed", "review", "test-gpu", "memory_bandwidth", "reviewed", "2026-07-15", "2026-08-01"),
    ]


def test_a_direction_change(versions):
    found = versions((GPU, "value: 900 GB/s\n    direction: bidirectional", "value: 900 GB/s\n    direction: per-direction"))
    assert found[0] == ("counting_changed", "counting", "test-gpu", "scale_up_bandwidth", "direction", "bidirectional", "per-direction")


def test_only_narrows_to_the_groups_asked_for(versions):
    edits = [(GPU, "    direction: total\n", "    direction: total\n    note: one board\n"), (GPU, "value: 3.35 TB/s", "value: 3.6 TB/s")]
    assert [change[1] for change in versions(*edits, only=("prose",))] == ["prose"]
    assert {change[1] for change in versions(*edits, only=("values", "ratios"))} == {"values", "ratios"}
    assert {change[1] for change in versions(*edits)} == {"prose", "values", "ratios"}


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_exit_code_sees_a_commit_that_changes_only_prose(tmp_path, cli):
    specs = tmp_path / "repo" / "specs"
    shutil.copytree(TEST_SPECS, specs)
    git = ["git", "-C", str(specs.parent), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "data"], check=True)
    gpu = specs / GPU
    gpu.write_text(gpu.read_text().replace('quote: "GPU Memory Bandwidth 3.35TB/s"', 'quote: "GPU Memory Bandwidth 3.35TB/s"\n        locator: table 1'))
    subprocess.run([*git, "commit", "-qam", "locator"], check=True)
    run = lambda *args: cli("diff", *args, "--specs", str(specs), data=False)  # noqa: E731
    assert run("HEAD~1", "HEAD", "--exit-code").exit_code == 1
    assert run("HEAD~1", "HEAD", "--exit-code", "--only", "values,counting").exit_code == 0
    assert "test-datasheet locator" in run("HEAD~1", "HEAD").stdout
    bad = run("HEAD~1", "HEAD", "--only", "colour")
    assert bad.exit_code == 2 and "unknown group colour" in bad.stderr


def test_folder_git_and_database_readings_agree_field_by_field(tmp_path):
    specs = tmp_path / "repo" / "specs"
    shutil.copytree(TEST_SPECS, specs)
    (specs / "source" / "test-brief.yaml").write_text(BRIEF)
    gpu = specs / GPU
    gpu.write_text(gpu.read_text().replace("reason: raw stacks, sources: [{ref: test-datasheet}]", "reason: raw stacks, sources: [{ref: test-brief, locator: p. 4, note: table 2}]"))
    git = ["git", "-C", str(specs.parent), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "data"], check=True)
    build(specs, tmp_path / "specdb.sqlite")
    folder = open_version(str(specs), specs)
    revision = open_version("HEAD", specs)
    database = open_version(str(tmp_path / "specdb.sqlite"), specs)
    assert folder.records == revision.records == database.records
    # The content hash as the README defines it: each file's path, a zero byte and the SHA-256 of its bytes, in path order.
    content = hashlib.sha256()
    for path in sorted(specs.rglob("*.yaml"), key=lambda path: path.relative_to(specs).as_posix()):
        content.update(path.relative_to(specs).as_posix().encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    assert folder.content_hash == revision.content_hash == database.content_hash == content.hexdigest()
    head = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    assert revision.git_revision == database.git_revision == head
    assert database.records["test-datasheet"].id == "test-datasheet" and database.records["test-datasheet"].kind == "source"
    for reading in (folder, revision, database):
        # What tests/data/specs/accelerator/test-gpu.yaml says, read by hand: each reading must carry all of it.
        gpu = reading.records["test-gpu"]
        assert (gpu.kind, gpu.name, gpu.fields["vendor"], gpu.fields["family"]) == ("accelerator", "Test GPU 80GB", "Test Vendor", "Testarch")
        assert set(gpu.aliases) == {"TEST GPU 80GB HBM3", "Test GPU SXM"}
        assert set(gpu.uses) == {("scale_up", "test-link"), ("host_link", "test-pcie")}
        bandwidth = gpu.figures["memory_bandwidth"]
        assert {key: bandwidth.fields[key] for key in ("value_text", "direction", "scope", "status", "as_of_text", "reviewed_text")} == {
            "value_text": "3.35 TB/s", "direction": "total", "scope": "per-accelerator", "status": "shipping",
            "as_of_text": "2023-01", "reviewed_text": "2026-07-15",
        }
        assert bandwidth.fields["value"] == 3.35e12
        assert bandwidth.citations == (Citation("test-datasheet", "GPU Memory Bandwidth 3.35TB/s", None, None),)
        [earlier] = bandwidth.history
        assert {key: earlier.fields[key] for key in ("value_text", "status")} == {"value_text": "3 TB/s", "status": "announced"}
        assert earlier.fields["value"] == 3e12 and [c.source_id for c in earlier.citations] == ["test-datasheet"]
        claim = gpu.figures["memory_capacity"].alternatives[0]
        assert claim.fields["reason"] == "raw stacks" and claim.fields["value_text"] == "80 GiB"
        assert claim.citations == (Citation("test-brief", None, "p. 4", "table 2"),)
    assert from_dataset(load_specs(specs), "again").records == folder.records


def _changes(old, new):
    return [(c.change, c.record, c.old, c.new) for c in diff(open_version(str(old), old), open_version(str(new), old)) if c.change.startswith("record_")]


def _use(folder, old_id, new_id):
    for relpath in (GPU, "system/test-system.yaml"):
        path = folder / relpath
        path.write_text(re.sub(rf"\b{old_id}\b(?!-)", new_id, path.read_text()))


def test_a_rename_is_found_by_any_of_the_new_records_aliases(tmp_path):
    old, new = tmp_path / "old", tmp_path / "new"
    shutil.copytree(TEST_SPECS, old)
    shutil.copytree(TEST_SPECS, new)
    link = new / "link" / "test-link.yaml"
    (new / "link" / "test-link-4.yaml").write_text(link.read_text().replace("id: test-link", "id: test-link-4\naliases: [Other Link, test-link]"))
    link.unlink()
    _use(new, "test-link", "test-link-4")
    assert ("record_renamed", "test-link-4", "test-link", "test-link-4") in _changes(old, new)
    assert not any(change[0] in ("record_added", "record_removed") for change in _changes(old, new))


def test_a_record_that_was_there_before_taking_a_removed_id_as_alias_is_no_rename(tmp_path):
    old, new = tmp_path / "old", tmp_path / "new"
    for folder in (old, new):
        shutil.copytree(TEST_SPECS, folder)
        fabric = folder / "fabric" / "test-fabric.yaml"
        (folder / "fabric" / "test-fabric-800.yaml").write_text(fabric.read_text().replace("id: test-fabric", "id: test-fabric-800").replace("Test Fabric 400", "Test Fabric 800"))
    (new / "fabric" / "test-fabric.yaml").unlink()
    eight_hundred = new / "fabric" / "test-fabric-800.yaml"
    eight_hundred.write_text(eight_hundred.read_text().replace("id: test-fabric-800", "id: test-fabric-800\naliases: [test-fabric]"))
    _use(new, "test-fabric", "test-fabric-800")
    found = _changes(old, new)
    # Removed, with the record that took its id as an alias and the platform now using that record changed beside it.
    assert [(change, record) for change, record, _, _ in found] == [
        ("record_removed", "test-fabric"), ("record_changed", "test-fabric-800"), ("record_changed", "test-system"),
    ]
    assert found[:2] == [("record_removed", "test-fabric", "Test Fabric 400", None), ("record_changed", "test-fabric-800", [], ["test-fabric"])]


def test_every_unknown_group_is_named(versions):
    with pytest.raises(UsageError) as refused:
        versions(only=("colour", "size"))
    # The groups as the README's command table lists them.
    assert str(refused.value) == "unknown group colour, size; groups are records, values, counting, sources, review, prose, history, ratios"


def test_a_versions_ratios_are_counted_on_the_basis_asked_for():
    snapshot = from_dataset(load_specs(TEST_SPECS), "the test data")
    # Memory 3.35 TB/s; scale-up 900 GB/s both directions, 450 GB/s each way; scale-out 400 Gb/s = 50 GB/s each way.
    assert snapshot.ratios("per-direction") == {"test-system": (7.44, 9.0, 67.0)}
    assert snapshot.ratios("as-quoted") == {"test-system": (3.72, 18.0, 67.0)}
