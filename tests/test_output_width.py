"""Tables fit the terminal they are printed on; piped output, CSV, JSON and Markdown keep every character."""

import fcntl
import io
import json
import os
import re
import struct
import subprocess
import sys
import termios
from typing import Any

import pytest

from conftest import REPO
from specdb.output import render, terminal_width, text_table

ROWS = [
    {"id": "nvidia-h100-sxm", "notes": "HBM3, five stacks active of six", "gbps": 3350},
    {"id": "a", "notes": "short", "gbps": 50},
]


def test_a_table_that_fits_is_left_as_it_is():
    # Natural widths 15, 31 and 4 with two two-space gaps: 54 characters.
    natural = text_table(ROWS, ["id", "notes", "gbps"])
    assert max(len(line) for line in natural.splitlines()) == 54
    assert text_table(ROWS, ["id", "notes", "gbps"], width=54) == natural
    assert text_table(ROWS, ["id", "notes", "gbps"], width=None) == natural


def test_the_widest_text_column_is_cut_with_an_ellipsis_to_the_width():
    # 40 wide: gaps 4, the id 15 and the number 4 are kept, so notes gets 17: 16 characters and the ellipsis.
    assert text_table(ROWS, ["id", "notes", "gbps"], width=40) == (
        "id               notes              gbps\n"
        "---------------  -----------------  ----\n"
        "nvidia-h100-sxm  HBM3, five stack…  3350\n"
        "a" + " " * 16 + "short" + " " * 16 + "50\n"
    )


def test_the_widest_columns_give_way_first_and_narrow_ones_keep_every_character():
    rows = [{"figure": "f", "quote": "q" * 30, "source": "s" * 20, "status": "measured"}]
    # Natural: 6 + 30 + 20 + 8 + 3 gaps of 2 = 70. At 50 the two wide columns share a limit of 15
    # (6 + 15 + 15 + 8 + 6 = 50; a limit of 16 would need 52), and "measured" (8) stays whole.
    lines = text_table(rows, ["figure", "quote", "source", "status"], width=50).splitlines()
    assert lines[2] == "f" + " " * 7 + "q" * 14 + "…  " + "s" * 14 + "…  measured"
    assert lines[0] == "figure  quote" + " " * 12 + "source" + " " * 11 + "status"


def test_no_line_is_wider_than_the_window_and_a_column_that_cannot_fit_is_left_out_whole_and_named():
    rows = [{"platform": "nvidia-gb200-nvl72", "vendor": "NVIDIA Corporation of America", "bytes": 123456789012}]
    # 20 wide: the number (12) is never cut, the vendor stops at its header's 6, the platform at 16: 16 + 6 + 12 and two gaps
    # is 38, so the last columns are left out whole, the number first, then the vendor; the platform (18) then fits.
    lines = text_table(rows, ["platform", "vendor", "bytes"], width=20).splitlines()
    assert lines[:3] == ["platform", "-" * 18, "nvidia-gb200-nvl72"]
    assert all(len(line) <= 20 for line in lines)
    assert " ".join(line.strip() for line in lines[3:]).startswith("(2 columns left out to fit 20 characters: vendor, bytes;")


def test_a_quantity_with_its_unit_and_a_date_are_never_cut_but_a_hex_id_is():
    rows = [{"figure": "memory_bandwidth_one", "value": "3.35 TB/s", "reviewed": "2026-11-29", "commit": "1868fb8804aa"}]
    # Natural 20 + 9 + 10 + 12 and three gaps: 57. At 47 the commit gives way first, down to its header's 6 (51), then
    # the first column, down to 16: 47. The quantity and the date keep every character.
    lines = text_table(rows, ["figure", "value", "reviewed", "commit"], width=47).splitlines()
    assert lines[2] == "memory_bandwidt…  3.35 TB/s  2026-11-29  1868f…"
    assert all(len(line) <= 47 for line in lines)


