"""What reaches the user when something goes wrong: one line and the exit code of its class, never a traceback, and
"did you mean" naming the closest words first."""

import importlib
import sys

import pytest

from specdb.format import vocabulary
from specdb.cli import dispatch, main
from specdb.load.dataset import Problem
from specdb.errors import DatabaseError, InvalidSpecs, NotFound, SpecdbError, UsageError
from specdb.suggest import closest, did_you_mean


@pytest.mark.parametrize("error, code", [
    (SpecdbError("x"), 3), (DatabaseError("x"), 3), (UsageError("x"), 2), (NotFound("x"), 2), (InvalidSpecs([]), 1),
])
def test_each_class_of_error_has_its_documented_exit_code(error, code):
    # The README: 0 ok, 1 findings, 2 usage, 3 environment, 130 interrupted.
    assert error.exit_code == code


def test_invalid_specs_keeps_every_problem_and_counts_them():
    problems = [Problem("a.yaml", 1, 1, "bad", "yaml"), Problem("b.yaml", 0, 0, "unreadable", "unreadable")]
    error = InvalidSpecs(iter(problems))
    assert error.problems == problems
    assert str(error) == "2 problem(s) in the specs"


def _main(monkeypatch, capsys, *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["specdb", *args])
    with pytest.raises(SystemExit) as exited:
        main()
    captured = capsys.readouterr()
    return exited.value.code, captured.out, captured.err


def test_an_unexpected_failure_is_one_line_and_exit_3(monkeypatch, capsys):
    def broken():
        raise RuntimeError("the vocabulary is unreadable")

    monkeypatch.setattr(vocabulary, "rows", broken)
    code, out, err = _main(monkeypatch, capsys, "query", "names")
    assert (code, out, err) == (3, "", "specdb: internal error: RuntimeError: the vocabulary is unreadable\n")


def test_an_interrupt_exits_130_with_one_line_wherever_it_comes(monkeypatch, capsys):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    # During a command run by the fast path, during the same command run by Typer, and while the command is still being loaded.
    monkeypatch.setattr(vocabulary, "rows", interrupted)
    assert _main(monkeypatch, capsys, "query", "names") == (130, "", "specdb: interrupted\n")
    with monkeypatch.context() as typer_only:
        typer_only.setattr(dispatch, "run", lambda argv: False)
        assert _main(monkeypatch, capsys, "query", "names") == (130, "", "specdb: interrupted\n")
    monkeypatch.setattr(importlib, "import_module", interrupted)
    assert _main(monkeypatch, capsys, "query", "names") == (130, "", "specdb: interrupted\n")


def test_a_library_error_reaches_the_user_as_its_message_and_code(monkeypatch, capsys):
    def refused():
        raise UsageError("no such kind of figure")

    monkeypatch.setattr(vocabulary, "rows", refused)
    assert _main(monkeypatch, capsys, "query", "names") == (2, "", "specdb: no such kind of figure\n")


def test_suggestions_rank_starts_then_contains_then_alike():
    known = ["HGX A100", "HGX H100", "H100 SXM"]
    # "h100" starts "h100sxm", is inside "hgxh100", and is only alike "hgxa100" (2 x 4 matching / 11 characters = 0.73).
    assert closest("h100", known) == ["H100 SXM", "HGX H100", "HGX A100"]
    assert closest("h100", known, n=1) == ["H100 SXM"]
    assert did_you_mean("h100", known, n=2) == "; did you mean 'H100 SXM' or 'HGX H100'?"


def test_among_equals_the_more_alike_comes_first_then_the_name():
    # Both start with "h100": "h100sxm" is 8/11 alike, "h100sxm580gb" 8/16.
    assert closest("H100", ["H100 SXM5 80GB", "H100 SXM"]) == ["H100 SXM", "H100 SXM5 80GB"]
    assert closest("a100", ["A100-b", "A100-a", "A100-a"]) == ["A100-a", "A100-b"]


def test_among_equally_alike_the_longer_shared_run_comes_first():
    # "nvdiah100" against "nvidiahgxa100" and "nvidiah100sxm": 9 matching characters of 9 + 13 in both (0.82),
    # but the longest run in common is "dia" (3) in the first and "diah100" (7) in the second.
    assert closest("nvdia-h100", ["NVIDIA HGX A100", "nvidia-h100-sxm"]) == ["nvidia-h100-sxm", "NVIDIA HGX A100"]


def test_case_and_punctuation_do_not_matter_but_an_empty_word_matches_nothing():
    assert closest("hgx-h100", ["HGX H100"]) == ["HGX H100"]
    assert closest("", ["HGX H100"]) == []
    assert closest("--", ["HGX H100"]) == []


def test_words_less_than_six_tenths_alike_are_not_suggested():
    # "abcd" and "abxy": 2 x 2 / 8 = 0.5; "abcd" and "abcx": 2 x 3 / 8 = 0.75.
    assert closest("abcd", ["abxy", "abcx"]) == ["abcx"]
    assert did_you_mean("abcd", ["abxy"]) == ""


def test_a_word_that_starts_the_name_comes_first_even_when_another_is_more_alike():
    # "h100sxm580gbhbm3" starts with "h100" but is 8/20 alike; "hgxh100" only contains it but is 8/11 alike.
    assert closest("h100", ["HGX H100", "H100 SXM5 80GB HBM3"]) == ["H100 SXM5 80GB HBM3", "HGX H100"]


def test_a_name_containing_the_word_is_suggested_however_long_it_is():
    # "nvidiahgxh1008gpuboard" contains "h100" and is only 8/26 alike.
    assert closest("h100", ["NVIDIA HGX H100 8-GPU board"]) == ["NVIDIA HGX H100 8-GPU board"]


def test_six_tenths_alike_is_close_enough():
    # "abcde" and "abcxx": 2 x 3 matching / 10 characters = 0.6 exactly.
    assert closest("abcde", ["abcxx"]) == ["abcxx"]


def test_three_suggestions_at_most_unless_asked():
    known = ["gpu-1", "gpu-2", "gpu-3", "gpu-4"]
    assert closest("gpu", known) == ["gpu-1", "gpu-2", "gpu-3"]
    assert did_you_mean("gpu", known) == "; did you mean 'gpu-1' or 'gpu-2' or 'gpu-3'?"
