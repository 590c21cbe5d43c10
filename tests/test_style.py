"""One style for every command: the same columns in every format, misspellings refused with a suggestion,
validate's findings as its output, and a README command table that matches the CLI."""

import ast
import csv
import graphlib
import io
import json
import re

import pytest
import typer

from conftest import REPO
from specdb.cli import app
from specdb.suggest import closest


def _columns(cli, *args):
    """The columns of one command's answer in table, CSV and JSON."""
    table = cli(*args).stdout.splitlines()[0].split()
    header = next(csv.reader(io.StringIO(cli(*args, "-f", "csv").stdout)))
    rows = json.loads(cli(*args, "-f", "json").stdout)
    return table, header, list(rows[0])


@pytest.mark.parametrize("args", [
    ("list",),
    ("list", "--kind", "source"),
    ("query", "figures", "--kind", "accelerator"),
    ("stale", "--since", "2030-01", "--as-of", "2030-02-01"),
    ("history", "test-gpu", "memory_bandwidth"),
    ("sql", "SELECT id, kind FROM record"),
])
def test_table_csv_and_json_have_the_same_columns(cli, args):
    table, header, keys = _columns(cli, *args)
    assert table == header == keys


def test_ratios_have_the_same_columns_in_every_format(cli):
    table, header, keys = _columns(cli, "query", "ratios")
    assert header == keys and table == keys
    assert "vendor" in keys and "mixed_counting" in keys


def test_show_as_csv_keeps_value_and_unit(cli):
    rows = list(csv.DictReader(io.StringIO(cli("show", "test-gpu", "-f", "csv").stdout)))
    memory = next(row for row in rows if row["name"] == "memory_bandwidth")
    # 3.35 TB/s = 3.35e12 B/s, stored in bytes per second
    assert (memory["value"], memory["unit"], memory["value_text"]) == ("3350000000000", "B/s", "3.35 TB/s")
    assert memory["sources"] == "test-datasheet"


def test_sources_are_a_list_of_ids_in_every_json(cli):
    [stale] = [row for row in json.loads(cli("stale", "--since", "2030-01", "--as-of", "2030-02-01", "-f", "json").stdout)
               if row["figure"] == "memory_bandwidth"]
    assert stale["sources"] == ["test-datasheet"]
    history = json.loads(cli("history", "test-gpu", "memory_bandwidth", "-f", "json").stdout)
    assert [row["sources"] for row in history if row["origin"] != "current" or row["commit"] is None][-1] == ["test-datasheet"]
    assert history[0]["origin"] == "history entry" and history[0]["sources"] == ["test-datasheet"]


@pytest.mark.parametrize("args, expected", [
    (("query", "figures", "--vendor", "Test Vendr"), "--vendor 'Test Vendr' matches nothing in the data; did you mean 'Test Vendor'?"),
    (("query", "figures", "--name", "memory_bandwith"), "--name 'memory_bandwith' matches nothing in the data; did you mean 'memory_bandwidth'"),
    (("query", "ratios", "--vendor", "Test Vendr"), "did you mean 'Test Vendor'?"),
])
def test_a_misspelled_filter_is_a_usage_error_with_a_suggestion(cli, args, expected):
    result = cli(*args)
    assert result.exit_code == 2 and result.stdout == ""
    assert expected in result.stderr
    assert result.stderr.count("did you mean") == 1


def test_a_declared_name_the_data_lacks_is_an_empty_answer_not_an_error(cli):
    result = cli("query", "figures", "--name", "dense_fp4_flops", "-f", "json")
    assert result.exit_code == 0 and json.loads(result.stdout) == []


def test_a_wildcard_that_matches_nothing_is_refused_too(cli):
    result = cli("query", "figures", "--name", "%latency_zz")
    assert result.exit_code == 2 and "matches nothing in the data" in result.stderr


def test_a_misspelled_choice_names_the_closest_word(cli):
    result = cli("query", "figures", "--kind", "acelerator")
    assert result.exit_code == 2
    assert "did you mean 'accelerator'?" in result.stderr
    assert cli("query", "ratios", "--basis", "as-quotd").stderr.count("did you mean 'as-quoted'?") == 1


