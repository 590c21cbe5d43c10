"""The lines `specdb diff` prints for people, written out by hand for each kind of change."""

import shutil
import subprocess

import pytest

from conftest import TEST_SPECS

GPU = "accelerator/test-gpu.yaml"
FABRIC = "fabric/test-fabric.yaml"
SCALE_UP = (
    "  scale_up_bandwidth:\n    value: 900 GB/s\n    direction: bidirectional\n    scope: per-accelerator\n    status: shipping\n"
    "    as_of: 2023-01\n    reviewed: 2026-07-15\n    sources: [{ref: test-datasheet}]\n"
)
# 60 characters: the longest text a summary line shows whole.
NOTE_60 = "A fabric note of sixty characters, shown whole in a summary."
# 61 characters: cut to its first 57 and '...'.
NOTE_61 = "A fabric note of sixty-one characters, cut short in a summary"


def _source(source_id, name):
    return f"schema: 2\nid: {source_id}\nkind: source\nname: {name}\npublisher: Test Vendor\nurl: https://example.com/{source_id}\npublished: 2024-01-02\n"


def _edit(folder, relpath, find, replace):
    path = folder / relpath
    text = path.read_text()
    assert find in text, find
    path.write_text(text.replace(find, replace, 1))


@pytest.fixture
def versions(tmp_path, cli):
    """An old copy of the test data with three more sources, the GPU's flops citing two of them; and a function that
    edits a new copy (each edit a text replaced in a file, or a function of the folder) and returns the diff's output
    from old to new, or new to old, with the options given."""
    old = tmp_path / "old"
    shutil.copytree(TEST_SPECS, old)
    for source_id, name in (("test-brief", "A brief"), ("test-paper", "A paper"), ("test-whitepaper", "A whitepaper")):
        (old / "source" / f"{source_id}.yaml").write_text(_source(source_id, name))
    _edit(old, GPU, "sources: [{ref: test-datasheet}]\n  scale_up", "sources: [{ref: test-brief}, {ref: test-datasheet}]\n  scale_up")

    def shown(*edits, args=(), backwards=False):
        new = tmp_path / "new"
        shutil.rmtree(new, ignore_errors=True)
        shutil.copytree(old, new)
        for edit in edits:
            edit(new) if callable(edit) else _edit(new, *edit)
        first, second = (new, old) if backwards else (old, new)
        result = cli("diff", str(first), str(second), *args, "--specs", str(old), data=False)
        assert result.exit_code == 0, result.stderr
        return result.stdout

    shown.old, shown.new = old, tmp_path / "new"
    return shown


def test_a_figure_removed_leaves_two_ratios_without_a_value(versions):
    out = versions((GPU, SCALE_UP, ""))
    # 3350 GB/s of memory over 450 GB/s a direction of scale-up; 450 GB/s over 50 GB/s (400 Gb/s) of scale-out.
    assert out == (
        f"{versions.old} -> {versions.new}: 1 figure removed, 2 ratio changed\n\n"
        "test-gpu\n"
        "  scale_up_bandwidth removed (was 900 GB/s)\n\n"
        "test-system (tier ratios)\n"
        "  memory_to_scale_up: 7.44x -> none (basis per-direction)\n"
        "  scale_up_to_scale_out: 9x -> none (basis per-direction)\n"
    )


def test_a_figure_added_gives_two_ratios_a_value(versions):
    out = versions((GPU, SCALE_UP, ""), backwards=True)
    assert out == (
        f"{versions.new} -> {versions.old}: 1 figure added, 2 ratio changed\n\n"
        "test-gpu\n"
        "  scale_up_bandwidth added: 900 GB/s\n\n"
        "test-system (tier ratios)\n"
        "  memory_to_scale_up: none -> 7.44x (basis per-direction)\n"
        "  scale_up_to_scale_out: none -> 9x (basis per-direction)\n"
    )


def test_markdown_leaves_an_empty_line_after_each_record(versions):
    out = versions((GPU, SCALE_UP, ""), args=("--format", "markdown"))
    assert out == (
        f"## Changes from {versions.old} to {versions.new}\n\n"
        "1 figure removed, 2 ratio changed\n\n"
        "### test-gpu\n"
        "- scale_up_bandwidth removed (was 900 GB/s)\n\n"
        "### test-system (tier ratios)\n"
        "- memory_to_scale_up: 7.44x -> none (basis per-direction)\n"
        "- scale_up_to_scale_out: 9x -> none (basis per-direction)\n"
    )


