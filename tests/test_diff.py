"""diff and history over a throwaway git repository whose commits make every kind of change."""

import json
import shutil
import subprocess

import pytest

from conftest import TEST_SPECS
from specdb.db.builder import build
from specdb.versions.diff import diff, open_version
from specdb.errors import InvalidSpecs

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _git(repo, *args):
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def _rev_parse(specs, revision):
    return subprocess.run(["git", "-C", str(specs), "rev-parse", revision], check=True, capture_output=True, text=True).stdout.strip()


def _commit(repo, message):
    _git(repo, "add", "-A")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", message)
    _git(repo, "tag", message.split()[0])


def _edit(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


@pytest.fixture
def repo(tmp_path):
    """Commits v0 (the test data), v1 value, v2 sources, v3 review, v4 added, v5 removed, v6 rename, v7 invalid."""
    root = tmp_path / "repo"
    specs = root / "data" / "specs"
    shutil.copytree(TEST_SPECS, specs)
    _git(root.parent, "init", "-q", str(root))
    _commit(root, "v0 the test data")
    gpu = specs / "accelerator" / "test-gpu.yaml"
    _edit(gpu, "value: 3.35 TB/s", "value: 3.6 TB/s")
    _commit(root, "v1 memory bandwidth revised")
    (specs / "source" / "test-brief.yaml").write_text(
        "schema: 2\nid: test-brief\nkind: source\nname: A brief\npublisher: Test Vendor\nurl: https://example.com/brief\npublished: 2024-01-02\n"
    )
    _edit(gpu, "sources: [{ref: test-datasheet}]\n  scale_up", "sources: [{ref: test-brief}]\n  scale_up")
    _commit(root, "v2 flops source replaced")
    fabric = specs / "fabric" / "test-fabric.yaml"
    _edit(fabric, "reviewed: 2026-07-15", "reviewed: 2026-08-01")
    _commit(root, "v3 fabric re-reviewed")
    (specs / "fabric" / "test-fabric-800.yaml").write_text(
        fabric.read_text().replace("id: test-fabric", "id: test-fabric-800").replace("Test Fabric 400", "Test Fabric 800").replace("400 Gb/s", "800 Gb/s")
    )
    _commit(root, "v4 fabric added")
    (specs / "fabric" / "test-fabric-800.yaml").unlink()
    _commit(root, "v5 fabric removed")
    link = specs / "link" / "test-link.yaml"
    renamed = specs / "link" / "test-link-4.yaml"
    renamed.write_text(link.read_text().replace("id: test-link", "id: test-link-4\naliases: [test-link]"))
    link.unlink()
    for path in (gpu, specs / "system" / "test-system.yaml"):
        _edit(path, "scale_up: test-link,", "scale_up: test-link-4,")
    _commit(root, "v6 link renamed")
    _edit(gpu, "status: announced", "status: rumoured")
    _commit(root, "v7 invalid")
    return specs


def _changes(specs, old, new):
    return [(c.change, c.record, c.figure, c.old, c.new) for c in diff(open_version(old, specs), open_version(new, specs))]


def test_a_value_change_reports_old_new_percent_and_the_ratios_that_moved(repo):
    changes = diff(open_version("v0", repo), open_version("v1", repo))
    assert [(c.change, c.record, c.figure, c.old, c.new, c.percent) for c in changes] == [
        ("value_changed", "test-gpu", "memory_bandwidth", "3.35 TB/s", "3.6 TB/s", 7.46),
        ("ratio_changed", "test-system", "memory_to_scale_up", 7.44, 8.0, 7.53),
        ("ratio_changed", "test-system", "memory_to_scale_out", 67.0, 72.0, 7.46),
    ]


def test_sources_added_and_removed(repo):
    assert _changes(repo, "v1", "v2") == [
        ("record_added", "test-brief", None, None, "A brief"),
        ("sources_changed", "test-gpu", "dense_bf16_flops", ["test-datasheet"], ["test-brief"]),
    ]


def test_a_re_review_with_the_same_value(repo):
    assert _changes(repo, "v2", "v3") == [("re_reviewed", "test-fabric", "port_bandwidth", "2026-07-15", "2026-08-01")]


def test_records_added_and_removed(repo):
    assert _changes(repo, "v3", "v4") == [("record_added", "test-fabric-800", None, None, "Test Fabric 800")]
    assert _changes(repo, "v4", "v5") == [("record_removed", "test-fabric-800", None, "Test Fabric 800", None)]


def test_a_rename_declared_in_aliases_is_matched(repo):
    assert _changes(repo, "v5", "v6") == [
        ("record_changed", "test-gpu", None, [["host_link", "test-pcie"], ["scale_up", "test-link"]], [["host_link", "test-pcie"], ["scale_up", "test-link-4"]]),
        ("record_renamed", "test-link-4", None, "test-link", "test-link-4"),
        ("record_changed", "test-link-4", None, [], ["test-link"]),
        ("record_changed", "test-system", None, [["accelerator", "test-gpu"], ["host_link", "test-pcie"], ["scale_out", "test-fabric"], ["scale_up", "test-link"]],
         [["accelerator", "test-gpu"], ["host_link", "test-pcie"], ["scale_out", "test-fabric"], ["scale_up", "test-link-4"]]),
    ]


def test_an_invalid_revision_is_reported_with_its_own_errors(repo, cli):
    with pytest.raises(InvalidSpecs) as raised:
        open_version("v7", repo)
    [problem] = raised.value.problems
    assert problem.path == "v7:data/specs/accelerator/test-gpu.yaml" and (problem.line, problem.column) == (22, 74)
    result = cli("diff", "v6", "v7", "--specs", str(repo), data=False)
    assert result.exit_code == 2
    assert "v7:data/specs/accelerator/test-gpu.yaml:22:74: figures.memory_bandwidth.history[0].status: 'rumoured'" in result.stderr


def test_the_working_tree_is_the_default_new_version(repo, cli):
    _edit(repo / "accelerator" / "test-gpu.yaml", "status: rumoured", "status: announced")
    result = cli("diff", "v6", "--specs", str(repo), "--format", "json", data=False)
    assert result.exit_code == 0 and json.loads(result.stdout) == []


def test_formats_and_exit_codes(repo, cli):
    run = lambda *args: cli("diff", *args, "--specs", str(repo), data=False)  # noqa: E731
    commit = {tag: _rev_parse(repo, tag)[:10] for tag in ("v0", "v1", "v2", "v3")}
    summary = run("v2", "v3")
    assert summary.stdout == (
        f"v2 ({commit['v2']}) -> v3 ({commit['v3']}): 1 re-reviewed\n\n"
        "test-fabric\n  port_bandwidth: re-reviewed 2026-07-15 -> 2026-08-01, value unchanged\n"
    )
    assert run("v0", "v1", "--stat").stdout == f"v0 ({commit['v0']}) -> v1 ({commit['v1']}): 3 changes\n  value_changed      1\n  ratio_changed      2\n"
    markdown = run("v0", "v1", "--format", "markdown").stdout
    assert markdown.startswith(
        f"## Changes from v0 ({commit['v0']}) to v1 ({commit['v1']})\n\n1 value changed, 2 ratio changed\n\n"
        "### test-gpu\n- memory_bandwidth: 3.35 TB/s -> 3.6 TB/s (+7.46%)\n"
    )
    data = json.loads(run("v0", "v1", "--format", "json").stdout)
    assert set(data[0]) == {"change", "group", "record", "figure", "old", "new", "percent", "detail"}
    assert run("v0", "v1", "--exit-code").exit_code == 1
    assert run("v1", "v1", "--exit-code").exit_code == 0
    assert run("no-such-revision").exit_code == 2


def test_a_diff_of_two_databases_agrees_with_the_diff_of_their_folders(repo, tmp_path):
    folders = {}
    for tag in ("v0", "v6"):
        folder = tmp_path / tag
        subprocess.run(f"git -C {repo.parent.parent} archive {tag} data/specs | tar -x -C {tmp_path} && mv {tmp_path}/data/specs {folder} && rm -r {tmp_path}/data", shell=True, check=True)
        folders[tag] = folder
        build(folder, tmp_path / f"{tag}.sqlite")
    from_folders = diff(open_version(str(folders["v0"]), repo), open_version(str(folders["v6"]), repo))
    from_databases = diff(open_version(str(tmp_path / "v0.sqlite"), repo), open_version(str(tmp_path / "v6.sqlite"), repo))
    from_git = diff(open_version("v0", repo), open_version("v6", repo))
    assert from_databases == from_folders == from_git
    assert len(from_folders) == 10


def test_history_lists_entries_commits_and_the_current_value(repo, cli, tmp_path):
    _edit(repo / "accelerator" / "test-gpu.yaml", "status: rumoured", "status: announced")
    result = cli("history", "test-gpu", "memory_bandwidth", "--specs", str(repo), "--db", str(tmp_path / "h.sqlite"), "-f", "json", data=False)
    rows = json.loads(result.stdout)
    assert [(row["origin"].split(":")[0][:6], row["value"]) for row in rows] == [
        ("histor", "3 TB/s"), ("commit", "3.35 TB/s"), ("commit", "3.6 TB/s"), ("curren", "3.6 TB/s"),
    ]
    assert rows[2]["origin"].endswith("v1 memory bandwidth revised")


def test_history_of_an_unknown_figure_names_the_ones_there_are(cli):
    result = cli("history", "test-gpu", "memory_bw")
    assert result.exit_code == 2 and "test-gpu has no figure 'memory_bw'; it has dense_bf16_flops" in result.stderr