def test_a_header_wider_than_its_numbers_wraps_at_its_underscores():
    rows = [{"platform": "hgx", "memory_to_scale_up": 7.44, "scale_up_to_scale_out": 9}]
    # Natural 8 + 18 + 21 + 4 = 51; at 30 the numbers keep 4 and 1 characters but the headers need their longest part:
    # "memory" (6) and "_scale" (6), so 8 + 6 + 6 + 4 = 24 fits, the headers over three lines.
    lines = text_table(rows, ["platform", "memory_to_scale_up", "scale_up_to_scale_out"], width=30).splitlines()
    assert lines[:4] == ["platform  memory   scale", "             _to  _up_to", "          _scale  _scale", "             _up    _out"]
    assert lines[5] == "hgx         7.44       9"


@pytest.mark.parametrize("fmt", ["csv", "json", "markdown"])
def test_only_the_table_is_fitted(fmt):
    assert render(ROWS, fmt, width=20) == render(ROWS, fmt)
    assert "HBM3, five stacks active of six" in render(ROWS, fmt, width=20)


def test_a_stream_that_is_not_a_terminal_has_no_width():
    assert terminal_width(io.StringIO()) is None
    with open(os.devnull, "w") as devnull:
        assert terminal_width(devnull) is None


def _run_on_a_terminal(args: list[str], columns: int, colour: bool = False) -> str:
    """Run the CLI with its stdout on a pseudo-terminal this many columns wide, with NO_COLOR set unless `colour`;
    what the terminal received."""
    controller, terminal = os.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    env = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES", "NO_COLOR", "TERM")}
    env.update({} if colour else {"NO_COLOR": "1"})
    process = subprocess.Popen([sys.executable, "-m", "specdb", *args], stdout=terminal, stderr=subprocess.PIPE, env=env)
    os.close(terminal)
    received = b""
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # the terminal closed: the process has ended
            break
        if not chunk:
            break
        received += chunk
    os.close(controller)
    assert process.wait(timeout=60) == 0, process.stderr.read()
    return received.decode().replace("\r\n", "\n")


def test_the_cli_fits_a_real_terminal_and_prints_everything_into_a_pipe(specs, db):
    args = ["list", "--specs", str(specs), "--db", str(db)]
    piped = subprocess.run([sys.executable, "-m", "specdb", *args], capture_output=True, text=True, check=True).stdout
    # Natural widths of the test data's list: id 11, kind 11, name 17, vendor 19, family 8, released 8, figures 7,
    # last_reviewed 13, and 7 gaps of 2: 108 characters.
    assert piped.splitlines()[2] == (
        "test-gpu     accelerator  Test GPU 80GB      Test Vendor          Testarch  2022-09         4  2026-07-15"
    )
    # At 80: 14 for the gaps; the id (11), the count (7) and the two dates (8, and 10 with its header over two lines,
    # "last" and "_reviewed") are kept whole: 36, which leaves 30 for four text columns, 7 each at most.
    shown = _run_on_a_terminal(args, 80)
    cells = ["test-gpu   ", "accele…", "Test G…", "Test V…", "Testar…", "2022-09 ", "      4", "2026-07-15"]
    assert shown.splitlines()[:2] == ["id           kind     name     vendor   family   released  figures  last", " " * 68 + "_reviewed"]
    assert shown.splitlines()[3] == "  ".join(cells)
    assert all(len(line) <= 80 for line in shown.splitlines())
    assert [line.split()[0] for line in shown.splitlines()[3:]] == [line.split()[0] for line in piped.splitlines()[2:]]


