"""plot ratios writes a real image with one column per platform, and says how to get matplotlib when it is missing."""

import sys
import xml.etree.ElementTree as ElementTree

import pytest

pytest.importorskip("matplotlib")


def test_svg_has_one_column_per_platform(cli, specs, tmp_path):
    newer = specs / "system" / "test-system-2.yaml"
    newer.write_text((specs / "system" / "test-system.yaml").read_text().replace("id: test-system", "id: test-system-2"))
    output = tmp_path / "ladder.svg"
    result = cli("plot", "ratios", "--output", str(output))
    assert result.exit_code == 0, result.stderr
    ids = {element.get("id") for element in ElementTree.parse(output).iter() if element.get("id", "").startswith("platform-")}
    assert {"platform-test-system", "platform-test-system-2"} <= ids
    assert sum(1 for i in ids if not i.endswith(("_gbps",))) == 2


def test_png_is_a_png(cli, tmp_path):
    output = tmp_path / "ladder.png"
    assert cli("plot", "ratios", "--output", str(output), "--basis", "as-quoted").exit_code == 0
    assert output.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_an_unknown_image_type_is_a_usage_error(cli, tmp_path):
    result = cli("plot", "ratios", "--output", str(tmp_path / "ladder.gif"))
    assert result.exit_code == 2 and ".png or .svg" in result.stderr


def test_without_matplotlib_the_command_says_how_to_get_it(cli, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    result = cli("plot", "ratios", "--output", str(tmp_path / "ladder.png"))
    assert result.exit_code == 3
    assert "pip install 'specdb[plot]'" in result.stderr
