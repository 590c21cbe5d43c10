"""Shell completion through the installed `specdb` script, as bash, zsh and fish ask for it."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import specdb
from specdb.load import files as specfiles

from conftest import TEST_SPECS

SPECDB = str(Path(sys.executable).with_name("specdb"))


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    folder = tmp_path_factory.mktemp("completion")
    specs, db = folder / "specs", folder / "specdb.sqlite"
    shutil.copytree(TEST_SPECS, specs)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(specfiles, "RACY_SECONDS", 0)
        specdb.build(specs, db)
    return specs, db


def _complete(shell: str, words: str, **env: str) -> subprocess.CompletedProcess:
    """What the script sourced into each shell runs on a TAB: the words so far, in each shell's way."""
    protocol = {"bash": {"COMP_WORDS": words, "COMP_CWORD": str(len(words.split(" ")) - 1)}, "zsh": {"_TYPER_COMPLETE_ARGS": words},
                "fish": {"_TYPER_COMPLETE_ARGS": words, "_TYPER_COMPLETE_FISH_ACTION": "get-args"}}[shell]
    return subprocess.run([SPECDB], env={**os.environ, "_SPECDB_COMPLETE": f"complete_{shell}", **protocol, **env},
                          capture_output=True, text=True, timeout=60)


def test_bash_completes_commands_options_and_choices():
    assert _complete("bash", "specdb query ").stdout.split() == ["ratios", "figures", "names"]
    assert _complete("bash", "specdb stale --ch").stdout.split() == ["--check"]
    assert _complete("bash", "specdb list --format ").stdout.split() == ["table", "json", "csv", "markdown"]


def test_record_ids_for_show_and_history_and_figure_names_for_history(data):
    where = f"--specs {data[0]} --db {data[1]}"
    assert _complete("bash", f"specdb show {where} test-").stdout.split() == ["test-gpu", "test-fabric", "test-link", "test-pcie", "test-system"]
    figures = _complete("bash", f"specdb history {where} test-gpu memory_").stdout.split()
    assert figures == ["memory_bandwidth", "memory_capacity"]


def test_zsh_and_fish_show_what_each_candidate_is(data):
    where = f"--specs {data[0]} --db {data[1]}"
    assert _complete("zsh", f"specdb show {where} test-g").stdout.strip() == """_arguments '*: :(("test-gpu":"Test GPU 80GB"))'"""
    assert _complete("fish", "specdb compa").stdout == "compare\tFigures of two or more records side by...\n"


def test_completion_never_builds_a_database(tmp_path):
    db = tmp_path / "db.sqlite"
    result = _complete("bash", f"specdb show --specs {TEST_SPECS} --db {db} test-")
    assert (result.returncode, result.stdout.strip(), result.stderr, db.exists()) == (0, "", "", False)


def test_completion_over_specs_that_do_not_build_offers_nothing_and_fails_nothing(tmp_path):
    broken = tmp_path / "specs"
    shutil.copytree(TEST_SPECS, broken)
    (broken / "accelerator" / "test-gpu.yaml").write_text("schema: 2\nid: [unclosed\n")
    result = _complete("bash", f"specdb show --specs {broken} --db {tmp_path / 'db.sqlite'} test-")
    assert (result.returncode, result.stdout.strip(), result.stderr) == (0, "", "")


def test_the_bash_script_completes_in_bash(tmp_path):
    """The script `specdb --show-completion bash` prints, sourced into a real bash, fills COMPREPLY."""
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("bash is not installed")
    script = subprocess.run([SPECDB], env={**os.environ, "_SPECDB_COMPLETE": "source_bash"}, capture_output=True, text=True, check=True).stdout
    session = f'{script}\nCOMP_WORDS=(specdb query r); COMP_CWORD=2; _specdb_completion specdb; echo "${{COMPREPLY[@]}}"\n'
    result = subprocess.run([bash, "--norc", "-c", session], env={**os.environ, "PATH": f"{Path(SPECDB).parent}:{os.environ['PATH']}"},
                            capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["ratios"]


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_zsh_and_fish_get_a_script_that_calls_specdb_back(shell):
    script = subprocess.run([SPECDB], env={**os.environ, "_SPECDB_COMPLETE": f"source_{shell}"}, capture_output=True, text=True, check=True).stdout
    assert f"_SPECDB_COMPLETE=complete_{shell}" in script
