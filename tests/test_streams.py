"""Every command in a process started oddly: arguments that are not UTF-8, standard streams closed, a full disk, an ASCII-only locale.

Each case runs `specdb` as a shell runs it, and ends with one clear message and the exit code of its kind, never an internal error.
"""

import json
import os
import subprocess
import sys

import pytest

from conftest import REPO, TEST_SPECS


def _specdb(*argv, redirect="", stdin=None, env=None, tmp_path):
    """`specdb ARGV REDIRECT` through sh, so the redirection (`>&-`, `> /dev/full`) is the shell's own."""
    command = [os.fsencode(arg) for arg in (sys.executable, "-m", "specdb", *argv)]
    script = b'exec "$@" ' + redirect.encode()
    environment = {**os.environ, "PYTHONPATH": str(REPO), "XDG_CACHE_HOME": str(tmp_path / "cache"), **(env or {})}
    return subprocess.run([b"sh", b"-c", script, b"sh", *command], input=stdin, capture_output=True, env=environment, timeout=120)


def _data(tmp_path):
    return ["--specs", str(TEST_SPECS), "--db", str(tmp_path / "specdb.sqlite")]


@pytest.mark.parametrize("argv", [["show", b"\xff\xfe"], ["history", "test-gpu", b"memory\xff"], ["sql", b"SELECT '\xe9'"], ["export", "csv", b"\xff"], [b"\xff"]], ids=repr)
def test_an_argument_that_is_not_utf8_is_refused_by_name(argv, tmp_path):
    result = _specdb(*argv, tmp_path=tmp_path)
    undecodable = next(arg for arg in argv if isinstance(arg, bytes) and not arg.isascii())
    assert (result.returncode, result.stdout) == (2, b"")
    assert result.stderr.decode() == f"specdb: the argument {repr(undecodable)[1:]} is not UTF-8 text\n"


@pytest.mark.parametrize("argv", [["list"], ["show", "test-gpu", "-f", "json"], ["--help"], ["export", "--help"]], ids=" ".join)
def test_a_closed_standard_output_is_said_to_be_closed(argv, tmp_path):
    result = _specdb(*argv, *(_data(tmp_path) if "--help" not in argv else []), redirect=">&-", tmp_path=tmp_path)
    assert (result.returncode, result.stderr) == (3, b"specdb: cannot write to standard output: it is closed\n")


@pytest.mark.parametrize("argv", [["list"], ["sql", "SELECT id FROM record", "-f", "csv"], ["--help"]], ids=" ".join)
def test_a_full_disk_is_said_to_be_full(argv, tmp_path):
    result = _specdb(*argv, *(_data(tmp_path) if "--help" not in argv else []), redirect="> /dev/full", tmp_path=tmp_path)
    assert (result.returncode, result.stderr) == (3, b"specdb: cannot write to standard output: No space left on device\n")


def test_a_closed_standard_input_is_said_to_be_closed(tmp_path):
    result = _specdb("check", "-", redirect="<&-", tmp_path=tmp_path)
    assert (result.returncode, result.stdout) == (2, b"")
    assert result.stderr == b"specdb: -: cannot be read (standard input is closed)\n"


def test_a_closed_standard_error_keeps_the_exit_code_and_leaves_standard_output_to_the_data(tmp_path):
    failed = _specdb("show", "no-such-record", *_data(tmp_path), redirect="2>&-", tmp_path=tmp_path)
    assert (failed.returncode, failed.stdout) == (2, b"")
    listed = _specdb("list", "-f", "csv", *_data(tmp_path), redirect="2>&-", tmp_path=tmp_path)
    assert listed.returncode == 0 and listed.stdout.startswith(b"id,kind,name,")


def test_a_file_opened_with_standard_streams_closed_never_takes_their_place(tmp_path):
    """A database opened as descriptor 1 or 2 would receive what is printed there, and git's errors."""
    code = (
        "import os\n"
        "from specdb.cli.common import guard_standard_streams\n"
        "guard_standard_streams()\n"
        f"print(os.open({str(tmp_path / 'opened')!r}, os.O_CREAT | os.O_RDWR), file=open({str(tmp_path / 'fd')!r}, 'w'))\n"
    )
    subprocess.run(["sh", "-c", 'exec "$@" <&- >&- 2>&-', "sh", sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(REPO)}, check=True)
    assert int((tmp_path / "fd").read_text()) > 2


def test_an_ascii_only_locale_gets_escapes_and_json_stays_json(tmp_path):
    query = "SELECT 'Ｂ200 … é 😀' AS name"
    ascii_only = {"PYTHONIOENCODING": "ascii", "LC_ALL": "C", "LANG": "C"}
    table = _specdb("sql", query, *_data(tmp_path), env=ascii_only, tmp_path=tmp_path)
    assert (table.returncode, table.stderr) == (0, b"")
    # U+FF22 FULLWIDTH LATIN CAPITAL LETTER B, U+2026 ELLIPSIS, U+00E9 é, U+1F600 as the UTF-16 pair D83D DE00.
    assert table.stdout.decode("ascii").splitlines()[2] == r"\uff22200 \u2026 \u00e9 \ud83d\ude00"
    as_json = _specdb("sql", query, "-f", "json", *_data(tmp_path), env=ascii_only, tmp_path=tmp_path)
    assert as_json.returncode == 0
    assert json.loads(as_json.stdout.decode("ascii")) == [{"name": "Ｂ200 … é 😀"}]
    unknown = _specdb("show", "Ｂ200…", *_data(tmp_path), env=ascii_only, tmp_path=tmp_path)
    assert unknown.returncode == 2 and unknown.stderr.decode("ascii").startswith(r"specdb: no record or alias '\uff22200\u2026'")
