"""`specdb sources check` and `specdb review` against a real HTTP server on this machine, serving each kind of page a source can
become: with its quote, without it, moved, gone, too slow, a PDF, an image, behind a login, and one whose text changes."""

import datetime as dt
import difflib
import json
import shutil
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from conftest import TEST_SPECS
from typer.testing import CliRunner

from specdb.cli import app
from specdb.sources.cache import SourceCache
from specdb.sources.check import read_address
from specdb.sources.fetch import client

PDF = Path(__file__).parent / "data" / "sources" / "datasheet.pdf"
QUOTE = "Peak memory bandwidth 3.35 TB/s"
# The page spells the quote as a browser shows it: split over table cells, a no-break space, another case, typographic dashes.
WITH_QUOTE = (
    "<html><head><title>Probe</title><style>td {color: red}</style><script>var s = 'Peak memory bandwidth 9 TB/s';</script></head>"
    "<body><table><tr><td>PEAK memory</td><td>bandwidth\n 3.35&nbsp;TB/s</td></tr></table>"
    "<p>GPU Memory Bandwidth 3.35TB/s</p><p>Up to 900\u00a0GB/s \u2014 \u201cbidirectional\u201d</p></body></html>"
)
WITHOUT_QUOTE = "<html><body><p>Peak memory bandwidth 4.8 TB/s</p></body></html>"
SLOW_SECONDS = 3


class Site:
    """What the server serves, by path, and every request it was sent (path and If-None-Match), for the tests to change and read."""

    def __init__(self):
        self.pages = {
            "/with-quote.html": (200, "text/html; charset=utf-8", WITH_QUOTE.encode()),
            "/without-quote.html": (200, "text/html", WITHOUT_QUOTE.encode()),
            "/new-address.html": (200, "text/html", WITH_QUOTE.encode()),
            "/datasheet.pdf": (200, "application/pdf", PDF.read_bytes()),
            "/changing.html": (200, "text/html", WITH_QUOTE.encode()),
            "/diagram.png": (200, "image/png", b"\x89PNG\r\n\x1a\n" + bytes(64)),
            "/login": (403, "text/html", b"<p>Sign in to read Peak memory bandwidth 3.35 TB/s</p>"),
            "/missing": (404, "text/html", b"<p>Not found</p>"),
            "/failing": (500, "text/html", b"<p>Internal error</p>"),
        }
        self.redirects = {"/old-address": (301, "/new-address.html"), "/to-private": (302, "http://10.0.0.1/page"),
                          "/to-file": (302, "file:///etc/passwd"), "/for-now": (302, "/with-quote.html")}
        self.requests: list[tuple[str, str | None]] = []
        self.agents: set[str] = set()


@pytest.fixture
def site():
    site = Site()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            site.requests.append((self.path, self.headers.get("If-None-Match")))
            site.agents.add(self.headers.get("User-Agent"))
            if self.path == "/slow":
                time.sleep(SLOW_SECONDS)
            if self.path in site.redirects:
                code, target = site.redirects[self.path]
                self.send_response(code)
                self.send_header("Location", target)
                self.end_headers()
                return
            status, content_type, body = site.pages.get(self.path, (200, "text/html", WITH_QUOTE.encode()))
            etag = f'"{hash(body) & 0xFFFFFFFF:08x}"'
            if status == 200 and self.headers.get("If-None-Match") == etag:
                self.send_response(304)
                self.send_header("ETag", etag)
                self.end_headers()
                return
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("ETag", etag)
            self.end_headers()
            try:
                self.wfile.write(body)
            except BrokenPipeError:  # a reader that stopped at its byte cap
                pass

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    site.base = f"http://127.0.0.1:{server.server_address[1]}"
    yield site
    server.shutdown()
    server.server_close()


# Each probe record cites one source, whose page is the case its name says.
CASES = {
    "with-quote": "/with-quote.html", "without-quote": "/without-quote.html", "moved": "/old-address", "gone": "/missing",
    "slow": "/slow", "pdf": "/datasheet.pdf", "changing": "/changing.html", "image": "/diagram.png", "login": "/login",
    "to-private": "/to-private", "to-file": "/to-file", "for-now": "/for-now",
}

# A record written the way people write them: comments, a flow list, a folded note, keys in their own order.
RECORD = """\
schema: 1
id: probe-{case}
kind: accelerator
name: Probe {case}   # the page it cites is the case
vendor: Test Vendor
aliases: [Probe {case} GPU]
figures:
  memory_bandwidth:
    value: 3.35 TB/s
    direction: total
    scope: per-accelerator
    status: shipping
    as_of: 2023-01
    reviewed: 2026-07-15    # last looked at by hand
    note: >-
      Folded text that a writer
      must leave as it is.
    sources:
      - ref: {case}
        quote: "{quote}"
        locator: "table 1"
  memory_capacity:
    value: 80 GiB
    scope: per-accelerator
    status: shipping
    as_of: 2023-01
    reviewed: 2026-07-15
    sources: [{{ref: {case}}}]
"""

