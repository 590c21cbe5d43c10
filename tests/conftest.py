import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import specdb
from specdb.cli import app

TEST_SPECS = Path(__file__).parent / "data" / "specs"
REPO = Path(__file__).resolve().parent.parent

# SPECDB_SOAK=1 runs the soak tests (marked `soak`) and the property tests with eight times the examples.
SOAK = os.environ.get("SPECDB_SOAK") == "1"
PROPERTY_EXAMPLES = int(os.environ.get("SPECDB_PROPERTY_EXAMPLES", "480" if SOAK else "60"))


def pytest_configure(config):
    config.addinivalue_line("markers", "soak: a long run (minutes), only with SPECDB_SOAK=1")


def pytest_collection_modifyitems(config, items):
    if SOAK:
        return
    soak = [item for item in items if item.get_closest_marker("soak")]
    if soak:
        config.hook.pytest_deselected(items=soak)
        items[:] = [item for item in items if not item.get_closest_marker("soak")]


@pytest.fixture(autouse=True)
def _isolated(monkeypatch, tmp_path_factory):
    """No test reads the user's environment or writes to the user's cache."""
    monkeypatch.delenv("SPECDB_DB", raising=False)
    monkeypatch.delenv("SPECDB_SPECS", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))


@pytest.fixture
def specs(tmp_path) -> Path:
    """A private copy of the small test dataset, free to be broken."""
    target = tmp_path / "specs"
    shutil.copytree(TEST_SPECS, target)
    return target


@pytest.fixture(scope="session")
def database(tmp_path_factory):
    """The bundled data as `specdb check` reads it, read once for every check test that only reads it."""
    from specdb.check.verdicts import Database

    return Database(specdb.connect(REPO / "specs", tmp_path_factory.mktemp("check") / "specdb.sqlite"))


def verdicts(text, database, fmt="text"):
    """A page's findings by the claim's text."""
    from specdb.check.verdicts import check_text

    return {finding.claim: finding for finding in check_text(text, database, path="page", fmt=fmt)}


@pytest.fixture(scope="session")
def bundled_db(tmp_path_factory) -> Path:
    """A database path for the bundled data, shared by the tests that only read it (a build takes a second or two)."""
    return tmp_path_factory.mktemp("bundled") / "bundled.sqlite"


@pytest.fixture
def db(tmp_path) -> Path:
    return tmp_path / "specdb.sqlite"


class Cli:
    def __init__(self, specs: Path, db: Path):
        self.specs = specs
        self.db = db
        self.runner = CliRunner()

    def __call__(self, *args: str, data: bool = True):
        extra = ["--specs", str(self.specs)] if data else []
        if data and args[0] != "validate":
            extra += ["--db", str(self.db)]
        return self.runner.invoke(app, [*args, *extra], catch_exceptions=False)


@pytest.fixture
def cli(specs, db) -> Cli:
    return Cli(specs, db)


HEAVY_MODULES = ("sqlalchemy", "sqlmodel", "alembic", "pydantic", "yaml", "psycopg", "specdb.db.postgres")


def heavy_modules_loaded(args: list[str]) -> list[str]:
    """The heavy modules a fresh interpreter has imported after running the CLI with these arguments."""
    code = (
        "import sys\n"
        "from specdb.cli import app\n"
        f"try:\n    app({args!r})\n"
        "except SystemExit:\n    pass\n"
        f"print(sorted(m for m in {HEAVY_MODULES!r} if m in sys.modules), file=sys.stderr)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return ast.literal_eval(result.stderr.strip().splitlines()[-1])
