"""Tables fit the terminal they are printed on; piped output, CSV, JSON and Markdown keep every character."""

import fcntl
import io
import os
import struct
import subprocess
import sys
import termios

import pytest

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


def test_the_first_column_and_numbers_are_never_cut_nor_text_below_five_characters():
    rows = [{"platform": "nvidia-gb200-nvl72", "vendor": "NVIDIA Corporation of America", "bytes": 123456789012}]
    # Far too narrow: the platform and the number stay whole, the vendor stops at 5 (4 and the ellipsis).
    assert text_table(rows, ["platform", "vendor", "bytes"], width=20).splitlines()[2] == "nvidia-gb200-nvl72  NVID…  123456789012"


@pytest.mark.parametrize("fmt", ["csv", "json", "markdown"])
def test_only_the_table_is_fitted(fmt):
    assert render(ROWS, fmt, width=20) == render(ROWS, fmt)
    assert "HBM3, five stacks active of six" in render(ROWS, fmt, width=20)


def test_a_stream_that_is_not_a_terminal_has_no_width():
    assert terminal_width(io.StringIO()) is None
    with open(os.devnull, "w") as devnull:
        assert terminal_width(devnull) is None


def _run_on_a_terminal(args: list[str], columns: int) -> str:
    """Run the CLI with its stdout on a pseudo-terminal this many columns wide; what the terminal received."""
    controller, terminal = os.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    env = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")}
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
    # At 80: 14 for the gaps, 11 for the id and 7 for the count leave 48 for six text columns, 8 each at most.
    shown = _run_on_a_terminal(args, 80)
    cells = ["test-gpu   ", "acceler…", "Test GP…", "Test Ve…", "Testarch", "2022-09 ", "      4", "2026-07…"]
    assert shown.splitlines()[2] == "  ".join(cells)
    assert all(len(line) <= 80 for line in shown.splitlines())
    assert [line.split()[0] for line in shown.splitlines()[2:]] == [line.split()[0] for line in piped.splitlines()[2:]]