def test_suggestions_rank_a_name_that_starts_with_the_word_first():
    # "h100": "H100 SXM" starts with it, "HGX H100" contains it, "HGX A100" is only spelled alike.
    assert closest("h100", ["HGX A100", "HGX H100", "H100 SXM"]) == ["H100 SXM", "HGX H100", "HGX A100"]
    assert closest("zzzz", ["HGX A100", "H100 SXM"]) == []


def test_an_unknown_record_is_named_once_with_one_suggestion_per_record(cli):
    result = cli("show", "test gpu 80")
    assert result.exit_code == 2
    assert result.stderr.count("did you mean") == 1
    # The GPU's name and an alias both start with "testgpu80"; the GPU is suggested once, by the closer of the two,
    # and no record without the model number 80 is offered.
    assert "did you mean 'Test GPU 80GB'?" in result.stderr
    assert "HBM3" not in result.stderr


def test_validate_reports_findings_on_stdout_with_a_code_each(cli, specs):
    gpu = specs / "accelerator" / "test-gpu.yaml"
    gpu.write_text(gpu.read_text().replace("family: Testarch", "famly: Testarch"))
    link = specs / "link" / "test-link.yaml"
    link.write_text(link.read_text().replace("sources: [{ref: test-datasheet}]", "sources: [{ref: no-such-source}]", 1))
    column = link.read_text().splitlines()[6].index("no-such-source") + 1  # the ref on line 7
    result = cli("validate", "-f", "json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["valid"] is False
    assert {(problem["code"], problem["line"]) for problem in report["problems"]} == {("unknown-key", 6), ("unknown-source", 7)}
    text = cli("validate")
    assert text.exit_code == 1
    assert text.stdout.splitlines() == [
        f"{gpu}:6:1: unknown key 'famly'",
        f"{link}:7:{column}: no source record 'no-such-source' (expected specs/source/no-such-source.yaml)",
    ]
    assert text.stderr == "specdb: 2 problem(s) in the specs\n"


def test_valid_specs_give_an_empty_report(cli):
    result = cli("validate", "-f", "json")
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    # the test data: test-gpu, test-fabric, test-link, test-pcie, test-system, and one source
    assert (report["valid"], report["records"], report["sources"], report["problems"]) == (True, 5, 1, [])


def test_collective_without_gpus_is_placed_in_the_scale_up_domain(cli):
    unplaced = json.loads(cli("collective", "all-reduce", "--size", "1GB", "--platform", "test-system", "-f", "json").stdout)
    inside = json.loads(cli("collective", "all-reduce", "--size", "1GB", "--platform", "test-system", "--tier", "scale-up", "-f", "json").stdout)
    assert unplaced == inside


def test_plot_does_not_create_a_missing_folder(cli, tmp_path):
    target = tmp_path / "nowhere" / "ladder.png"
    result = cli("plot", "ratios", "--output", str(target))
    assert result.exit_code == 2
    assert f"no folder {target.parent}; create it first" in result.stderr
    assert not target.parent.exists()


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


def _imports_of_each_module() -> dict[str, set[str]]:
    """specdb's modules and the specdb modules each imports when it runs, at the top or inside a function."""
    package = REPO / "specdb"
    names = {".".join(path.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__"): path for path in package.rglob("*.py")}
    graph = {}
    for name, path in names.items():
        imported = set()
        tree = ast.parse(path.read_text())
        # What is imported for type checkers only is never imported when the code runs.
        typing_only = {id(inner) for node in ast.walk(tree) if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
                       for statement in node.body for inner in ast.walk(statement)}
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in names:
                imported |= {f"{node.module}.{alias.name}" for alias in node.names} & names.keys() or {node.module}
            elif isinstance(node, ast.Import):
                imported |= {alias.name for alias in node.names} & names.keys()
        graph[name] = imported - {name}
    return graph


def test_no_module_imports_a_module_that_imports_it_back():
    # The package itself is the public API over every module (each function imports what it calls), and its version
    # is what modules import from it: it stands above the graph rather than in it.
    graph = {name: imported - {"specdb"} for name, imported in _imports_of_each_module().items() if name != "specdb"}
    assert {"specdb.store", "specdb.builder", "specdb.database"} <= graph.keys() and "specdb.store" in graph["specdb.builder"]
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as error:
        pytest.fail(f"modules that import each other: {' -> '.join(error.args[1])}")
