"""diff of two git revisions never read before reads what the change reaches, and reports what reading both whole reports."""

import json
import shutil
import subprocess
import tempfile

import pytest

import specdb.load.dataset
from conftest import REPO, TEST_SPECS
from specdb.errors import InvalidSpecs
from specdb.versions import gitsource
from specdb.versions.diff import FORMATS, compare_versions, diff, open_version, render

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
ALL_FORMATS = (*FORMATS, "stat")
# The system's scale-up figure, derived from the link's per-accelerator figure: the link's edits reach the platform.
SCALE_UP = (
    "  scale_up_bandwidth:\n    value: {value}\n    direction: bidirectional\n    scope: per-accelerator\n    status: shipping\n"
    "    as_of: 2023-01\n    reviewed: 2026-07-15\n    derived: {{product: [test-link.per_accelerator_bandwidth]}}\n"
    "    sources: [{{ref: test-datasheet}}]\n"
)


def _edit(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    """l0 the test data with the platform's scale-up figure derived from the link's; l1 the link's lanes doubled, with the
    platform's figure that derives from it; l2 the link alone edited again, which the platform no longer agrees with;
    g1 the GPU's memory bandwidth raised."""
    root = tmp_path_factory.mktemp("cold") / "repo"
    specs = root / "specs"
    shutil.copytree(TEST_SPECS, specs)
    run = lambda *args: subprocess.run([*GIT, "-C", str(root), *args], check=True, capture_output=True)  # noqa: E731
    subprocess.run(["git", "init", "-q", str(root)], check=True)

    def commit(tag):
        run("add", "-A")
        run("commit", "-qm", tag)
        run("tag", tag)

    system, link = specs / "system" / "test-system.yaml", specs / "link" / "test-link.yaml"
    _edit(system, "  scale_out_bandwidth:", SCALE_UP.format(value="900 GB/s") + "  scale_out_bandwidth:")
    commit("l0")
    _edit(link, 'links_per_accelerator: {value: "18"', 'links_per_accelerator: {value: "36"')
    _edit(link, "value: 900 GB/s", "value: 1800 GB/s")
    _edit(system, "    value: 900 GB/s\n    direction: bidirectional", "    value: 1800 GB/s\n    direction: bidirectional")
    commit("l1")
    _edit(link, 'links_per_accelerator: {value: "36"', 'links_per_accelerator: {value: "72"')
    _edit(link, "value: 1800 GB/s", "value: 3600 GB/s")
    commit("l2")
    run("checkout", "-q", "--detach", "l0")
    _edit(specs / "accelerator" / "test-gpu.yaml", "value: 3.35 TB/s", "value: 3.6 TB/s")
    commit("g1")
    return specs


def _whole(old, new, specs):
    """The report in every format from both versions read whole, each on its own, with nothing remembered."""
    with pytest.MonkeyPatch.context() as nothing_remembered, tempfile.TemporaryDirectory() as cache:
        nothing_remembered.setenv("XDG_CACHE_HOME", cache)
        before, after = open_version(old, specs), open_version(new, specs)
    changes = diff(before, after)
    return {fmt: render(changes, fmt, before, after) for fmt in ALL_FORMATS}


def _reported(old, new, specs, **options):
    before, after, changes = compare_versions(old, new, specs, **options)
    return {fmt: render(changes, fmt, before, after) for fmt in ALL_FORMATS}


def _parsed_ids(monkeypatch):
    parsed = []
    real = specdb.load.dataset.parse_yaml
    monkeypatch.setattr(specdb.load.dataset, "parse_yaml", lambda raw, **options: parsed.append(raw) or real(raw, **options))
    return parsed


def _ids(parsed):
    return sorted(line.split(b": ", 1)[1].decode() for raw in parsed for line in raw.splitlines() if line.startswith(b"id: "))


def test_a_ratio_moved_by_an_edited_link_is_reported_as_reading_both_whole_reports_it(history):
    found = _reported("l0", "l1", history)
    assert found == _whole("l0", "l1", history) == _reported("l0", "l1", history, validate=True)
    changes = [(c["change"], c["record"], c["figure"], c["old"], c["new"]) for c in json.loads(found["json"])]
    # per-direction: memory 3350 GB/s; scale-up 900 -> 1800 GB/s both ways, 450 -> 900 one way; scale-out 50 GB/s.
    assert ("ratio_changed", "test-system", "memory_to_scale_up", 7.44, 3.72) in changes  # 3350 / 450, 3350 / 900
    assert ("ratio_changed", "test-system", "scale_up_to_scale_out", 9.0, 18.0) in changes  # 450 / 50, 900 / 50
    assert ("value_changed", "test-link", "per_accelerator_bandwidth", "900 GB/s", "1800 GB/s") in changes


def test_a_link_edit_an_unchanged_platform_no_longer_agrees_with_is_reported_as_a_whole_reading_reports_it(history):
    with pytest.raises(InvalidSpecs) as whole:
        open_version("l2", history)
    with pytest.raises(InvalidSpecs) as reached:
        compare_versions("l1", "l2", history)
    assert reached.value.problems == whole.value.problems
    # 72 links of 25 GB/s both ways is 3600 GB/s; the platform still says 1800 GB/s.
    assert [(problem.path, problem.message) for problem in whole.value.problems] == [
        ("l2:specs/system/test-system.yaml", "derived: test-link.per_accelerator_bandwidth x 1 = 3.6e+12, but value is 1.8e+12 (more than 2% apart)"),
    ]


def test_revisions_never_read_have_only_the_records_the_change_reaches_read(history, monkeypatch):
    parsed = _parsed_ids(monkeypatch)
    changes = compare_versions("l0", "g1", history)[2]
    assert [(c.change, c.record) for c in changes] == [
        ("value_changed", "test-gpu"), ("ratio_changed", "test-system"), ("ratio_changed", "test-system"),
    ]
    # On each side: the changed GPU, the platform naming it (its tier ratios), and the two records whose figures the
    # platform's derived figures multiply; the last three have the same bytes on both sides, so they are validated once.
    # The PCIe link and the datasheet are not reached.
    assert _ids(parsed) == ["test-fabric", "test-gpu", "test-gpu", "test-link", "test-system"]


def test_a_second_diff_reads_no_file_and_searches_nothing(history, monkeypatch):
    compare_versions("l0", "g1", history)
    parsed = _parsed_ids(monkeypatch)
    searched = []
    monkeypatch.setattr(gitsource, "mentioning", lambda *args, **options: searched.append(args) or [])
    assert [c.change for c in compare_versions("l0", "g1", history)[2]] == ["value_changed", "ratio_changed", "ratio_changed"]
    assert parsed == [] and searched == []


def test_validate_checks_the_whole_of_each_revision_never_read(history, tmp_path, cli):
    """A record broken far from the change, in both revisions: the change is reported, unless --validate is asked for."""
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(history.parent), str(clone)], check=True)
    run = lambda *args: subprocess.run([*GIT, "-C", str(clone), *args], check=True, capture_output=True)  # noqa: E731
    specs = clone / "specs"
    run("checkout", "-q", "--detach", "l0")
    _edit(specs / "link" / "test-pcie.yaml", "lanes: {value: \"16\"", "lanes: {value: \"8\"")
    run("commit", "-qam", "the PCIe link's lanes no longer agree with its derived figures")
    _edit(specs / "accelerator" / "test-gpu.yaml", "value: 3.35 TB/s", "value: 3.6 TB/s")
    run("commit", "-qam", "the GPU's memory bandwidth")
    reached = cli("diff", "HEAD~1", "HEAD", "--specs", str(specs), "--format", "json", data=False)
    assert reached.exit_code == 0
    assert [change["record"] for change in json.loads(reached.stdout)] == ["test-gpu", "test-system", "test-system"]
    validated = cli("diff", "HEAD~1", "HEAD", "--validate", "--specs", str(specs), data=False)
    assert validated.exit_code == 2
    assert "HEAD~1:specs/link/test-pcie.yaml" in validated.stderr and "derived: lane_rate x lanes" in validated.stderr