SOURCE = """\
schema: 1
id: {case}
kind: source
name: "Probe page: {case}"
publisher: Test Vendor
# the address below is the local server's
url: {url}
published: 2023-01-15
notes: >-
  Served by the tests.
"""


@pytest.fixture
def probe_specs(tmp_path, site, monkeypatch) -> Path:
    specs = tmp_path / "specs"
    shutil.copytree(TEST_SPECS, specs)
    datasheet = specs / "source" / "test-datasheet.yaml"
    datasheet.write_text(datasheet.read_text().replace("https://example.com/datasheet", f"{site.base}/with-quote.html"))
    for case, path in CASES.items():
        (specs / "accelerator" / f"probe-{case}.yaml").write_text(RECORD.format(case=case, quote=QUOTE))
        (specs / "source" / f"{case}.yaml").write_text(SOURCE.format(case=case, url=site.base + path))
    (specs / "source" / "no-address.yaml").write_text(
        "schema: 1\nid: no-address\nkind: source\nname: A printed manual\npublisher: Test Vendor\ncitation: Test Vendor, Probe manual, 2023\npublished: 2023-01-15\n"
    )
    (specs / "accelerator" / "probe-no-address.yaml").write_text(RECORD.format(case="no-address", quote=QUOTE))
    monkeypatch.setenv("SPECDB_SOURCES_CACHE", str(tmp_path / "source-cache"))
    monkeypatch.setenv("SPECDB_SOURCES_ALLOW_LOOPBACK", "1")
    return specs


def run(specs: Path, *args: str):
    database = [] if args[0] == "validate" else ["--db", str(specs.parent / "specdb.sqlite")]
    return CliRunner().invoke(app, [*args, "--specs", str(specs), *database], catch_exceptions=False)


def check_json(specs: Path, *args: str):
    result = run(specs, "sources", "check", "--format", "json", "--timeout", "0.5", *args)
    return result.exit_code, json.loads(result.stdout)


def statuses(document) -> dict[str, str]:
    return {source["id"]: source["status"] for source in document["sources"]}


def quote_statuses(document) -> dict[tuple[str, str | None], str]:
    return {(record["record_id"], cited["quote"]): cited["quote_status"] for record in document["records"] for cited in record["citations"]}


def test_each_page_gives_its_status_and_each_quote_its_own(probe_specs, site):
    code, document = check_json(probe_specs)
    assert code == 1
    found = statuses(document)
    assert {case: found[case] for case in CASES} == {
        "with-quote": "ok", "without-quote": "ok", "moved": "moved", "gone": "gone", "slow": "unreachable", "pdf": "ok",
        "changing": "ok", "image": "ok", "login": "unreachable", "to-private": "unreachable", "to-file": "unreachable", "for-now": "ok",
    }
    assert found["no-address"] == "not-checkable"
    sources = {source["id"]: source for source in document["sources"]}
    assert sources["moved"]["new_url"] == f"{site.base}/new-address.html"
    assert sources["slow"]["detail"].startswith("timeout")
    assert "10.0.0.1" in sources["to-private"]["detail"] and "file:///etc/passwd" in sources["to-file"]["detail"]
    assert sources["login"]["detail"].startswith("HTTP 403")
    quotes = quote_statuses(document)
    assert {case: quotes[(f"probe-{case}", QUOTE)] for case in CASES} == {
        "with-quote": "quote-found", "without-quote": "quote-missing", "moved": "quote-found", "gone": "not-checkable",
        "slow": "not-checkable", "pdf": "quote-found", "changing": "quote-found", "image": "not-checkable", "login": "not-checkable",
        "to-private": "not-checkable", "to-file": "not-checkable", "for-now": "quote-found",
    }
    # A citation without a quote cannot be checked, whatever the page; nor can one of a source with no address.
    assert quotes[("probe-with-quote", None)] == "not-checkable" and quotes[("probe-no-address", QUOTE)] == "not-checkable"
    # The test dataset's own datasheet quote is found, across the markup and without the space the page leaves out.
    assert quotes[("test-gpu", "GPU Memory Bandwidth 3.35TB/s")] == "quote-found"


def test_the_citation_names_the_figures_that_hang_on_it(probe_specs):
    _, document = check_json(probe_specs, "--record", "probe-gone")
    (record,) = document["records"]
    assert {cited["quote"]: cited["figures"] for cited in record["citations"]} == {QUOTE: "memory_bandwidth", None: "memory_capacity"}


