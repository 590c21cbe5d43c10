"""The option table of the fast path, derived from the Typer declarations.

`derive()` reads every command Typer builds and describes each parameter in
the few terms `dispatch` needs to parse a well-formed command line as Click
does; a command with anything else (a path type, an environment variable, a
callback) is left out and always runs through Typer. The table is kept in
`signatures.json` beside this module, and a test checks it equals `derive()`.
Regenerate it after changing a command's options: `python -m specdb.cli.signatures`.
"""

import json
from pathlib import Path
from typing import Any, Optional

import click
import typer

TABLE = Path(__file__).with_name("signatures.json")

_TYPES = {click.types.StringParamType: "text", click.types.IntParamType: "integer", click.types.FloatParamType: "float", click.types.BoolParamType: "boolean"}


def derive() -> dict[str, Any]:
    """Each command path ("list", "query ratios") that dispatch can run: its function and its parameters."""
    from specdb.cli.typer_app import make_app

    table: dict[str, Any] = {}
    root = typer.main.get_command(make_app())
    if "auto_envvar_prefix" not in root.context_settings:  # else any option could come from the environment
        _walk(root, [], table)
    return dict(sorted(table.items()))


def _walk(command: click.Command, path: list[str], table: dict[str, Any]) -> None:
    if isinstance(command, click.Group):
        for name, subcommand in command.commands.items():
            _walk(subcommand, [*path, name], table)
        return
    described = [_parameter(parameter) for parameter in command.params]
    arguments = [parameter for parameter in described if parameter and parameter["kind"] == "argument"]
    variadic_last = all(parameter["nargs"] == 1 for parameter in arguments[:-1])
    plain_command = not command.context_settings and not command.allow_extra_args and not command.ignore_unknown_options and command.allow_interspersed_args
    if all(described) and variadic_last and plain_command:
        function = command.callback.__wrapped__
        table[" ".join(path)] = {"function": f"{function.__module__}:{function.__qualname__}", "params": described}


def _parameter(parameter: click.Parameter) -> Optional[dict[str, Any]]:
    """The parameter in dispatch's terms, or None when dispatch must leave it to Click."""
    kind = _TYPES.get(type(parameter.type))
    choices = None
    if isinstance(parameter.type, click.Choice) and parameter.type.case_sensitive:
        kind, choices = "choice", list(parameter.type.choices)
    is_flag = isinstance(parameter, click.Option) and parameter.is_flag
    # Click 8.3 onwards keeps a boolean flag's flag_value unset and resolves it to True when the flag is given.
    activates = getattr(parameter, "flag_activation_value", getattr(parameter, "flag_value", None))
    plain = (
        kind is not None
        and parameter.envvar is None
        and parameter.callback is None
        and not parameter.is_eager
        and parameter.expose_value
        and parameter.nargs in (1, -1)
        and (parameter.default is None or isinstance(parameter.default, (str, int, float)))
        and (not isinstance(parameter, click.Option) or (not parameter.count and not parameter.prompt and not parameter.secondary_opts))
        and (not is_flag or (kind == "boolean" and activates is True and not parameter.multiple))
    )
    if not plain:
        return None
    return {
        "name": parameter.name,
        "kind": "argument" if isinstance(parameter, click.Argument) else "option",
        "opts": list(parameter.opts) if isinstance(parameter, click.Option) else [],
        "flag": is_flag,
        "sequence": parameter.multiple or parameter.nargs == -1,
        "nargs": parameter.nargs,
        "required": parameter.required,
        "default": parameter.default,
        "type": kind,
        "choices": choices,
    }


if __name__ == "__main__":
    TABLE.write_text(json.dumps(derive(), indent=1) + "\n")
    print(f"wrote {TABLE}")
