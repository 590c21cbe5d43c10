"""Every command of the CLI and where it is defined, so that a run imports the one it runs."""

# command name -> (module, attribute); a Typer attribute is a command group.
COMMANDS = {
    "validate": ("specdb.cli.records", "validate"),
    "build": ("specdb.cli.records", "build"),
    "upgrade": ("specdb.cli.records", "upgrade"),
    "list": ("specdb.cli.records", "list_records"),
    "show": ("specdb.cli.records", "show"),
    "query": ("specdb.cli.query", "query_app"),
    "compare": ("specdb.cli.query", "compare"),
    "peak": ("specdb.cli.peak", "peak"),
    "sql": ("specdb.cli.query", "sql"),
    "stale": ("specdb.cli.stale", "stale"),
    "sources": ("specdb.cli.sources", "sources_app"),
    "review": ("specdb.cli.sources", "review"),
    "collective": ("specdb.cli.collective", "collective"),
    "import": ("specdb.cli.imports", "import_app"),
    "plot": ("specdb.cli.plot", "plot_app"),
    "diff": ("specdb.cli.versions", "diff"),
    "history": ("specdb.cli.versions", "history"),
    "check": ("specdb.cli.check", "check"),
    "audit": ("specdb.cli.audit", "audit"),
    "info": ("specdb.cli.info", "info"),
    "export": ("specdb.cli.export", "export_app"),
    "schema": ("specdb.cli.info", "schema"),
    "mcp": ("specdb.cli.serve", "mcp"),
}
