"""The fast path (`specdb/cli/dispatch.py`) and the full Typer CLI give the same stdout, stderr and exit code.

A well-formed command line runs without Typer or Click; everything else (help,
usage errors, completion) is left to the Typer CLI. Each invocation below runs
through `main()` as the `specdb` script runs it, and again with the fast path
switched off, and the two must agree byte for byte.
"""

import ast
import errno
import functools
import io
import json
import shutil
import subprocess
import sys

import pytest
import specdb
from specdb import specfiles
from specdb.cli import dispatch, main
from specdb.cli.signatures import TABLE, derive

from conftest import TEST_SPECS

CHECKED_PAGE = "The Test GPU has 3.35 TB/s of memory bandwidth and 80 GB of HBM3.\n"

# Command lines the fast path runs itself: every format, filters misspelled, unknown ids, findings exits.
FAST = [
    ["list"],
    ["list", "-f", "json"],
    ["list", "--format=csv"],
    ["list", "-k", "link", "--format", "markdown"],
    ["list", "--kind", "source"],
    ["list", "-f", "csv", "--format", "json"],
    ["show", "test-gpu"],
    ["show", "TEST GPU 80GB HBM3", "-f", "json"],
    ["show", "test-gpu", "-f", "csv"],
    ["show", "test-gpx"],
    ["stale", "--since", "2026-07"],
    ["stale", "--since", "2026-07", "-f", "json"],
    ["stale", "--check", "--strict", "--as-of", "2040-01-01"],
    ["stale", "--since", "July"],
    ["query", "ratios"],
    ["query", "ratios", "--basis", "as-quoted", "-f", "markdown"],
    ["query", "ratios", "--vendor", "nvdia"],
    ["query", "figures", "--name", "memory_bandwith"],
    ["query", "figures", "--vendor", "-"],
    ["query", "figures", "-n", "memory_bandwidth", "-k", "accelerator", "-f", "json"],
    ["query", "names", "-k", "fabric", "-f", "csv"],
    ["compare", "test-link", "test-pcie"],
    ["sql", "SELECT id, kind FROM record ORDER BY id", "-f", "json"],
    ["sql", "DELETE FROM record"],
    ["sql", "SELECT id FROM record", "--max-rows", "2"],
    ["collective", "all-reduce", "--platform", "test-system", "--size", "1GB", "--gpus", "8"],
    ["collective", "all-gather", "-p", "test-system", "--params", "1e9", "--dtype", "fp32", "-f", "json"],
    ["collective", "all-reduce", "-p", "test-gpu", "--size", "1GB"],
    ["history", "test-gpu", "memory_bandwidth"],
    ["info", "-f", "json"],
    ["validate"],
    ["validate", "-f", "json"],
    ["build"],
    ["check", "{page}", "-f", "json"],
    ["check", "{page}", "--strict"],
    ["check", "-", "--as-of", "2024-01"],
    ["diff", "{specs}", "{specs}", "--exit-code"],
    ["diff", "{specs}", "{specs}", "--only", "values", "--only", "records,prose", "-f", "json"],
]

# Command lines the fast path leaves to Typer: help, unknown or malformed options, choices misspelled, missing arguments.
LEFT_TO_TYPER = [
    [],
    ["--help"],
    ["list", "--help"],
    ["query"],
    ["query", "ratios", "--help"],
    ["list", "--colour", "blue"],
    ["list", "-f", "yaml"],
    ["list", "-k", "acelerator"],
    ["list", "-fjson"],
    ["list", "-f=json"],
    ["query", "names", "--kind"],
    ["list", "--format"],
    ["list", "extra"],
    ["list", "--", "extra"],
    ["show"],
    ["stale", "--check=yes"],
    ["sql", "SELECT 1", "--max-rows", "many"],
    ["collective", "all-reduce", "--size", "1GB"],
    ["collective", "all-reduce", "-p", "test-system", "--gpus", "-8"],
    ["--version", "--help"],
    ["--bogus"],
    ["lst"],
]