def test_a_status_change(versions):
    assert versions((FABRIC, "status: shipping", "status: announced")) == (
        f"{versions.old} -> {versions.new}: 1 status changed\n\n"
        "test-fabric\n"
        "  port_bandwidth: status shipping -> announced\n"
    )


def test_two_sources_removed_and_two_added(versions):
    cited = "sources: [{ref: test-brief}, {ref: test-datasheet}]"
    assert versions((GPU, cited, "sources: [{ref: test-whitepaper}, {ref: test-paper}]")) == (
        f"{versions.old} -> {versions.new}: 1 sources changed\n\n"
        "test-gpu\n"
        "  dense_bf16_flops: sources -test-brief -test-datasheet +test-paper +test-whitepaper\n"
    )


def _pcie_renamed(new):
    """The PCIe link's file and id renamed, the old id kept as an alias, and the two records using it following."""
    pcie = new / "link" / "test-pcie.yaml"
    (new / "link" / "test-pcie-5.yaml").write_text(pcie.read_text().replace("id: test-pcie", "id: test-pcie-5\naliases: [test-pcie]"))
    pcie.unlink()
    _edit(new, GPU, "host_link: test-pcie}", "host_link: test-pcie-5}")
    _edit(new, "system/test-system.yaml", "host_link: test-pcie,", "host_link: test-pcie-5,")


def test_a_rename_through_an_alias(versions):
    assert versions(_pcie_renamed) == (
        f"{versions.old} -> {versions.new}: 1 record renamed, 3 record changed\n\n"
        "test-gpu\n"
        "  uses: [['host_link', 'test-pcie'], ['scale_up', 'test-link']] -> [['host_link', 'test-pcie-5'], ['scale_up', 'test-link']]\n\n"
        "test-pcie-5\n"
        "  renamed from test-pcie\n"
        "  aliases: [] -> ['test-pcie']\n\n"
        "test-system\n"
        "  uses: [['accelerator', 'test-gpu'], ['host_link', 'test-pcie'], ['scale_out', 'test-fabric'], ['scale_up', 'test-link']]"
        " -> [['accelerator', 'test-gpu'], ['host_link', 'test-pcie-5'], ['scale_out', 'test-fabric'], ['scale_up', 'test-link']]\n"
    )


def test_a_text_of_sixty_characters_is_shown_whole_and_one_of_sixty_one_is_cut(versions):
    assert (len(NOTE_60), len(NOTE_61)) == (60, 61)
    released = "released: 2021-11\n"
    assert versions((FABRIC, released, f"{released}notes: {NOTE_60}\n")) == (
        f"{versions.old} -> {versions.new}: 1 record changed\n\n"
        "test-fabric\n"
        "  notes: none -> 'A fabric note of sixty characters, shown whole in a summary.'\n"
    )
    assert versions((FABRIC, released, f"{released}notes: {NOTE_61}\n")) == (
        f"{versions.old} -> {versions.new}: 1 record changed\n\n"
        "test-fabric\n"
        "  notes: none -> 'A fabric note of sixty-one characters, cut short in a sum...'\n"
    )


def test_a_version_against_itself_has_no_changes_in_every_format(versions):
    assert versions() == f"{versions.old} -> {versions.new}: no changes\n"
    assert versions(args=("--format", "markdown")) == f"## Changes from {versions.old} to {versions.new}\n\nno changes\n"
    assert versions(args=("--stat",)) == f"{versions.old} -> {versions.new}: 0 changes\n"
    assert versions(args=("--format", "json")) == "[]\n"


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_revision_named_by_its_commit_is_shown_as_named_and_a_branch_with_its_commit(tmp_path, cli):
    specs = tmp_path / "repo" / "specs"
    shutil.copytree(TEST_SPECS, specs)
    git = ["git", "-C", str(specs.parent), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "data"], check=True)
    _edit(specs, FABRIC, "status: shipping", "status: announced")
    subprocess.run([*git, "commit", "-qam", "announced"], check=True)
    subprocess.run([*git, "branch", "announced"], check=True)
    first, second = (
        subprocess.run([*git, "rev-parse", revision], check=True, capture_output=True, text=True).stdout.strip() for revision in ("HEAD~1", "HEAD")
    )
    lines = "1 status changed\n\ntest-fabric\n  port_bandwidth: status shipping -> announced\n"
    run = lambda old, new: cli("diff", old, new, "--specs", str(specs), data=False).stdout  # noqa: E731
    # A commit named by ten or more of its digits, or in full, already says which commit it is.
    assert run(first[:10], second[:12]) == f"{first[:10]} -> {second[:12]}: {lines}"
    assert run(first, "announced") == f"{first} -> announced ({second[:10]}): {lines}"
