"""The `specdb` command: a thin layer of Typer commands over the library.

Commands are registered lazily (the pattern click documents as "lazily
loading subcommands"): a run of one command imports and builds that command
only. A well-formed command line does not even import Typer: `dispatch`
parses it with the option table derived from the Typer declarations and
calls the command; help, errors and completion go to the Typer CLI.
"""

import errno
import sys
from typing import Optional

from specdb.cli.commands import COMMANDS
from specdb.errors import EXIT_ABORTED, EXIT_ENVIRONMENT, SpecdbError


def _command_in(argv: list[str]) -> Optional[str]:
    """The command a command line runs, when it starts with one; an option before it (`--help list`) is the whole CLI's."""
    return argv[0] if argv and argv[0] in COMMANDS else None


def main() -> None:
    from specdb.cli.common import OutputError, guard_standard_streams, interrupted, refuse_undecodable, report

    argv = sys.argv[1:]
    guard_standard_streams()
    try:
        try:
            refuse_undecodable(argv)
            from specdb.cli.dispatch import run

            if not run(argv):
                from specdb.cli.typer_app import make_app

                make_app(_command_in(argv))()
        finally:
            sys.stdout.flush()
    except SpecdbError as error:
        sys.exit(report(error))
    except KeyboardInterrupt:
        sys.exit(interrupted())
    except OutputError as error:
        # A reader gone away (`specdb list | head`) is no error, as under Click.
        if error.errno == errno.EPIPE:
            sys.exit(EXIT_ABORTED)
        print(f"specdb: {error.strerror}", file=sys.stderr)
        sys.exit(EXIT_ENVIRONMENT)
    except Exception as error:  # the last line of defence: a message, never a traceback
        print(f"specdb: internal error: {type(error).__name__}: {error}", file=sys.stderr)
        sys.exit(EXIT_ENVIRONMENT)


def __getattr__(name: str):
    """`from specdb.cli import app` gives the full CLI (for tests and tools) without slowing `main`."""
    if name == "app":
        from specdb.cli.typer_app import make_app

        return make_app()
    raise AttributeError(name)