@pytest.mark.parametrize(("case", "exit_code"), [
    ("with-quote", 0), ("without-quote", 1), ("moved", 1), ("gone", 1), ("slow", 0), ("pdf", 0), ("image", 0), ("login", 0),
])
def test_the_check_fails_on_a_missing_quote_or_a_gone_or_moved_source_only(probe_specs, case, exit_code):
    assert run(probe_specs, "sources", "check", "--source", case, "--timeout", "0.5").exit_code == exit_code


def test_reports_group_by_record_with_the_most_urgent_first(probe_specs):
    _, document = check_json(probe_specs)
    order = [record["record_id"] for record in document["records"]]
    assert order.index("probe-gone") < order.index("probe-moved") < order.index("probe-without-quote") < order.index("probe-slow") < order.index("probe-with-quote")
    markdown = run(probe_specs, "sources", "check", "--format", "markdown", "--timeout", "0.5").stdout
    headings = [line[3:] for line in markdown.splitlines() if line.startswith("## ")]
    assert headings == order
    assert "| memory_bandwidth |" in markdown.split("## probe-without-quote")[1].split("## ")[0]


def test_without_the_test_switch_an_address_on_this_machine_is_not_fetched(probe_specs, site, monkeypatch):
    monkeypatch.delenv("SPECDB_SOURCES_ALLOW_LOOPBACK")
    code, document = check_json(probe_specs, "--source", "with-quote")
    (source,) = document["sources"]
    assert (code, source["status"]) == (0, "unreachable") and "127.0.0.1" in source["detail"] and "not followed" in source["detail"]
    assert site.requests == []


def test_a_redirect_to_another_scheme_or_a_private_address_is_not_followed(probe_specs, site):
    check_json(probe_specs, "--source", "to-private")
    check_json(probe_specs, "--source", "to-file")
    assert [path for path, _ in site.requests] == ["/to-private", "/to-file"]


def test_a_response_past_the_byte_cap_is_not_read(probe_specs, site, tmp_path):
    with client(5) as http:
        reading = read_address(f"{site.base}/with-quote.html", SourceCache(tmp_path / "capped"), http=http, max_bytes=100)
    assert reading.status == "unreachable" and "larger than 100 bytes" in reading.detail


def test_a_second_check_asks_for_changes_only_and_offline_reads_the_cache_alone(probe_specs, site):
    _, first = check_json(probe_specs, "--source", "with-quote")
    _, second = check_json(probe_specs, "--source", "with-quote")
    assert site.requests[0][1] is None and site.requests[1][1] is not None  # the second carried the ETag, and got a 304
    assert quote_statuses(second) == quote_statuses(first)
    asked = len(site.requests)
    code, offline = check_json(probe_specs, "--offline")
    assert len(site.requests) == asked
    assert statuses(offline)["with-quote"] == "ok" and quote_statuses(offline)[("probe-with-quote", QUOTE)] == "quote-found"
    assert statuses(offline)["pdf"] == "unreachable"  # never fetched, so not in the cache
    assert code == 0


def _changed_lines(before: str, after: str) -> list[str]:
    return [line for line in difflib.ndiff(before.splitlines(keepends=True), after.splitlines(keepends=True)) if line[:1] in "+-"]


def test_review_changes_only_its_lines_and_a_changed_page_then_shows_in_check_and_stale(probe_specs, site):
    record, source = probe_specs / "accelerator" / "probe-changing.yaml", probe_specs / "source" / "changing.yaml"
    record_before, source_before = record.read_text(), source.read_text()
    result = run(probe_specs, "review", "probe-changing", "memory_bandwidth", "--source", "changing")
    assert result.exit_code == 0, result.stderr
    today = dt.date.today().isoformat()
    assert _changed_lines(record_before, record.read_text()) == [
        "-     reviewed: 2026-07-15    # last looked at by hand\n", f"+     reviewed: {today}    # last looked at by hand\n",
    ]
    added = _changed_lines(source_before, source.read_text())
    assert added[0] == f"+ accessed: {today}\n" and added[1].startswith("+ fingerprint: sha256:") and len(added) == 2
    assert source.read_text().index("accessed:") > source.read_text().index("published:")
    assert run(probe_specs, "validate").exit_code == 0

    _, unchanged = check_json(probe_specs, "--source", "changing")
    assert statuses(unchanged)["changing"] == "ok"
    site.pages["/changing.html"] = (200, "text/html", WITH_QUOTE.replace("900", "1800").encode())
    code, changed = check_json(probe_specs, "--source", "changing")
    assert (code, statuses(changed)["changing"]) == (0, "changed")
    asked = len(site.requests)
    stale = run(probe_specs, "stale", "--format", "json", "--check")
    rows = json.loads(stale.stdout)
    # Both figures cite the page; the one not reviewed today comes first, oldest review first.
    assert [(row["record_id"], row["figure"]) for row in rows if row["level"] == "changed"] == [
        ("probe-changing", "memory_capacity"), ("probe-changing", "memory_bandwidth"),
    ]
    assert stale.exit_code == 1 and len(site.requests) == asked  # stale never fetches


