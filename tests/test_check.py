"""specdb check: figures in prose against the bundled data, claim by claim, and the command as a user runs it."""

import datetime as dt
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import specdb
from check_corpus import CORPUS, expected, pages
from conftest import REPO, heavy_modules_loaded
from specdb.check.verdicts import Database, check_text
from specdb.cli import app
from specdb.check.page import review_date

SEED = CORPUS / "seed-000-interconnect.txt"


@pytest.fixture(scope="module")
def bundled_db(tmp_path_factory):
    path = tmp_path_factory.mktemp("check") / "specdb.sqlite"
    specdb.connect(REPO / "specs", path).close()
    return path


@pytest.fixture(scope="module")
def database(bundled_db):
    return Database(specdb.connect(REPO / "specs", bundled_db))


def run(bundled_db, *args, stdin=None):
    return CliRunner().invoke(app, ["check", *args, "--specs", str(REPO / "specs"), "--db", str(bundled_db)], input=stdin)


def by_claim(findings):
    return {(finding.line, finding.claim): finding for finding in findings}


def test_seed_000_claim_by_claim(database):
    findings = by_claim(check_text(SEED.read_text(), database, path=SEED.name))
    # HBM: an H100 reads its memory at 3.35 TB/s.
    assert findings[6, "3.35 TB/s"].verdict == "ok"
    assert (findings[6, "3.35 TB/s"].record_id, findings[6, "3.35 TB/s"].figure) == ("nvidia-h100-sxm", "memory_bandwidth")
    # NVLink: 900 GB/s is NVIDIA's per-GPU figure, both directions added, as NVIDIA always quotes it.
    assert findings[7, "900 GB/s"].verdict == "ok" and findings[7, "900 GB/s"].basis == "bidirectional"
    # 3,350 / 900 = 3.72 divides a memory total by a two-way link figure; one way it is 3,350 / 450 = 7.44.
    assert findings[7, "3.7 times"].verdict == "mixed-basis"
    assert findings[7, "3.7 times"].suggestion == "7.4 times counted one way"
    # "seven times faster" than PCIe: 900 / 128 = 7.03, both figures counted both ways: consistent.
    assert findings[7, "seven times"].verdict == "ok"
    # PCIe Gen5 x16 "128 GB/s" adds both directions; one way is 32 GT/s x 16 x 128/130 / 8 = 63 GB/s.
    assert findings[7, "128 GB/s"].verdict == "ambiguous-basis"
    assert findings[7, "128 GB/s"].suggestion == "128 GB/s bidirectional (63 GB/s per-direction)"
    # Network: 400 Gbps per GPU = 50 GB/s, one way.
    assert [findings[8, claim].verdict for claim in ("400 Gbps", "50 GB/s")] == ["ok", "ok"]
    assert findings[8, "400 Gbps"].record_id == "meta-llama3-405b-cluster"
    # 900 / 50 = 18 compares a two-way figure with a one-way one; one way it is 450 / 50 = 9.
    assert findings[8, "18 times"].verdict == "mixed-basis" and findings[8, "18 times"].suggestion == "9 times counted one way"
    # 3,350 / 50 = 67: a memory total against a one-way network figure is one basis.
    assert findings[8, "67 times"].verdict == "ok"
    # All-reduce: 32 GB / 900 GB/s = 35.6 ms treats a two-way figure as one way; 32 GB / 450 GB/s = 71.1 ms.
    assert findings[20, "36 ms"].verdict == "mixed-basis"
    assert findings[20, "36 ms"].suggestion == "71.1 ms (32 GB ÷ 450 GB/s per direction)"
    # 32 GB / 50 GB/s = 640 ms, one way: right.
    assert findings[21, "640 ms"].verdict == "ok"
    # 640 / 36 = 17.8, the "18x difference", inherits the mixed bases; one way 640 / 71.1 = 9.
    assert findings[22, "18×"].verdict == "mixed-basis" and findings[22, "18×"].suggestion == "9 times counted one way"
    # NVL72: 72 GPUs, 1.8 TB/s per GPU, 130 TB/s aggregate (72 x 1.8 = 129.6).
    assert findings[26, "72 Blackwell GPUs"].record_id == "nvidia-gb200-nvl72"
    assert findings[26, "1.8 TB/s"].record_id == "nvlink-5"
    assert (findings[30, "130 TB/s"].record_id, findings[30, "130 TB/s"].figure) == ("nvidia-gb200-nvl72", "scale_up_aggregate_bandwidth")
    assert all(findings[key].verdict == "ok" for key in [(26, "72 Blackwell GPUs"), (26, "1.8 TB/s"), (26, "130 TB/s"), (30, "72 GPUs"), (30, "130 TB/s")])
    # Meta's cluster: "up to 16,000" GPUs rounds the 16K (16,384) of the paper; 41% BF16 MFU.
    assert findings[29, "16,000 H100s"].verdict == "ok" and findings[29, "41%"].verdict == "ok"