def _whole(value: float) -> str:
    """A number as a table shows it in full: whole numbers without a point, others with every digit."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _shown_at(columns: int, args: list[str], tmp_path) -> str:
    return _run_on_a_terminal([*args, "--specs", str(REPO / "specs"), "--db", str(tmp_path / "specdb.sqlite")], columns)


def _figures_of(args: list[str], tmp_path) -> Any:
    result = subprocess.run([sys.executable, "-m", "specdb", *args, "--specs", str(REPO / "specs"), "--db", str(tmp_path / "specdb.sqlite"),
                             "-f", "json"], capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


def test_the_five_wide_commands_fit_100_columns_with_every_number_whole(tmp_path):
    """query ratios, show, history, compare and collective on the bundled data, through a real terminal 100 wide."""
    ratios = _shown_at(100, ["query", "ratios"], tmp_path)
    shown = _shown_at(100, ["show", "nvidia-h100-sxm"], tmp_path)
    history = _shown_at(100, ["history", "nvidia-h100-sxm", "memory_bandwidth"], tmp_path)
    compared = _shown_at(100, ["compare", "nvidia-h100-sxm", "nvidia-b200"], tmp_path)
    collective = _shown_at(100, ["collective", "all-reduce", "--params", "8e9", "--platform", "nvidia-hgx-h100", "--gpus", "8"], tmp_path)
    for text in (ratios, shown, history, compared, collective):
        assert text and max(len(line) for line in text.splitlines()) <= 100
    # Numbers and quantities appear as whole words: none is cut to fit.
    for row in _figures_of(["query", "ratios"], tmp_path):
        for column in ("memory_gbps", "scale_up_gbps", "scale_out_gbps", "memory_to_scale_up"):
            if row[column] is not None:
                assert re.search(rf"(?<![\d.]){re.escape(_whole(row[column]))}(?![\d.])", ratios), (row["platform"], column)
    for figure in _figures_of(["show", "nvidia-h100-sxm"], tmp_path)["figures"]:
        assert f"  {figure['value_text']}\n" in shown, figure["name"]
    for row in _figures_of(["history", "nvidia-h100-sxm", "memory_bandwidth"], tmp_path):
        assert row["value"] in history
    for row in _figures_of(["compare", "nvidia-h100-sxm", "nvidia-b200"], tmp_path):
        for value in [*row["values"].values(), *row["ratio_to_first"].values()]:
            if value is not None:
                assert re.search(rf"(?<![\d.]){re.escape(_whole(value))}(?![\d.])", compared), (row["figure"], value)
    estimate = _figures_of(["collective", "all-reduce", "--params", "8e9", "--platform", "nvidia-hgx-h100", "--gpus", "8"], tmp_path)
    assert f"{estimate['seconds'] * 1e3:.3g} ms" in collective


def test_a_narrow_window_shows_one_record_as_blocks_and_a_list_with_fewer_columns(tmp_path):
    shown = _shown_at(60, ["show", "nvidia-h100-sxm"], tmp_path)
    # One block per figure: its name on a line, then each column's name and value.
    assert "\nmemory_bandwidth\n  value_text  3.35 TB/s\n" in shown
    ratios = _shown_at(60, ["query", "ratios"], tmp_path)
    assert "left out to fit 60 characters" in ratios and "vendor" in ratios.split("left out", 1)[1]
    assert all(len(line) <= 60 for line in ratios.splitlines() + shown.splitlines())


def test_colour_on_a_terminal_unless_no_color_is_set(specs, db):
    args = ["list", "--specs", str(specs), "--db", str(db)]
    assert "\033[1m" in _run_on_a_terminal(args, 200, colour=True)
    assert "\033[" not in _run_on_a_terminal(args, 200)
    piped = subprocess.run([sys.executable, "-m", "specdb", *args], capture_output=True, text=True, check=True, env={**os.environ, "NO_COLOR": ""})
    assert "\033[" not in piped.stdout


def test_progress_lines_replace_each_other_and_are_erased_when_done(monkeypatch):
    from specdb.cli.versions import progress_bar

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    with progress_bar() as show:
        show("reading a", 1, 2)
        show("reading a", 2, 2)
        show("reading b", 1, 1)
    erase = "\r\033[K"
    assert terminal.getvalue() == f"{erase}reading a  1/2 (50%){erase}reading a  2/2 (100%){erase}reading b  1/1 (100%){erase}"
