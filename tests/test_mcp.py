"""`specdb mcp`: the SDK's own client against the real server process, over stdio."""

import asyncio
import json
import os
import sys

import pytest

mcp = pytest.importorskip("mcp")

from mcp import Client  # noqa: E402
from mcp.client.stdio import StdioServerParameters  # noqa: E402


def _talk(bundled_db, conversation):
    """Start `python -m specdb mcp` as a client would, run the conversation against it, and return what it gives."""
    server = StdioServerParameters(
        command=sys.executable, args=["-m", "specdb", "mcp", "--db", str(bundled_db)],
        env={key: os.environ[key] for key in ("PYTHONPATH", "SPECDB_SPECS", "HOME") if key in os.environ},
    )

    async def run():
        async with Client(server, read_timeout_seconds=60) as client:
            return await conversation(client)

    return asyncio.run(run())


@pytest.fixture(scope="module")
def built(bundled_db):
    import specdb

    specdb.build(db=bundled_db)
    return bundled_db


def test_lookup_gives_the_h100_memory_bandwidth_with_a_source_address(built):
    async def conversation(client):
        tools = await client.list_tools()
        result = await client.call_tool("lookup", {"name": "NVIDIA H100 80GB HBM3", "figure": "memory_bandwidth"})
        return [tool.name for tool in tools.tools], result

    names, result = _talk(built, conversation)
    assert {"lookup", "peak", "compare", "ratios", "check"} <= set(names)
    assert not result.is_error
    found = result.structured_content
    # NVIDIA's 3.35 TB/s for the H100 SXM, as the record cites it.
    assert found["record_id"] == "nvidia-h100-sxm" and found["value"] == 3.35e12 and found["value_text"] == "3.35 TB/s"
    assert found["sources"] and all(source["url"].startswith("https://") for source in found["sources"])
    assert found["reviewed"] and found["data_version"]


def test_a_part_or_figure_the_data_lacks_is_said_to_be_missing(built):
    async def conversation(client):
        return [
            await client.call_tool("lookup", {"name": "NVIDIA H100 NVL", "figure": "memory_bandwidth"}),
            await client.call_tool("lookup", {"name": "nvidia-h100-sxm", "figure": "dense_fp4_flops"}),
            await client.call_tool("peak", {"name": "gfx942", "dtype": "bf16"}),
        ]

    missing_part, missing_figure, shared = _talk(built, conversation)
    assert all(result.is_error for result in (missing_part, missing_figure, shared))
    assert "no record or alias 'NVIDIA H100 NVL' in the data" in missing_part.content[0].text
    assert "no figure 'dense_fp4_flops' in the data" in missing_figure.content[0].text
    assert "amd-mi300x" in shared.content[0].text and "amd-mi325x" in shared.content[0].text


def test_ratios_check_and_a_record_resource(built):
    async def conversation(client):
        ratios = await client.call_tool("ratios", {"platform": "DGX H100"})
        checked = await client.call_tool("check", {"text": "The H100 SXM has 3.35 TB/s of memory bandwidth."})
        resources = await client.list_resources()
        record = await client.read_resource("specdb://record/nvidia-h200-sxm")
        return ratios, checked, resources, record

    ratios, checked, resources, record = _talk(built, conversation)
    rows = ratios.structured_content["result"]
    assert [row["platform"] for row in rows] == ["nvidia-hgx-h100"]
    assert [finding["verdict"] for finding in checked.structured_content["result"]] == ["ok"]
    assert "specdb://record/nvidia-h200-sxm" in {str(resource.uri) for resource in resources.resources}
    assert json.loads(record.contents[0].text)["id"] == "nvidia-h200-sxm"