def test_seed_000_every_finding_is_one_read_off_the_page(database):
    """The full list: nothing more (no year, no "405B", no "16 GB of gradients") and nothing less."""
    findings = check_text(SEED.read_text(), database, path=SEED.name)
    wanted = [row for row in expected() if row.page == SEED.name]
    assert [(f.line, f.claim, f.verdict) for f in findings] == [(row.line, row.claim, row.verdict) for row in wanted]
    assert all(row.matches(finding) for row, finding in zip(wanted, findings))


@pytest.mark.parametrize("page", [path.name for path in pages()])
def test_corpus_page(database, page):
    text = (CORPUS / page).read_text(encoding="utf-8")
    findings = check_text(text, database, path=page)
    rows = [row for row in expected() if row.page == page]
    for row in rows:
        found = any(row.matches(finding) for finding in findings)
        assert found != row.known_miss, f"{row} {'now understood: drop known-miss' if found else 'not found'}"
    misread = {(row.line, row.claim) for row in rows if row.known_miss}
    unexpected = [finding for finding in findings
                  if not any(row.matches(finding) for row in rows) and (finding.line, finding.claim) not in misread]
    assert unexpected == []


def test_the_corpus_covers_every_verdict_and_unit_family():
    rows = expected()
    assert {row.verdict for row in rows} == {"ok", "mismatch", "stale", "ambiguous-basis", "mixed-basis", "unmatched"}
    claims = " ".join(row.claim for row in rows)
    for unit in ("TB/s", "GB/s", "Gb/s", "Gbps", "GT/s", "TFLOPS", "PFLOPS", "GB", "GPUs", "ms", "W", "%", "times", "x", "×"):
        assert unit in claims, unit


@pytest.mark.parametrize("page", ["09-traps.md", "13-no-figures.txt"])
def test_numbers_that_are_not_hardware_figures_make_no_findings(database, page):
    assert check_text((CORPUS / page).read_text(), database, path=page) == []


def test_as_of_checks_an_old_page_against_the_values_then(bundled_db):
    """The MI325X was announced with 288 GB (2024-06) and shipped with 256 GB (2024-10)."""
    text = (CORPUS / "11-old-review.md").read_text()
    now = by_claim(check_text(text, Database(specdb.connect(REPO / "specs", bundled_db))))
    then = by_claim(check_text(text, Database(specdb.connect(REPO / "specs", bundled_db), as_of=dt.date(2024, 7, 1))))
    assert now[3, "288 GB"].verdict == "stale" and "288 GB as of 2024-06-01" in now[3, "288 GB"].note
    assert now[3, "288 GB"].suggestion == "256 GiB"
    assert then[3, "288 GB"].verdict == "ok"


def test_a_page_reviewed_before_a_figure_changed_is_stale(database):
    """The MI325X: 288 GB announced (2024-06), 256 GiB shipping (2024-10); 300 GB is neither."""
    old = check_text("Last reviewed in August 2024.\n\nThe MI325X carries 300 GB of HBM3E.\n", database)
    new = check_text("Last reviewed in December 2024.\n\nThe MI325X carries 300 GB of HBM3E.\n", database)
    assert [f.verdict for f in old] == ["stale"] and "reviewed 2024-08-01" in old[0].note
    assert [f.verdict for f in new] == ["mismatch"] and new[0].suggestion == "256 GiB"


def test_capacities_in_the_vendors_gb_are_the_parts_gib(database):
    """An H200 holds 141 GiB (151.4e9 bytes), which NVIDIA markets as "141 GB"; 151 GB is the same bytes."""
    findings = check_text("The H200 has 141 GB of HBM3e. The H200 has 151 GB of HBM3e. The H200 has 144 GB of HBM3e.", database)
    assert [(f.verdict, f.suggestion) for f in findings] == [("ok", None), ("ok", None), ("mismatch", "141 GiB")]
    assert "141 GiB" in findings[0].note


def test_an_alternative_value_is_a_mismatch_that_says_so(database):
    [finding] = check_text("NVIDIA's B200 moves 8 TB/s of HBM bandwidth.", database)
    assert finding.verdict == "mismatch" and "alternative" in finding.note and finding.suggestion == "7.7 TB/s"


def test_the_stated_basis_is_the_one_checked(database):
    """NVLink 5: 1.8 TB/s both ways is 900 GB/s each way."""
    findings = check_text("NVLink 5 moves 900 GB/s per direction. NVLink 5 moves 1.8 TB/s per direction.", database)
    assert [(f.verdict, f.suggestion) for f in findings] == [("ok", None), ("mismatch", "0.9 TB/s per-direction")]


