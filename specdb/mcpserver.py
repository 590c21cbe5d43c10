"""A read-only Model Context Protocol server over stdio, for agents: the figures with their sources, or "not in the data".

Built on the official `mcp` SDK (`pip install 'specdb[mcp]'`). Every tool reads the database through the same
functions the CLI uses (one resolver for names, the prose checker), so an agent gets what `specdb show` would print;
a name or figure the data lacks is an error saying so, never a guess. Nothing here writes.
"""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from typing import Any, Iterator

from specdb.errors import MissingExtra, NotFound, SpecdbError

INSTRUCTIONS = (
    "Reference figures of AI hardware (memory, scale-up, host-link and scale-out bandwidth, peak FLOPS), each with its "
    "counting, sources (address and quote) and review date. Name a part as a runtime prints it (torch.cuda.get_device_name(), "
    "nvidia-smi, JAX device_kind) or by id. Answers 'not in the data' rather than guessing; quote the sources given."
)


def lookup(connection: sqlite3.Connection, name: str, figure: str) -> dict[str, Any]:
    """One figure of one record: value (canonical SI unit) and as written, counting, status, dates and sources."""
    from specdb.db.catalog import show_record

    record = show_record(connection, name)
    found = next((entry for entry in record["figures"] if entry["name"] == figure), None)
    if found is None:
        held = ", ".join(entry["name"] for entry in record["figures"])
        raise NotFound(f"{record['id']} has no figure '{figure}' in the data; it has {held}")
    return {
        "record_id": record["id"], "record_name": record["name"], "figure": figure,
        **{key: found[key] for key in (
            "value", "unit", "value_text", "display", "direction", "scope", "precision", "sparsity", "status", "as_of", "reviewed",
            "note", "uncertainty",
        )},
        "sources": [
            {key: source[key] for key in ("source_id", "title", "publisher", "url", "quote", "locator")} for source in found["sources"]
        ],
        **_data_version(connection),
    }


def _data_version(connection: sqlite3.Connection) -> dict[str, Any]:
    from specdb import DATA_VERSION

    row = connection.execute("SELECT value FROM meta WHERE key = 'content_hash'").fetchone()
    return {"data_version": DATA_VERSION, "content_hash": row[0] if row else None}


def server(connection: sqlite3.Connection) -> Any:
    """The MCP server over an open read-only connection: tools lookup, peak, compare, ratios and check; a resource per record."""
    try:
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ToolError
    except ImportError:
        raise MissingExtra("the MCP server needs the mcp SDK: pip install 'specdb[mcp]'") from None
    from specdb import __version__

    app = MCPServer("specdb", instructions=INSTRUCTIONS, version=__version__)

    @contextmanager
    def said() -> Iterator[None]:
        # A name or figure the data lacks is the answer, not a crash: the agent reads the message.
        try:
            yield
        except SpecdbError as error:
            raise ToolError(str(error)) from None

    # The tools are coroutines so that they run on the server's own thread, the one the sqlite3 connection belongs to.

    @app.tool(name="lookup")
    async def lookup_figure(name: str, figure: str) -> dict[str, Any]:
        """A figure of a part, platform or link (e.g. name 'NVIDIA H100 80GB HBM3', figure 'memory_bandwidth'):
        value in canonical SI units, as written, counting, status, reviewed date, sources with addresses and quotes."""
        with said():
            return lookup(connection, name, figure)

    @app.tool()
    async def peak(name: str, dtype: str = "bf16", sparse: bool = False) -> dict[str, Any]:
        """A part's peak throughput for a number format (bf16, fp16, fp8, fp4, int8, tf32) in FLOP/s, dense unless sparse."""
        from specdb.analysis.peaks import peak as find_peak

        with said():
            return {**find_peak(connection, name, dtype, sparse), **_data_version(connection)}

    @app.tool()
    async def compare(names: list[str], figures: list[str] | None = None) -> list[dict[str, Any]]:
        """Figures of two or more records of one kind side by side (bandwidths per direction), with ratios to the first;
        only the named figures when `figures` is given."""
        from specdb.analysis.compare import compare as compare_records

        with said():
            rows = compare_records(connection, names)
            unknown = sorted(set(figures or ()) - {row["figure"] for row in rows})
            if unknown:
                raise NotFound(f"none of these records has {', '.join(unknown)} in the data")
        return [row for row in rows if not figures or row["figure"] in figures]

    @app.tool()
    async def ratios(platform: str | None = None) -> list[dict[str, Any]]:
        """Per platform: memory, scale-up and scale-out bandwidth per accelerator and their ratios; one platform when named."""
        from specdb.analysis.tiers import ratio_rows

        with said():
            return ratio_rows(connection, platform=platform)

    @app.tool()
    async def check(text: str) -> list[dict[str, Any]]:
        """The hardware figures claimed in prose, each with its verdict against the data (ok, wrong, stale, ambiguous, unknown)."""
        from specdb.check.verdicts import check_text

        with said():
            return [finding.as_dict() for finding in check_text(text, connection)]

    for record_id, record_name in connection.execute("SELECT id, name FROM record ORDER BY id").fetchall():
        app.resource(f"specdb://record/{record_id}", name=record_id, title=record_name, mime_type="application/json")(_reader(connection, record_id))
    return app


def _reader(connection: sqlite3.Connection, record_id: str) -> Any:
    async def read() -> str:
        """A record with every figure, its counting, sources, history and alternatives."""
        from specdb.db.catalog import show_record
        from specdb.output import to_json

        return to_json(show_record(connection, record_id))

    return read


def serve(connection: sqlite3.Connection) -> None:
    """Answer MCP requests on standard input and output until the client closes them."""
    server(connection).run("stdio")