def _spec_commits(count):
    """The newest commits of this repository that change specs/, newest first, or none in a clone without them."""
    if shutil.which("git") is None:
        return []
    log = subprocess.run(["git", "-C", str(REPO), "log", f"-{count}", "--format=%H", "--", "specs"], capture_output=True, text=True, check=False)
    return log.stdout.split() if log.returncode == 0 else []


def test_the_repositorys_own_recent_changes_read_as_reading_both_whole_reads_them():
    commits = _spec_commits(4)
    if len(commits) < 4:
        pytest.skip("this clone holds fewer than four commits that change specs/")
    specs = REPO / "specs"
    for new, old in zip(commits, commits[1:]):
        assert _reported(old, new, specs) == _whole(old, new, specs), (old, new)


def test_a_revision_committed_with_a_record_it_did_not_hold_yet_is_read_as_committed(tmp_path):
    """A system committed a commit before the accelerator it is built on: the old revision diffs (exit 1 with
    --exit-code, not 2), says what it lacked, and the accelerator shows as added."""
    root = tmp_path / "repo"
    specs = root / "specs"
    shutil.copytree(TEST_SPECS, specs)
    run = lambda *args: subprocess.run([*GIT, "-C", str(root), *args], check=True, capture_output=True)  # noqa: E731
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    gpu = specs / "accelerator" / "test-gpu.yaml"
    held = gpu.read_text()
    gpu.unlink()
    run("add", "-A")
    run("commit", "-qm", "the system before its accelerator")
    gpu.write_text(held)
    run("add", "-A")
    run("commit", "-qm", "the accelerator")
    from typer.testing import CliRunner

    from specdb.cli import app

    result = CliRunner().invoke(app, ["diff", "HEAD~1", "HEAD", "--exit-code", "--format", "json", "--specs", str(specs)])
    assert result.exit_code == 1, result.stderr
    assert "HEAD~1 names records it does not hold" in result.stderr and "no record 'test-gpu'" in result.stderr
    assert {c["record"] for c in json.loads(result.stdout) if c["change"] == "record_added"} == {"test-gpu"}
    broken = gpu.read_text().replace("id: test-gpu", "id: test-gpu\nnot_a_key: 1", 1)
    gpu.write_text(broken)
    run("add", "-A")
    run("commit", "-qm", "an invalid record")
    # A record invalid on its own is still an error, as before.
    assert CliRunner().invoke(app, ["diff", "HEAD~1", "HEAD", "--specs", str(specs)]).exit_code == 2