@pytest.mark.parametrize("text, date", [
    ("Note: this term was last reviewed in July 2026.", dt.date(2026, 7, 1)),
    ("Updated 2026-07-14 by the editors", dt.date(2026, 7, 14)),
    ("Last checked on March 3, 2025.", dt.date(2025, 3, 3)),
    ("Reviewed in Julember 2026 and never again.", None),
    ("No date here.", None),
])
def test_the_page_review_date(text, date):
    assert review_date(text) == date


def test_html_findings_point_at_the_file(database):
    page = CORPUS / "14-vendor.html"
    lines = page.read_text().splitlines()
    findings = by_claim(check_text(page.read_text(), database, path=page.name))
    assert findings[7, "4.8TB/s"].column == lines[6].index("4.8TB/s") + 1
    assert findings[5, "4.8 terabytes per second"].column == lines[4].index("4.8 terabytes") + 1


def test_the_api_is_exported(database):
    assert specdb.check_text("NVLink 4 moves 900 GB/s bidirectional.", database)[0].verdict == "ok" and specdb.check_text.__doc__


# The command ------------------------------------------------------------------

def test_text_output_and_exit_code(bundled_db):
    result = run(bundled_db, str(SEED))
    assert result.exit_code == 1  # mixed-basis findings
    line = next(line for line in result.stdout.splitlines() if '"3.7 times"' in line)
    assert line.startswith(f"{SEED}:7:310: mixed-basis: \"3.7 times\" → nvidia-h100-sxm.memory_bandwidth ÷ nvidia-h100-sxm.scale_up_bandwidth = 3.72")
    assert "(total ÷ bidirectional)" in line and "write 7.4 times counted one way" in line
    assert "35 claims" in result.stderr


def test_json_output(bundled_db):
    rows = json.loads(run(bundled_db, str(CORPUS / "03-host-link.md"), "--format", "json").stdout)
    assert {"path", "line", "column", "claim", "verdict", "record_id", "figure", "expected", "note"} <= set(rows[0])
    ambiguous = next(row for row in rows if row["verdict"] == "ambiguous-basis")
    assert (ambiguous["claim"], ambiguous["record_id"], ambiguous["figure"], ambiguous["expected"]) == (
        "64 GB/s", "pcie-4", "x16_bidirectional_bandwidth", "64 GB/s")


def test_markdown_output_lists_what_is_not_ok(bundled_db):
    out = run(bundled_db, str(CORPUS / "04-scale-out.md"), "--format", "markdown").stdout
    assert out.startswith("**specdb check**: 8 claims: 7 ok, 1 mismatch\n")
    rows = [line for line in out.splitlines() if line.startswith("| ")]
    assert len(rows) == 2 and "100 GB/s" in rows[1] and "50 GB/s per-direction" in rows[1]


def test_ambiguous_and_unmatched_fail_only_with_strict(bundled_db):
    ambiguous = "A PCIe Gen5 x16 slot moves 128 GB/s.\n"
    unmatched = "The H800 caps NVLink at 400 GB/s.\n"
    for text in (ambiguous, unmatched):
        assert run(bundled_db, "-", stdin=text).exit_code == 0
        assert run(bundled_db, "-", "--strict", stdin=text).exit_code == 1


def test_a_page_without_figures_passes(bundled_db):
    result = run(bundled_db, str(CORPUS / "13-no-figures.txt"), "--strict")
    assert result.exit_code == 0 and result.stdout == "" and "0 claims" in result.stderr


def test_as_of_and_reviewed_options(bundled_db):
    page = str(CORPUS / "11-old-review.md")
    assert run(bundled_db, page).exit_code == 1
    assert run(bundled_db, page, "--as-of", "2024-07").exit_code == 0
    result = run(bundled_db, "-", "--reviewed", "2024-08", stdin="The MI325X carries 300 GB of HBM3E.\n")
    assert "stale" in result.stdout


