"""The README documents every command and states the coverage of the bundled data truly."""

import re

import pytest
import typer

from conftest import REPO
from specdb.cli import COMMANDS, app
from specdb.resources import bundled_specs
from specdb.db.access import open_fresh

README = (REPO / "README.md").read_text()


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_is_in_the_readme_tour(command):
    assert f"`specdb {command}" in README


def test_every_query_and_plot_subcommand_is_documented():
    for group in ("query", "plot"):
        typer_group = next(info.typer_instance for info in app.registered_groups if info.name == group)
        for command in typer_group.registered_commands:
            assert f"`specdb {group} {command.name}" in README


def test_the_first_screen_gives_two_setup_commands():
    first_block = README.split("```sh\n", 1)[1].split("```", 1)[0]
    commands = [line for line in first_block.splitlines() if line and not line.startswith("#")]
    assert commands == [
        "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/specdb query ratios",
        "python3 -m venv .venv && .venv/bin/pip install '.[test]' && .venv/bin/python -m pytest",
    ]


def test_the_coverage_table_matches_the_bundled_data(tmp_path):
    connection = open_fresh(tmp_path / "bundled.sqlite", bundled_specs())
    table = dict(re.findall(r"^\| (\w+) \| (\d+) \|", README, re.MULTILINE))
    for kind, records in connection.execute("SELECT kind, COUNT(*) FROM record GROUP BY kind"):
        assert table[kind] == str(records), kind
    figures = dict(re.findall(r"^\| (\w+) \| \d+ \| (\d+) \|", README, re.MULTILINE))
    for kind, count in connection.execute("SELECT r.kind, COUNT(*) FROM figure f JOIN record r ON r.id = f.record_id GROUP BY r.kind"):
        assert figures[kind] == str(count), kind
    assert table["source"] == str(connection.execute("SELECT COUNT(*) FROM source").fetchone()[0])


def test_the_record_format_lists_every_figure_name_as_the_code_declares_it():
    from specdb.output import markdown_table
    from specdb.format.vocabulary import FIGURES, rows

    document = (REPO / "docs" / "record-format.md").read_text()
    listed = document.split("<!-- figure names: begin -->\n", 1)[1].split("<!-- figure names: end -->", 1)[0]
    names = re.findall(r"^\| (\w+) \|", listed, re.MULTILINE)[1:]  # after the header row
    assert names == list(FIGURES)
    assert listed == markdown_table(rows(), list(rows()[0]))


def test_the_readme_stays_short_and_every_page_it_links_exists():
    # What specdb is, the two set-up commands, a tour and the data; the rest lives in docs/.
    assert len(README.encode()) < 20_000
    linked = re.findall(r"\]\((docs/[^)#]+)", README)
    assert {"docs/design.md", "docs/record-format.md", "docs/performance.md", "docs/data-package.md"} <= set(linked)
    for page in linked:
        assert (REPO / page).is_file(), page


def _command(words: list[str]):
    command = typer.main.get_command(app)
    for word in words:
        command = command.commands[word]
    return command


def test_the_readme_command_table_matches_the_cli():
    readme = (REPO / "README.md").read_text()
    tour = readme.split("## A tour of the commands", 1)[1].split("\n### ", 1)[0]
    rows = re.findall(r"^\| `specdb ([^`]*)` \| (.*) \|$", tour, re.MULTILINE)
    assert len(rows) > 10
    documented = set()
    for row, description in rows:
        # The options the description names in code spans are the command's options as well as those in its first column.
        mentioned = [span for span in re.findall(r"`([^`]*)`", description.replace("\\|", "|")) if span.startswith("--")]
        words = row.replace("\\|", "|").split() + " ".join(mentioned).split()
        path = []
        while words and not words[0].startswith("-") and not words[0].startswith("[") and isinstance(_command(path), typer.core.TyperGroup):
            if words[0] not in _command(path).commands:
                break
            path.append(words.pop(0))
        command = _command(path)
        documented.add(" ".join(path))
        options = {name: param for param in command.params for name in param.opts}
        for option, value in re.findall(r"(--[a-z-]+)(?:[ =]([\w%|.-]+))?", " ".join(words)):
            if option == "--version":
                continue
            assert option in options, (row, option)
            choices = getattr(options[option].type, "choices", None)
            if choices and value and "|" in value:
                assert set(value.split("|")) <= set(choices), (row, value, choices)
    every = {name for name, command in _command([]).commands.items() if not isinstance(command, typer.core.TyperGroup)}
    every |= {f"{group} {name}" for group in ("query", "plot", "import") for name in _command([group]).commands}
    assert every <= documented | {"export"} and "export" in {path.split()[0] for path in documented if path}


def test_the_readme_and_the_help_state_every_exit_code_with_its_meaning(cli):
    stated = README.split("Exit codes:", 1)[1].split("\n\n", 1)[0]
    shown = " ".join(cli("--help", data=False).stdout.split())
    for code, meaning in ((0, "ok"), (1, "findings"), (2, "usage"), (3, "environment"), (130, "interrupted")):
        assert re.search(rf"\b{code} {meaning}\b", stated), (code, meaning)
        assert f"{code} {meaning}" in shown, (code, meaning)
