"""mcp: the data as a read-only Model Context Protocol server over stdio, for agents."""

from __future__ import annotations  # the Typer declarations in the signatures are read only when the full CLI is assembled

from specdb.cli.common import lazy_module, open_database

options = lazy_module("specdb.cli.options")


def mcp(specs: options.SpecsOption = None, db: options.DbOption = None) -> None:
    """Serve the data to an MCP client (an agent) on standard input and output, read-only, until it disconnects.

    Tools: lookup(name, figure), peak(name, dtype, sparse), compare(names, figures), ratios(platform), check(text);
    a resource per record (specdb://record/ID). Needs pip install 'specdb[mcp]'. Example client entry:
    {"command": "specdb", "args": ["mcp"]}
    """
    from specdb.mcpserver import serve

    serve(open_database(specs, db))