def test_review_is_refused_when_the_quote_is_not_found_and_nothing_is_written(probe_specs):
    files = [probe_specs / "accelerator" / "probe-without-quote.yaml", probe_specs / "source" / "without-quote.yaml"]
    before = [path.read_bytes() for path in files]
    result = run(probe_specs, "review", "probe-without-quote", "--source", "without-quote")
    assert result.exit_code == 1 and "quote not found" in result.stderr
    assert [path.read_bytes() for path in files] == before
    assert run(probe_specs, "review", "probe-without-quote", "--source", "without-quote", "--force").exit_code == 2
    assert run(probe_specs, "review", "probe-gone", "--source", "gone").exit_code == 1
    assert [path.read_bytes() for path in files] == before


def test_a_forced_review_writes_its_note_on_the_citation_whose_quote_was_not_found(probe_specs):
    record = probe_specs / "accelerator" / "probe-without-quote.yaml"
    before = record.read_text()
    result = run(probe_specs, "review", "probe-without-quote", "--source", "without-quote", "--force", "--note", "The page now gives the HBM3e part")
    assert result.exit_code == 0, result.stderr
    today = dt.date.today().isoformat()
    assert _changed_lines(before, record.read_text()) == [
        "-     reviewed: 2026-07-15    # last looked at by hand\n", f"+     reviewed: {today}    # last looked at by hand\n",
        f'+         note: "Reviewed {today} without the quote found in the source: The page now gives the HBM3e part"\n',
        "-     reviewed: 2026-07-15\n", f"+     reviewed: {today}\n",
    ]
    assert record.read_text().index("locator:") < record.read_text().index("note: \"Reviewed")
    assert run(probe_specs, "validate").exit_code == 0


def test_review_of_a_figure_that_does_not_cite_the_source_is_a_usage_error(probe_specs):
    result = run(probe_specs, "review", "probe-with-quote", "peak_power", "--source", "with-quote")
    assert result.exit_code == 2 and "memory_bandwidth, memory_capacity" in result.stderr
    assert run(probe_specs, "review", "probe-no-address", "--source", "no-address").exit_code == 2


def test_a_server_error_or_a_closed_port_is_unreachable_and_says_which(probe_specs, site, tmp_path):
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    with client(2) as http:
        cache = SourceCache(tmp_path / "errors")
        failing = read_address(f"{site.base}/failing", cache, http=http)
        refused = read_address(f"http://127.0.0.1:{closed_port}/page", cache, http=http)
    assert (failing.status, failing.detail) == ("unreachable", "HTTP 500")
    assert refused.status == "unreachable" and refused.detail.startswith("network error")


def test_requests_name_specdb_and_its_version(probe_specs, site):
    from specdb import __version__

    check_json(probe_specs, "--source", "with-quote")
    assert site.agents == {f"specdb/{__version__} (source re-review)"}


def test_a_check_writes_nothing_but_its_cache(probe_specs, tmp_path):
    def files():
        return {path: path.read_bytes() for path in tmp_path.rglob("*") if path.is_file() and "source-cache" not in path.parts and path.suffix != ".sqlite"}

    run(probe_specs, "build")
    before = files()
    check_json(probe_specs, "--record", "probe-with-quote")
    assert files() == before
    assert sorted(path.suffix for path in (tmp_path / "source-cache").iterdir()) == [".json", ".txt"]


def test_a_cache_that_cannot_be_written_is_an_environment_error_not_a_traceback(probe_specs, tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("SPECDB_SOURCES_CACHE", str(blocker / "cache"))
    result = run(probe_specs, "sources", "check", "--source", "with-quote")
    assert result.exit_code == 3 and "cannot write" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize(("args", "message"), [
    (("sources", "check", "--record", "no-such-gpu"), "no-such-gpu"),
    (("sources", "check", "--source", "with-quot"), "did you mean 'with-quote'"),
    (("sources", "check", "--jobs", "0"), "--jobs"),
    (("review", "probe-with-quote", "--source", "with-quote", "--note", "why"), "--note goes with --force"),
    (("review", "probe-with-quote"), "--source"),
])
def test_a_bad_command_line_is_a_usage_error_naming_what_is_wrong(probe_specs, args, message):
    result = run(probe_specs, *args)
    assert result.exit_code == 2 and message in result.stderr
