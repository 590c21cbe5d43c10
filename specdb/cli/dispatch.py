"""The fast path: a well-formed command line runs without importing Typer or Click.

Importing Typer and Click costs a read command more than everything else it
does. `signatures.json` describes each command's parameters as Typer declares
them (derived by `signatures.py`, and tested equal); this module parses a
command line against it the way Click would and calls the same function the
Typer command calls, with the same values, handling its errors as Typer
does. Whatever it is not sure of (help, completion, an unknown or malformed
option, a value that is not one of the choices, a missing argument) it
leaves untouched to the full CLI, which prints the usage error or the help.
"""

import errno
import importlib
import json
import os
import sys
from typing import Any, Optional

from specdb.cli.common import interrupted, report, version_line
from specdb.errors import EXIT_ABORTED, SpecdbError

_TABLE = os.path.join(os.path.dirname(__file__), "signatures.json")
_COMPLETION_REQUEST = "_SPECDB_COMPLETE"
_CONVERT = {"text": str, "integer": int, "float": float}


def run(argv: list[str]) -> bool:
    """Run the command line and return True, or return False, having done nothing, when the full CLI must."""
    if os.environ.get(_COMPLETION_REQUEST):
        return False
    if argv == ["--version"]:
        print(version_line())
        return True
    found = _command(argv)
    if found is None:
        return False
    entry, tokens = found
    values = _parse(entry["params"], tokens)
    if values is None:
        return False
    module, _, name = entry["function"].partition(":")
    _invoke(getattr(importlib.import_module(module), name), values)
    return True


def _command(argv: list[str]) -> Optional[tuple[dict[str, Any], list[str]]]:
    with open(_TABLE, encoding="utf-8") as table_file:
        table = json.load(table_file)
    for name, entry in table.items():
        words = name.split(" ")
        if argv[: len(words)] == words:
            return entry, argv[len(words):]
    return None


def _parse(params: list[dict[str, Any]], tokens: list[str]) -> Optional[dict[str, Any]]:
    """The function's keyword arguments as Typer would pass them, or None where Click would not simply accept the line."""
    by_flag = {flag: param for param in params for flag in param["opts"]}
    given: dict[str, list[str]] = {}
    flags: set[str] = set()
    positional: list[str] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if not token.startswith("-") or token == "-":
            positional.append(token)
            continue
        flag, equals, inline = token.partition("=") if token.startswith("--") else (token, "", "")
        if flag not in by_flag:
            return None
        param = by_flag[flag]
        if param["flag"]:
            if equals:
                return None
            flags.add(param["name"])
            continue
        if equals:
            value = inline
        elif index < len(tokens) and (not tokens[index].startswith("-") or tokens[index] == "-"):
            value = tokens[index]
            index += 1
        else:
            return None
        given.setdefault(param["name"], []).append(value)
    for param in params:
        if param["kind"] == "argument":
            count = len(positional) if param["nargs"] == -1 else min(1, len(positional))
            if count:
                given[param["name"]] = positional[:count]
                del positional[:count]
    if positional:
        return None
    values = {}
    for param in params:
        if param["flag"]:
            values[param["name"]] = param["name"] in flags or param["default"]
            continue
        raw = given.get(param["name"])
        if raw is None:
            if param["required"]:
                return None
            values[param["name"]] = param["default"]
            continue
        converted = [_convert(param, text) for text in raw]
        if any(value is None for value in converted):
            return None
        values[param["name"]] = converted if param["sequence"] else converted[-1]
    return values


def _convert(param: dict[str, Any], text: str) -> Any:
    if param["type"] == "choice":
        return text if text in param["choices"] else None
    try:
        return _CONVERT[param["type"]](text)
    except ValueError:
        return None


def _invoke(function, values: dict[str, Any]) -> None:
    """Call the command, ending the way the Typer CLI ends for each outcome."""
    try:
        function(**values)
    except SpecdbError as error:
        sys.exit(report(error))
    except EOFError:
        print(file=sys.stderr)
        print("Aborted!", file=sys.stderr)
        sys.exit(EXIT_ABORTED)
    except KeyboardInterrupt:
        sys.exit(interrupted())
    except OSError as error:
        if error.errno != errno.EPIPE:
            raise
        # The reader went away (`specdb list | head`): leave quietly, as Click does, with Click's own wrapper.
        from click.utils import PacifyFlushWrapper

        sys.stdout = PacifyFlushWrapper(sys.stdout)
        sys.stderr = PacifyFlushWrapper(sys.stderr)
        sys.exit(EXIT_ABORTED)
