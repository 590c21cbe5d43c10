"""Generated and mutated spec files: validate and build either succeed or fail cleanly, naming the file; never a partial database.

The number of examples is bounded for the normal run: SPECDB_SOAK=1 gives eight times as many, SPECDB_PROPERTY_EXAMPLES any number.
"""

import functools
import os
import shutil
import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import PROPERTY_EXAMPLES, TEST_SPECS
from specdb.db.builder import build
from specdb.load.dataset import load_specs
from specdb.errors import InvalidSpecs
from specdb.db.store import connect_readonly

EXAMPLES = PROPERTY_EXAMPLES
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TARGET = "accelerator/test-gpu.yaml"

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=20),
    st.sampled_from(["NO", "yes", "4.0", "2026-07-01", "2026-02-30", "3.35 TB/s", "400 Gb/s", "80 GiB", "-1 GB", "~", "1e999 B", "per-direction", "test-datasheet"]),
)
keys = st.one_of(st.text(max_size=12), st.sampled_from(["schema", "id", "kind", "name", "vendor", "figures", "value", "direction", "scope", "status", "as_of", "reviewed", "sources", "ref", "uses", "aliases", "history", "derived", "product"]))
structures = st.recursive(scalars, lambda children: st.one_of(st.lists(children, max_size=4), st.dictionaries(keys, children, max_size=5)), max_leaves=25)


@functools.cache
def _built_test_data() -> bytes:
    """A database of the unchanged test data, built once: each example starts from a copy of it."""
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "specdb.sqlite"
        build(TEST_SPECS, db)
        return db.read_bytes()


def _check(text: bytes) -> None:
    """Write text over one record of a fresh copy of the test data, then validate and build."""
    with tempfile.TemporaryDirectory() as folder:
        specs = Path(folder) / "specs"
        shutil.copytree(TEST_SPECS, specs)
        db = Path(folder) / "specdb.sqlite"
        db.write_bytes(_built_test_data())
        before = db.read_bytes()
        (specs / TARGET).write_bytes(text)
        dataset = load_specs(specs)
        for problem in dataset.problems:
            assert problem.path.startswith(str(specs)) or not os.path.isabs(problem.path)
            # A problem points at a line and column, or (0, 0) at the whole file.
            assert (problem.line >= 1 and problem.column >= 1) or problem.line == problem.column == 0
            assert problem.message
        try:
            result = build(specs, db)
        except InvalidSpecs as error:
            assert error.problems == dataset.problems
            assert db.read_bytes() == before
            return
        assert dataset.ok
        connection = connect_readonly(db)
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert connection.execute("SELECT value FROM meta WHERE key = 'content_hash'").fetchone()[0] == result.content_hash


@SETTINGS
@given(structures)
def test_random_structures(data):
    _check(yaml.safe_dump(data, allow_unicode=True).encode())


ORIGINAL = (TEST_SPECS / TARGET).read_text()
LINES = ORIGINAL.splitlines(keepends=True)


@st.composite
def mutations(draw):
    lines = list(LINES)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["delete", "duplicate", "swap", "replace char", "insert text", "indent"]))
        index = draw(st.integers(0, len(lines) - 1))
        if kind == "delete" and len(lines) > 1:
            del lines[index]
        elif kind == "duplicate":
            lines.insert(index, lines[index])
        elif kind == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[index], lines[other] = lines[other], lines[index]
        elif kind == "replace char" and lines[index]:
            position = draw(st.integers(0, len(lines[index]) - 1))
            lines[index] = lines[index][:position] + draw(st.characters()) + lines[index][position + 1:]
        elif kind == "insert text":
            position = draw(st.integers(0, len(lines[index])))
            lines[index] = lines[index][:position] + draw(st.text(max_size=8)) + lines[index][position:]
        elif kind == "indent":
            lines[index] = " " * draw(st.integers(1, 3)) + lines[index]
    return "".join(lines)


@SETTINGS
@given(mutations())
def test_mutations_of_a_real_record(text):
    _check(text.encode("utf-8", errors="surrogatepass"))


@SETTINGS
@given(st.binary(max_size=300))
def test_random_bytes(raw):
    _check(raw)