def _arguments(args, specs, db, page):
    if not args or args[0].startswith("-") or args[0] == "lst" or args[:2] in (["query"], ["query", "names"]):
        return args
    filled = [arg.format(specs=specs, page=page) for arg in args]
    extra = ["--specs", str(specs)] if args[0] in ("validate", "diff") else ["--specs", str(specs), "--db", str(db)]
    return filled + extra if "--" not in args else filled[:1] + extra + filled[1:]


def _through_main(argv, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["specdb", *argv])
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(CHECKED_PAGE.encode())))
    try:
        main()
        code = 0
    except SystemExit as exit:
        code = exit.code or 0
    captured = capsys.readouterr()
    return captured.out, captured.err, code


def _through_typer(argv, monkeypatch, capsys):
    with monkeypatch.context() as patch:
        patch.setattr(dispatch, "run", lambda argv: False)
        return _through_main(argv, monkeypatch, capsys)


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """The test specs, their database built once with a stamp the reads trust, and a page to check; nothing here changes them."""
    folder = tmp_path_factory.mktemp("fast")
    specs, db, page = folder / "specs", folder / "specdb.sqlite", folder / "page.md"
    shutil.copytree(TEST_SPECS, specs)
    page.write_text(CHECKED_PAGE)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(specfiles, "RACY_SECONDS", 0)
        specdb.build(specs, db)
    return specs, db, page


@pytest.mark.parametrize("args", FAST, ids=" ".join)
def test_the_fast_path_runs_well_formed_command_lines_as_the_typer_cli_does(args, data, monkeypatch, capsys):
    argv = _arguments(args, *data)
    monkeypatch.setattr(dispatch, "_invoke", _recording(dispatch._invoke, handled := []))
    fast = _through_main(argv, monkeypatch, capsys)
    assert handled, "the fast path left this command line to Typer"
    assert fast == _through_typer(argv, monkeypatch, capsys)


@pytest.mark.parametrize("args", LEFT_TO_TYPER, ids=lambda args: " ".join(args) or "(nothing)")
def test_the_fast_path_leaves_help_and_usage_errors_to_typer(args, data, monkeypatch, capsys):
    argv = _arguments(args, *data)
    assert dispatch.run(argv) is False
    assert capsys.readouterr() == ("", "")
    through_main = _through_main(argv, monkeypatch, capsys)
    assert through_main == _through_typer(argv, monkeypatch, capsys)
    assert through_main[2] in (0, 2)


def test_version_through_the_fast_path_as_through_typer(monkeypatch, capsys):
    assert _through_main(["--version"], monkeypatch, capsys) == _through_typer(["--version"], monkeypatch, capsys) == ("specdb 0.1.0\n", "", 0)


def test_a_completion_request_is_left_to_typer(monkeypatch):
    monkeypatch.setenv("_SPECDB_COMPLETE", "complete_bash")
    assert dispatch.run(["list"]) is False


@pytest.mark.parametrize(("interruption", "expected"), [
    (KeyboardInterrupt(), ("", "specdb: interrupted\n", 130)),
    (EOFError(), ("", "\nAborted!\n", 1)),
    (BrokenPipeError(errno.EPIPE, "Broken pipe"), ("", "", 1)),
    (OSError(errno.EIO, "Input/output error"), ("", "specdb: internal error: OSError: [Errno 5] Input/output error\n", 3)),
], ids=["ctrl-c", "closed stdin", "broken pipe", "i/o error"])
def test_an_interrupted_command_ends_as_under_typer(interruption, expected, data, monkeypatch, capsys):
    """Ctrl-C leaves with one line and 130, a closed standard input with Typer's "Aborted!" and 1, a reader gone away quietly with 1."""
    from specdb.cli import records

    @functools.wraps(records.list_records)  # the same parameters, for Typer
    def interrupted(**values):
        raise interruption

    monkeypatch.setattr(records, "list_records", interrupted)
    monkeypatch.setattr(sys, "stdout", sys.stdout)  # a broken pipe wraps both streams; put them back afterwards
    monkeypatch.setattr(sys, "stderr", sys.stderr)
    argv = _arguments(["list"], *data)
    assert _through_main(argv, monkeypatch, capsys) == _through_typer(argv, monkeypatch, capsys) == expected


