"""Audit another project's hand-kept hardware table: read it (one module a format), judge each field it maps against the
data (`judge`), and say what was found (`render`)."""

# The formats read, in the order detection tries them: the specific ones before Markdown, which any text with a table
# resembles. Each is the NAME of one reader module (`formats.READERS`).
FORMATS = ("aiconfigurator", "llm-analysis", "inferencex", "huggingface", "epoch", "pyflops", "markdown")
OUTPUTS = ("table", "json", "markdown")
