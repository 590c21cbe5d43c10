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

import click
import pytest
import typer
from hypothesis import given, settings, strategies as st
import specdb
from specdb import cli
from specdb.load import files as specfiles
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
    ["query ratios"],
    ["query ratios", "-f", "json"],
    ["--help", "list"],
    ["--help", "query", "ratios"],
]


def _arguments(args, specs, db, page):
    if not args or args[0].startswith("-") or args[0] in ("lst", "query ratios") or args[:2] in (["query"], ["query", "names"]):
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
    """The whole Typer CLI, every command in it: neither the fast path nor the CLI assembled for one command."""
    with monkeypatch.context() as patch:
        patch.setattr(dispatch, "run", lambda argv: False)
        patch.setattr(cli, "_command_in", lambda argv: None)
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


_TABLE = json.loads(TABLE.read_text())
_WORDS = sorted({word for name in _TABLE for word in name.split(" ")})
_FLAGS = sorted({flag for entry in _TABLE.values() for param in entry["params"] for flag in param["opts"]})
_CHOICES = sorted({choice for entry in _TABLE.values() for param in entry["params"] for choice in param["choices"] or ()})
_VALUES = ["x", "", " ", "-", "--", "-x", "7", "-8", "1_000", " 7 ", "2.5", "nan", "=", "a b", "--help", "--version", "Ｂ200"]


@st.composite
def _command_lines(draw):
    """A command path (now and then joined into one argument, as a script quoting it would) and mostly its own options
    with values of their type, so that many lines are well formed, mixed with odd tokens and options of other commands."""
    name = draw(st.sampled_from(sorted(_TABLE)))
    params = _TABLE[name]["params"]
    path = [name] if draw(st.integers(0, 4)) == 0 else name.split(" ")
    odd = st.one_of(st.sampled_from(_FLAGS), st.sampled_from(_VALUES), st.sampled_from(_WORDS), st.sampled_from(_CHOICES))
    # The arguments a command needs, most of the time.
    tokens = [draw(st.sampled_from(["x", "7", "-"])) for param in params if param["kind"] == "argument" and param["required"] and draw(st.integers(0, 4))]
    for _ in range(draw(st.integers(0, 6) if params else st.integers(0, 1))):
        if not params:
            tokens.append(draw(odd))
            continue
        param = draw(st.sampled_from(params))
        value = draw(st.sampled_from([*(param["choices"] or ["x", "7", "2.5"]), *_VALUES]) if draw(st.booleans()) else st.sampled_from(param["choices"] or ["x", "7"]))
        flag = draw(st.sampled_from(param["opts"])) if param["opts"] else None
        shape = draw(st.integers(0, 9))
        if shape == 0:
            tokens.append(draw(odd))
        elif param["kind"] == "argument":
            tokens.append(value)
        elif param["flag"]:
            tokens.append(flag if shape > 1 else f"{flag}={value}")
        else:
            tokens += [f"{flag}={value}"] if shape == 1 else [flag, value]
    return [*draw(st.lists(st.sampled_from(["--help", "--version"]), max_size=1)), *path, *tokens]


def _typer_parse(argv):
    """The keyword arguments the Typer CLI would call its command with, or None where it would not call one (help, a usage error)."""
    from specdb.cli.typer_app import make_app

    command = typer.main.get_command(make_app())
    try:
        context = command.make_context("specdb", list(argv))
        args = [*context._protected_args, *context.args]
        while isinstance(command, click.Group):
            name, command, args = command.resolve_command(context, args)
            context = command.make_context(name, args, parent=context)
            args = [*context._protected_args, *context.args]
    except (click.exceptions.Exit, click.UsageError):
        return None
    # Typer passes a sequence as a list, and one not given with no default as None.
    defaults = {param.name: param.default for param in command.params}
    return {
        name: (list(value) if value or defaults[name] is not None else None) if isinstance(value, tuple) else value
        for name, value in context.params.items()
    }


@settings(max_examples=300, deadline=None)
@given(_command_lines())
def test_the_fast_path_runs_only_what_typer_runs_and_with_the_same_values(argv):
    """Whatever command line the fast path runs itself, Typer would run too, with the same values; what Typer refuses, the fast path leaves to it."""
    found = dispatch._command(argv)
    fast = dispatch._parse(found[0]["params"], found[1]) if found else None
    if fast is not None:
        assert _typer_parse(argv) == fast
