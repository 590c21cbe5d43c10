"""plot ratios writes a real image with one column per platform, and says how to get matplotlib when it is missing."""

import os
import sys
import xml.etree.ElementTree as ElementTree

import pytest

pytest.importorskip("matplotlib")


def test_svg_has_one_column_per_platform(cli, specs, tmp_path):
    newer = specs / "system" / "test-system-2.yaml"
    newer.write_text((specs / "system" / "test-system.yaml").read_text().replace("id: test-system", "id: test-system-2"))
    output = tmp_path / "ladder.svg"
    result = cli("plot", "ratios", "--output", str(output))
    assert result.exit_code == 0, result.stderr
    ids = {element.get("id") for element in ElementTree.parse(output).iter() if element.get("id", "").startswith("platform-")}
    assert {"platform-test-system", "platform-test-system-2"} <= ids
    assert sum(1 for i in ids if not i.endswith(("_gbps",))) == 2


def test_png_is_a_png(cli, tmp_path):
    output = tmp_path / "ladder.png"
    assert cli("plot", "ratios", "--output", str(output), "--basis", "as-quoted").exit_code == 0
    assert output.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_an_unknown_image_type_is_a_usage_error(cli, tmp_path):
    result = cli("plot", "ratios", "--output", str(tmp_path / "ladder.gif"))
    assert result.exit_code == 2 and ".png or .svg" in result.stderr


def test_without_matplotlib_the_command_says_how_to_get_it(cli, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    result = cli("plot", "ratios", "--output", str(tmp_path / "ladder.png"))
    assert result.exit_code == 3
    assert "pip install 'specdb[plot]'" in result.stderr


def _beside(path):
    """Everything in path's folder whose name starts with path's name or a dot and path's name: the file and any temporary."""
    return sorted(entry.name for entry in path.parent.iterdir() if entry.name.lstrip(".").startswith(path.name))


def test_a_write_that_fails_leaves_the_earlier_image_whole(cli, tmp_path, monkeypatch):
    import errno

    from matplotlib.figure import Figure

    output = tmp_path / "keep.png"
    output.write_bytes(b"an image the user keeps")

    def half_then_full(self, path, **options):
        with open(path, "wb") as handle:
            handle.write(b"\x89PNG half")
        raise OSError(errno.ENOSPC, "No space left on device")

    assert cli("build").exit_code == 0
    monkeypatch.setattr(Figure, "savefig", half_then_full)
    result = cli("plot", "ratios", "--output", str(output))
    assert result.exit_code == 3 and f"{output}: cannot write (No space left on device)" in result.stderr
    assert output.read_bytes() == b"an image the user keeps"
    assert _beside(output) == ["keep.png"]


def test_a_file_size_limit_leaves_the_earlier_image_whole(cli, tmp_path):
    import os
    import resource
    import signal
    import subprocess

    from conftest import REPO

    output = tmp_path / "keep.png"
    output.write_bytes(b"an image the user keeps")
    assert cli("build").exit_code == 0

    def limited():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead of killing
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    result = subprocess.run(
        [sys.executable, "-m", "specdb", "plot", "ratios", "-o", str(output), "--specs", str(cli.specs), "--db", str(cli.db)],
        capture_output=True, text=True, preexec_fn=limited, env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert result.returncode == 3 and f"{output}: cannot write (File too large)" in result.stderr
    assert output.read_bytes() == b"an image the user keeps"
    assert _beside(output) == ["keep.png"]


def test_an_image_replaces_the_old_one_keeping_its_permissions(cli, tmp_path):
    output = tmp_path / "keep.svg"
    output.write_text("old")
    output.chmod(0o600)
    assert cli("plot", "ratios", "--output", str(output)).exit_code == 0
    assert output.read_text().startswith("<?xml") and (output.stat().st_mode & 0o777) == 0o600
    assert _beside(output) == ["keep.svg"]


def test_a_link_to_an_image_is_written_through(cli, tmp_path):
    (tmp_path / "images").mkdir()
    target = tmp_path / "images" / "ladder.svg"
    target.write_text("old")
    link = tmp_path / "ladder.svg"
    link.symlink_to(target)
    assert cli("plot", "ratios", "--output", str(link)).exit_code == 0
    assert link.is_symlink() and target.read_text().startswith("<?xml")


@pytest.mark.parametrize("make, name, code, message", [
    (lambda tmp: (tmp / "ladder.png").symlink_to(tmp / "elsewhere" / "ladder.png"), "ladder.png", 3, "a broken symbolic link"),
    (lambda tmp: (tmp / "ladder.png").mkdir(), "ladder.png", 2, "is a folder; name a file"),
    (lambda tmp: (tmp / "notes").write_text("x"), "notes/ladder.png", 2, "notes is not a folder"),
    (lambda tmp: None, "missing/ladder.png", 2, "missing; create it first"),
    (lambda tmp: os.mkfifo(tmp / "ladder.png"), "ladder.png", 2, "is not a regular file (a FIFO, device or socket)"),
], ids=["broken link", "a folder", "below a file", "below nothing", "a FIFO"])
def test_a_path_that_cannot_take_an_image_is_refused_and_nothing_is_written(cli, tmp_path, make, name, code, message):
    make(tmp_path)
    before = sorted(path.name for path in tmp_path.rglob("*"))
    result = cli("plot", "ratios", "--output", str(tmp_path / name))
    assert result.exit_code == code and message in result.stderr, result.stderr
    assert sorted(path.name for path in tmp_path.rglob("*")) == sorted(before + ["specdb.sqlite", "specdb.sqlite.lock"])
    assert not (tmp_path / "elsewhere").exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="permissions do not bind root")
def test_an_unwritable_folder_is_a_clear_error(cli, tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        result = cli("plot", "ratios", "--output", str(folder / "ladder.png"))
    finally:
        folder.chmod(0o700)
    assert result.exit_code == 3 and "cannot write (Permission denied)" in result.stderr
    assert list(folder.iterdir()) == []


def test_temporaries_of_a_killed_writer_are_removed_and_a_running_ones_kept(cli, tmp_path):
    import subprocess

    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    output = tmp_path / "ladder.png"
    stale = tmp_path / f".ladder.png.{dead.pid}.0123abcd.tmp"
    running = tmp_path / f".ladder.png.{os.getpid()}.4567cdef.tmp"  # this process is alive: another writer in it may be at work
    for path in (stale, running):
        path.write_text("half")
    assert cli("plot", "ratios", "--output", str(output)).exit_code == 0
    assert _beside(output) == [running.name, "ladder.png"]


def test_a_name_near_the_longest_a_folder_allows_is_written(cli, tmp_path):
    # 251 characters and the suffix: 255, the most most file systems allow; the temporary beside it must still fit.
    output = tmp_path / ("x" * 251 + ".svg")
    assert cli("plot", "ratios", "--output", str(output)).exit_code == 0
    assert output.read_text().startswith("<?xml") and _beside(output) == [output.name]


def test_a_name_longer_than_a_folder_allows_is_a_clear_error(cli, tmp_path):
    result = cli("plot", "ratios", "--output", str(tmp_path / ("z" * 300 + ".png")))
    assert result.exit_code == 3 and "cannot write (File name too long)" in result.stderr


def test_plot_does_not_create_a_missing_folder(cli, tmp_path):
    target = tmp_path / "nowhere" / "ladder.png"
    result = cli("plot", "ratios", "--output", str(target))
    assert result.exit_code == 2
    assert f"no folder {target.parent}; create it first" in result.stderr
    assert not target.parent.exists()