def _recording(invoke, calls):
    def recorded(function, values):
        calls.append(function.__name__)
        return invoke(function, values)

    return recorded


def test_the_fast_path_runs_the_typer_commands_own_function_with_typer_s_values(monkeypatch):
    """What Typer would pass, worked out by hand from the declarations in specdb/cli/stale.py and query.py."""
    calls = []
    monkeypatch.setattr(dispatch, "_invoke", lambda function, values: calls.append((function.__qualname__, values)))
    assert dispatch.run(["stale", "--check", "--since=2026-07", "--db", "x.sqlite"])
    assert dispatch.run(["compare", "a", "b", "--basis", "as-quoted", "--refresh"])
    assert dispatch.run(["sql", "SELECT 1", "--timeout", "2", "--max-rows", "7"])
    assert calls == [
        ("stale", {"since": "2026-07", "older_than": None, "check": True, "strict": False, "as_of": None, "specs": None, "db": "x.sqlite", "refresh": False, "fmt": "table"}),
        ("compare", {"records": ["a", "b"], "basis": "as-quoted", "specs": None, "db": None, "refresh": True, "fmt": "table"}),
        ("sql", {"query": "SELECT 1", "timeout": 2.0, "max_rows": 7, "specs": None, "db": None, "refresh": False, "fmt": "table"}),
    ]


def test_the_option_table_is_the_one_derived_from_the_typer_declarations():
    assert json.loads(TABLE.read_text()) == derive(), "a command's options changed: run python -m specdb.cli.signatures"


def test_commands_with_path_options_are_left_to_typer():
    table = json.loads(TABLE.read_text())
    assert {"list", "show", "stale", "query ratios", "build"} <= set(table)
    assert not {"export datapackage", "plot ratios", "import nccl-tests"} & set(table)


def test_read_commands_and_version_import_neither_typer_nor_click(data):
    """A whole process, as the `specdb` script runs: after --version no command module is loaded; after each read, no Typer."""
    specs, db, _ = data
    steps = [
        ["--version"],
        ["list", "--specs", str(specs), "--db", str(db)],
        ["stale", "--since", "2026-07", "-f", "json", "--specs", str(specs), "--db", str(db)],
        ["query", "ratios", "--specs", str(specs), "--db", str(db)],
        ["show", "test-gpu", "-f", "json", "--specs", str(specs), "--db", str(db)],
    ]
    code = (
        "import sys\n"
        "from specdb.cli import main\n"
        f"for step in {steps!r}:\n"
        "    sys.argv = ['specdb', *step]\n"
        "    try:\n        main()\n    except SystemExit as exit:\n        assert not exit.code, exit.code\n"
        "    print(sorted(m for m in sys.modules if m in ('typer.main', 'click', 'dataclasses') or m.startswith('specdb.cli.')), file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = [ast.literal_eval(line) for line in result.stderr.splitlines()]
    # The table of command names is loaded, and no module of a command.
    assert loaded[0] == ["specdb.cli.commands", "specdb.cli.common", "specdb.cli.dispatch"]
    assert "typer.main" not in loaded[-1] and "click" not in loaded[-1] and "dataclasses" not in loaded[-1]
    assert result.stdout.startswith("specdb 0.1.0\nid ")


def test_a_missing_module_is_named_as_missing():
    from specdb.cli.common import lazy_module

    with pytest.raises(ModuleNotFoundError, match="No module named 'specdb_no_such_module'"):
        lazy_module("specdb_no_such_module")
