"""Hostile input ends quickly, in bounded memory, with a clear message naming the file."""

import os
import resource
import subprocess
import sys

import pytest

from conftest import REPO
from specdb.load.yamlread import parse_yaml

MEMORY_LIMIT = 2 * 2**30  # address space allowed to the validating process
TIME_LIMIT = 60


def _validate(specs):
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))

    return subprocess.run(
        [sys.executable, "-m", "specdb", "validate", "--specs", str(specs)],
        capture_output=True, text=True, timeout=TIME_LIMIT, preexec_fn=limit, cwd=REPO,
    )


def _expect(result, path, message):
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert any(line.startswith(str(path)) and message in line for line in result.stdout.splitlines()), result.stdout


def test_an_alias_expansion_bomb(specs):
    path = specs / "source" / "test-datasheet.yaml"
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 30)]
    path.write_text("\n".join(lines) + "\n")
    _expect(_validate(specs), path, "anchors and aliases are not allowed")


@pytest.mark.parametrize("text", ["[" * 200_000, "a: " + "{b: " * 50_000, "- " * 100_000 + "x", "".join(f"{' ' * i}k{i}:\n" for i in range(1400))])
def test_deep_nesting(specs, text):
    path = specs / "source" / "test-datasheet.yaml"
    path.write_text(text)
    _expect(_validate(specs), path, "nesting deeper than 32 levels")


def test_a_50_mb_file_is_refused_without_being_read(specs):
    path = specs / "link" / "test-link.yaml"
    with open(path, "a") as handle:
        handle.write("# padding\n" * 5_000_000)
    assert path.stat().st_size > 50_000_000
    _expect(_validate(specs), path, "a record file is at most 1 MiB")


def test_a_symlink_loop_is_not_followed(specs):
    os.symlink(specs, specs / "link" / "loop")
    _expect(_validate(specs), specs / "link" / "loop", "symbolic link to a folder: not followed")


def test_a_dangling_symlink_is_reported(specs):
    os.symlink(specs / "nowhere.yaml", specs / "link" / "dangling.yaml")
    _expect(_validate(specs), specs / "link" / "dangling.yaml", "broken symbolic link")


@pytest.mark.parametrize("name", ["with space.yaml", "ünïcödé.yaml", "new\nline.yaml", "-dash.yaml", "x.y.yaml"])
def test_odd_file_names_are_named_in_the_message(specs, name):
    path = specs / "link" / name
    path.write_text((specs / "link" / "test-link.yaml").read_text())
    result = _validate(specs)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert f"{path}:2:5: id 'test-link' does not match the file name" in result.stdout


def test_python_object_tags_are_never_constructed(specs, tmp_path):
    marker = tmp_path / "constructed"
    path = specs / "source" / "test-datasheet.yaml"
    path.write_text(f"schema: 2\nid: !!python/object/apply:os.system ['touch {marker}']\n")
    _expect(_validate(specs), path, "tag '!!python/object/apply:os.system' is not allowed")
    assert not marker.exists()


@pytest.mark.parametrize("depth, refused", [(32, False), (33, True)])
def test_flow_nesting_is_refused_past_32_levels_and_located(depth, refused):
    located, problems = parse_yaml(b"notes: " + b"[" * depth + b"x" + b"]" * depth + b"\n")
    messages = [(problem.line, problem.column, problem.message) for problem in problems]
    # The 33rd bracket opens at column 8 + 32 = 40 of line 1.
    assert messages == ([(1, 40, "nesting deeper than 32 levels")] if refused else [])
    assert (located is None) == refused


def test_many_brackets_side_by_side_are_not_nesting():
    located, problems = parse_yaml(b"notes: [" + b", ".join(b"[x]" for _ in range(40)) + b"]\n")
    assert problems == [] and located.data == {"notes": [["x"]] * 40}


@pytest.mark.parametrize("text", [b"a: &first [x]\nb: *first\n", b"a: &first x\nb: *first\n"])
def test_an_alias_is_refused_at_its_place(text):
    located, problems = parse_yaml(text)
    assert located is None
    assert [(problem.line, problem.column, problem.message) for problem in problems] == [
        (2, 4, "anchors and aliases are not allowed (alias *first)")
    ]


def test_an_ampersand_in_text_is_only_text():
    located, problems = parse_yaml(b"name: R&D GPU\nnotes: [R&D, R&D]\n")
    assert problems == [] and located.data == {"name": "R&D GPU", "notes": ["R&D", "R&D"]}