@pytest.mark.parametrize("args, message", [
    (["missing.md"], "missing.md: no such file"),
    ([str(CORPUS)], "is a folder"),
    (["--as-of", "2024-13", str(SEED)], "not a real date"),
    (["--as-of", "soon", str(SEED)], "is not a date"),
])
def test_usage_errors(bundled_db, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    result = run(bundled_db, *args)
    assert result.exit_code == 2 and message in result.stderr and "Traceback" not in result.stderr


def test_a_file_that_is_not_text_is_a_usage_error(bundled_db, tmp_path):
    binary = tmp_path / "page.txt"
    binary.write_bytes(b"HBM\n3.35 \xff\xfe TB/s")
    result = run(bundled_db, str(binary))
    # "3.35 " is five characters of line 2: the byte after them is the sixth.
    assert result.exit_code == 2 and "page.txt:2:6: not UTF-8: byte 0xff cannot be decoded" in result.stderr


def test_check_loads_no_heavy_library(bundled_db):
    assert heavy_modules_loaded(["check", str(SEED), "--specs", str(REPO / "specs"), "--db", str(bundled_db)]) == []


def test_html_entities_and_tags_inside_a_figure(database):
    """PCIe 5.0 x16 one way: 32 GT/s x 16 x 128/130 / 8 = 63.0 GB/s, not 64."""
    findings = check_text("<p>PCIe&nbsp;5.0 x16 moves <b>64</b>&nbsp;GB/s per direction.</p>", database, fmt="html")
    assert [(f.claim, f.verdict, f.figure, f.suggestion) for f in findings] == [
        ("64 GB/s", "mismatch", "x16_per_direction_bandwidth", "63 GB/s per-direction")]


def test_a_page_over_the_size_limit_is_refused_with_the_limit_named(bundled_db, tmp_path):
    from specdb.check.verdicts import MAX_PAGE_BYTES

    page = tmp_path / "page.txt"
    page.write_bytes(b" " * MAX_PAGE_BYTES)
    assert run(bundled_db, str(page)).exit_code == 0
    page.write_bytes(b" " * (MAX_PAGE_BYTES + 1))
    result = run(bundled_db, str(page))
    assert result.exit_code == 2 and "page.txt: larger than 2 MiB, the most check reads of one page" in result.stderr


def test_an_endless_input_is_refused_at_the_size_limit():
    result = subprocess.run([sys.executable, "-m", "specdb", "check", "/dev/zero"], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert result.returncode == 2 and "/dev/zero: larger than 2 MiB" in result.stderr and "Traceback" not in result.stderr


def test_ctrl_c_while_reading_standard_input_ends_the_check(bundled_db):
    process = subprocess.Popen([sys.executable, "-m", "specdb", "check", "-", "--specs", str(REPO / "specs"), "--db", str(bundled_db)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO)
    wchan = Path(f"/proc/{process.pid}/wchan")
    for _ in range(600):  # until it waits in the read of the pipe
        if "pipe_read" in wchan.read_text():
            break
        time.sleep(0.1)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130 and stderr.endswith("specdb: interrupted\n")


def test_scripts_styles_and_comments_are_hidden_and_an_unclosed_one_is_read_as_text(database):
    """HBM of the H100 SXM is 3.35 TB/s: hidden markup holds no claim, text after an unclosed opening does."""
    page = ("<html><p>H100 HBM: <!-- 9 TB/s --> 3.35 TB/s.</p><script>var x = '7 TB/s';</script>"
            "<style>p {}</style><p>H100 HBM: 3.35 TB/s.</p><script>H100 HBM 4 TB/s.")
    findings = check_text(page, database, fmt="html")
    assert [(f.claim, f.verdict) for f in findings] == [("3.35 TB/s", "ok"), ("3.35 TB/s", "ok"), ("4 TB/s", "mismatch")]


def test_a_long_run_of_text_without_sentence_ends_is_read_in_pieces_that_keep_each_claim_with_its_names(database):
    """Two hundred lines naming the H100 SXM's 3.35 TB/s HBM, with no full stop: one sentence of 12,000 characters, cut at line ends."""
    page = "".join(f"line {i:03d}: the H100 moves 3.35 TB/s from HBM\n" for i in range(200))
    findings = check_text(page.replace(": ", " "), database, fmt="text")
    assert len(findings) == 200 and {(f.claim, f.verdict, f.record_id) for f in findings} == {("3.35 TB/s", "ok", "nvidia-h100-sxm")}
    assert [f.line for f in findings] == list(range(1, 201))


def test_unclosed_scripts_and_comments_are_looked_up_once_per_kind_not_once_per_tag(monkeypatch):
    """1,000 unclosed <script> and 1,000 unclosed <!--: the closing tag of each kind is searched for once, not 1,000 times to the end."""
    from specdb.check import page as prose

    searches = []

    class Counted:
        def __init__(self, pattern):
            self.pattern = pattern

        def search(self, text, position):
            searches.append(self.pattern.pattern)
            return self.pattern.search(text, position)

    monkeypatch.setattr(prose, "_HTML_HIDDEN_CLOSE", {kind: Counted(pattern) for kind, pattern in prose._HTML_HIDDEN_CLOSE.items()})
    page = prose.read_page("<html>" + "<script>x <!-- y " * 1000 + "<style>p {}</style>", "html")
    assert sorted(searches) == sorted([r"</script\s*>", "-->", r"</style\s*>"])
    assert page.text.count("x") == 1000 and "p {}" not in page.text
