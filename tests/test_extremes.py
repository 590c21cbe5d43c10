"""Valid but extreme figures go through every read command without a crash, and every JSON output is strict JSON.

Values are drawn across each dimension's whole plausible range, its ends
included. The number of examples is bounded for the normal run (an eighth
of the property tests'): SPECDB_SOAK=1 gives eight times as many.
"""

import json
import math
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from conftest import PROPERTY_EXAMPLES, TEST_SPECS
from specdb.cli import app
from specdb.format.units import PLAUSIBLE

EXAMPLES = max(1, PROPERTY_EXAMPLES // 8)
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def plausible(dimension: str, whole: bool = False):
    low, high, _ = PLAUSIBLE[dimension]
    low = max(low, 1.0) if whole else low
    spread = st.floats(math.log10(low), math.log10(high)).map(lambda exponent: min(max(10.0 ** exponent, low), high))
    values = st.one_of(st.sampled_from([low, high]), spread)
    return values.map(lambda value: float(round(value))).filter(lambda value: low <= value <= high) if whole else values


def _strict(text: str):
    def refuse(name):
        raise AssertionError(f"{name} is not JSON")

    return json.loads(text, parse_constant=refuse)


@SETTINGS
@given(
    memory=plausible("bandwidth"),
    scale_out=plausible("bandwidth"),
    later_scale_out=plausible("bandwidth"),
    flops=plausible("compute"),
    capacity=plausible("size"),
    domain=plausible("count", whole=True),
)
# The ends of every range, where ratios are smallest and largest.
@example(memory=1e3, scale_out=1e18, later_scale_out=1e3, flops=1e6, capacity=1.0, domain=1.0)
@example(memory=1e18, scale_out=1e3, later_scale_out=1e18, flops=1e21, capacity=1e21, domain=1e12)
def test_every_read_command_survives_extreme_figures(memory, scale_out, later_scale_out, flops, capacity, domain):
    with tempfile.TemporaryDirectory() as folder:
        specs = Path(folder) / "specs"
        shutil.copytree(TEST_SPECS, specs)
        for relpath, old, new in (
            ("accelerator/test-gpu.yaml", "value: 3.35 TB/s", f"value: {memory!r} B/s"),
            ("accelerator/test-gpu.yaml", "value: 989 TFLOPS", f"value: {flops!r} FLOP/s"),
            ("accelerator/test-gpu.yaml", "value: 80 GiB", f"value: {capacity!r} B"),
            ("fabric/test-fabric.yaml", "value: 400 Gb/s", f"value: {scale_out!r} B/s"),
            ("system/test-system.yaml", "value: 400 Gb/s", f"value: {scale_out!r} B/s"),
            ("system/test-system.yaml", 'scale_up_domain: {value: "8"', f'scale_up_domain: {{value: "{int(domain)}"'),
        ):
            path = specs / relpath
            text = path.read_text()
            assert old in text
            path.write_text(text.replace(old, new, 1))
        # A later platform of the same vendor, so that the trend lines compare two generations.
        system = (specs / "system" / "test-system.yaml").read_text()
        (specs / "system" / "test-system-b.yaml").write_text(
            system.replace("id: test-system", "id: test-system-b").replace("released: 2022-09", "released: 2024-03")
            .replace(f"value: {scale_out!r} B/s", f"value: {later_scale_out!r} B/s").replace("derived: {product: [test-fabric.port_bandwidth]}", "")
        )
        db = Path(folder) / "specdb.sqlite"
        where = ["--specs", str(specs), "--db", str(db)]
        runner = CliRunner()
        gpus = str(int(min(domain, 1e6) * 2)) if domain > 1 else "2"
        commands = [
            ["list", "-f", "json"], ["show", "test-gpu", "-f", "json"], ["show", "test-gpu"], ["show", "test-gpu", "-f", "csv"],
            ["query", "ratios", "-f", "json"], ["query", "ratios", "--basis", "as-quoted"], ["query", "ratios", "-f", "markdown"],
            ["query", "figures", "-f", "json"], ["compare", "test-gpu", "test-gpu", "-f", "json"], ["compare", "test-link", "test-pcie"],
            ["stale", "-f", "json"], ["stale", "--since", "2026-07"], ["sql", "SELECT * FROM figure", "-f", "json"],
            ["collective", "all-reduce", "--size", "1GB", "--platform", "test-system", "--gpus", gpus, "-f", "json"],
            ["collective", "all-gather", "--size", "1GB", "--platform", "test-system", "--tier", "scale-out", "-f", "json"],
            ["diff", str(TEST_SPECS), str(specs), "-f", "json"], ["diff", str(TEST_SPECS), str(specs)],
        ]
        for command in commands:
            result = runner.invoke(app, [*command, *where] if command[0] != "diff" else [*command, "--specs", str(specs)], catch_exceptions=False)
            assert result.exit_code in (0, 1, 2), (command, result.stderr)
            assert "internal error" not in result.stderr
            if "json" in command and result.exit_code == 0:
                _strict(result.stdout)
