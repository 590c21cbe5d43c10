"""The import graph: each concern folder imports only from its own layer or a lower one, and no module imports a module that imports it back."""

import ast
import graphlib

import pytest

from conftest import REPO


# The layers of docs/design.md, lowest first: a module imports from its own layer or a lower one, never a higher.
LAYERS = (
    {"errors", "progress", "resources", "suggest", "output", "licensing", "atomicwrite", "names", "textfile"},
    {"format"},
    {"load", "locations"},
    {"db"},
    {"analysis"},
    {"versions", "collective", "check", "export", "sources", "audit"},
    {"cli", "__main__", "mcpserver"},
)


def _layer(module: str) -> int:
    concern = module.split(".")[1]
    return next(level for level, concerns in enumerate(LAYERS) if concern in concerns)


def test_each_concern_imports_only_from_its_layer_or_below():
    graph = _imports_of_each_module()
    assert {"specdb.format.schema", "specdb.db.figures", "specdb.analysis.tiers", "specdb.cli.dispatch"} <= graph.keys()
    upward = sorted(
        f"{name} imports {target}"
        for name, imported in graph.items() if name != "specdb"
        for target in imported - {"specdb"} if _layer(target) > _layer(name)
    )
    assert upward == []


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
    assert {"specdb.db.store", "specdb.db.builder", "specdb.db.access"} <= graph.keys() and "specdb.db.store" in graph["specdb.db.builder"]
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as error:
        pytest.fail(f"modules that import each other: {' -> '.join(error.args[1])}")
