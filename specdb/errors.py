"""Errors that reach the user as a message and an exit code, never as a traceback."""

from __future__ import annotations

EXIT_FINDINGS = 1
# Click's code for an aborted prompt or a reader gone away (`specdb list | head`), which the fast path ends with too.
EXIT_ABORTED = 1
EXIT_USAGE = 2
EXIT_ENVIRONMENT = 3
# 128 + SIGINT: what a shell reports for a command ended by Ctrl-C.
EXIT_INTERRUPTED = 130
# What each exit code means, for the help text and the README (a test checks the README states the same).
EXIT_CODES = (
    (0, "ok"),
    (EXIT_FINDINGS, "findings"),
    (EXIT_USAGE, "usage"),
    (EXIT_ENVIRONMENT, "environment"),
    (EXIT_INTERRUPTED, "interrupted"),
)


class SpecdbError(Exception):
    """A failure the user can act on; the message says what and where."""

    exit_code = EXIT_ENVIRONMENT


class InvalidSpecs(SpecdbError):
    exit_code = EXIT_FINDINGS

    def __init__(self, problems):
        self.problems = list(problems)
        super().__init__(f"{len(self.problems)} problem(s) in the specs")


class UsageError(SpecdbError):
    exit_code = EXIT_USAGE


class DatabaseError(SpecdbError):
    """The database cannot be opened, is not a specdb database, or is from a newer specdb."""


class NotFound(SpecdbError):
    """An id, alias or figure that is not in the data: a usage error."""

    exit_code = EXIT_USAGE


class AmbiguousName(NotFound):
    """A name that fits more than one record ('gfx942', a bare 'H100'): the user picks one of them."""


class GitError(SpecdbError):
    """git is missing, or the specs folder is not in a repository."""


class MissingExtra(SpecdbError):
    """An optional dependency is not installed."""


class ReviewRefused(SpecdbError):
    """A re-review the source does not bear out (a quote not found, a source gone or moved): nothing is written."""

    exit_code = EXIT_FINDINGS
