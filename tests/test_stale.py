"""stale: cut-offs (month and full date), ages, review policies and exit codes."""

import datetime as dt
import json
import re

import pytest

from specdb.errors import UsageError
from specdb.analysis.stale import failing
from specdb.format.policy import before, parse_age, parse_cutoff
from specdb.analysis.tiers import trend


def _set_reviewed(specs, relpath, figure, date):
    """Give one figure of the test data a new review date (and an as_of no later than it)."""
    path = specs / relpath
    lines = path.read_text().splitlines()
    inside = False
    for index, line in enumerate(lines):
        if line.startswith(f"  {figure}:"):
            inside = True
            if "{" in line:
                line = re.sub(r"reviewed: [0-9-]+", f"reviewed: {date}", line)
                lines[index] = re.sub(r"as_of: [0-9-]+", "as_of: 2020-01", line)
                break
        elif inside and line.startswith("    reviewed:"):
            lines[index] = f"    reviewed: {date}"
        elif inside and line.startswith("    as_of:"):
            lines[index] = "    as_of: 2020-01"
        elif inside and re.match(r"^  \S", line):
            break
    path.write_text("\n".join(lines) + "\n")


@pytest.fixture
def dated(specs):
    """Three figures reviewed just before, on, and just after 2026-07-01; every other figure reviewed 2026-07-15."""
    _set_reviewed(specs, "link/test-link.yaml", "per_link_bandwidth", "2026-06-30")
    _set_reviewed(specs, "link/test-link.yaml", "links_per_accelerator", "2026-07-01")
    _set_reviewed(specs, "link/test-link.yaml", "per_accelerator_bandwidth", "2026-07-02")
    return specs


def _stale(cli, *args):
    result = cli("stale", *args, "--as-of", "2026-11-29", "--format", "json")
    return result.exit_code, [(row["record_id"], row["figure"], row["level"]) for row in json.loads(result.stdout)]


def test_since_a_month_means_its_first_day(cli, dated):
    code, rows = _stale(cli, "--since", "2026-07")
    assert code == 0
    assert rows == [("test-link", "per_link_bandwidth", "stale")]


def test_since_a_full_date_is_exclusive_of_that_day(cli, dated):
    assert _stale(cli, "--since", "2026-07-01")[1] == [("test-link", "per_link_bandwidth", "stale")]
    assert _stale(cli, "--since", "2026-07-02")[1] == [
        ("test-link", "per_link_bandwidth", "stale"), ("test-link", "links_per_accelerator", "stale"),
    ]
    assert [row[1] for row in _stale(cli, "--since", "2026-07-03")[1]] == ["per_link_bandwidth", "links_per_accelerator", "per_accelerator_bandwidth"]


def test_rows_carry_value_age_and_sources(cli, dated):
    [row] = json.loads(cli("stale", "--since", "2026-07", "--as-of", "2026-11-29", "-f", "json").stdout)
    assert row["value"] == "25 GB/s" and row["reviewed"] == "2026-06-30" and row["age_days"] == 152
    assert row["sources"] == ["test-datasheet"] and row["cutoff"] == "2026-07-01"


def test_older_than_counts_back_from_today(cli, dated):
    # 2026-11-29 minus 5 months is 2026-06-29: nothing is older; minus 150 days is 2026-07-02.
    assert _stale(cli, "--older-than", "5mo")[1] == []
    assert [row[1] for row in _stale(cli, "--older-than", "150d")[1]] == ["per_link_bandwidth", "links_per_accelerator"]


def test_check_fails_only_when_asked(cli, dated):
    assert _stale(cli, "--since", "2026-07")[0] == 0
    assert _stale(cli, "--since", "2026-07", "--check")[0] == 1
    assert _stale(cli, "--since", "2026-06", "--check")[0] == 0


def _policy(specs, text):
    (specs / "policy.yaml").write_text("schema: 2\nreview:\n" + text)


def test_policies_mark_warn_and_error_and_error_wins(cli, dated):
    _policy(specs=dated, text="  link:\n    warn_after: {count: 4, period: month}\n    error_after: {count: 150, period: day}\n")
    code, rows = _stale(cli)
    # 2026-11-29 - 150 days = 2026-07-02 (error before it); - 4 months = 2026-07-29 (warn before it).
    assert rows == [
        ("test-link", "per_link_bandwidth", "error"), ("test-link", "links_per_accelerator", "error"),
        ("test-link", "per_accelerator_bandwidth", "warn"),
        ("test-pcie", "encoding_efficiency", "warn"), ("test-pcie", "lane_rate", "warn"), ("test-pcie", "lanes", "warn"),
        ("test-pcie", "x16_bidirectional_bandwidth", "warn"), ("test-pcie", "x16_per_direction_bandwidth", "warn"),
    ]
    assert code == 0


def test_check_fails_on_error_and_on_warn_only_when_strict(cli, dated):
    _policy(dated, "  link:\n    warn_after: {count: 4, period: month}\n")
    assert _stale(cli, "--check")[0] == 0
    assert _stale(cli, "--check", "--strict")[0] == 1
    _policy(dated, "  link:\n    error_after: {count: 4, period: month}\n")
    assert _stale(cli, "--check")[0] == 1


def test_a_record_overrides_its_kind_and_a_figure_can_switch_a_threshold_off(cli, dated):
    _policy(dated, "  link:\n    error_after: {count: 4, period: month}\n")
    pcie = dated / "link" / "test-pcie.yaml"
    pcie.write_text(pcie.read_text().replace("vendor: Test Standards Body\n", "vendor: Test Standards Body\nreview: {error_after: {count: 2, period: year}}\n"))
    link = dated / "link" / "test-link.yaml"
    link.write_text(link.read_text().replace("    derived: {product", "    review: {error_after: null}\n    derived: {product"))
    code, rows = _stale(cli)
    assert rows == [("test-link", "per_link_bandwidth", "error"), ("test-link", "links_per_accelerator", "error")]
    assert code == 0


def test_a_figure_within_a_longer_threshold_does_not_hide_the_later_ones(cli, dated):
    """The oldest figure (2026-06-30) is given ten years; every later one reviewed before 2026-07-29 is still reported."""
    _policy(dated, "  link:\n    error_after: {count: 4, period: month}\n")
    link = dated / "link" / "test-link.yaml"
    link.write_text(link.read_text().replace("per_link_bandwidth: {value:", "per_link_bandwidth: {review: {error_after: {count: 10, period: year}}, value:"))
    # 2026-11-29 - 4 months = 2026-07-29: the other two test-link figures (07-01, 07-02) and test-pcie's five (07-15).
    assert _stale(cli)[1] == [
        ("test-link", "links_per_accelerator", "error"), ("test-link", "per_accelerator_bandwidth", "error"),
        ("test-pcie", "encoding_efficiency", "error"), ("test-pcie", "lane_rate", "error"), ("test-pcie", "lanes", "error"),
        ("test-pcie", "x16_bidirectional_bandwidth", "error"), ("test-pcie", "x16_per_direction_bandwidth", "error"),
    ]


def test_the_table_reports_a_summary_on_stderr(cli, dated):
    result = cli("stale", "--since", "2026-07", "--as-of", "2026-11-29")
    assert result.stdout.splitlines()[0].split() == [
        "level", "record_id", "kind", "figure", "value", "status", "reviewed", "age_days", "cutoff", "warn_after", "error_after", "sources",
    ]
    assert "1 stale (as of 2026-11-29)" in result.stderr


@pytest.mark.parametrize("text, expected", [("2026-07", dt.date(2026, 7, 1)), ("2026-07-15", dt.date(2026, 7, 15))])
def test_cutoffs(text, expected):
    assert parse_cutoff(text) == expected


@pytest.mark.parametrize("text", ["2026-13", "07/2026", "2026-02-30", "soon"])
def test_bad_cutoffs_are_usage_errors(cli, text):
    result = cli("stale", "--since", text)
    assert result.exit_code == 2 and "specdb:" in result.stderr


@pytest.mark.parametrize("text, expected", [("90d", (90, "day")), ("6mo", (6, "month")), ("1y", (1, "year")), ("2 years", (2, "year")), ("3w", (3, "week"))])
def test_ages(text, expected):
    assert parse_age(text) == expected


def test_a_month_back_from_the_31st_is_the_last_day_of_that_month():
    assert before(dt.date(2026, 3, 31), 1, "month") == dt.date(2026, 2, 28)
    assert before(dt.date(2026, 1, 15), 2, "month") == dt.date(2025, 11, 15)
    assert before(dt.date(2024, 2, 29), 1, "year") == dt.date(2023, 2, 28)


def test_an_age_of_exactly_a_century_is_accepted_and_one_more_refused():
    assert parse_age("100y") == (100, "year")
    assert parse_age("1200mo") == (1200, "month")
    with pytest.raises(UsageError, match=r"^'101y' is longer than 100 years$"):
        parse_age("101y")
    with pytest.raises(UsageError, match=r"^'soon' is not an age; write a count and d, w, mo or y \(90d, 6mo, 1y\)$"):
        parse_age("soon")


@pytest.mark.parametrize("levels, strict, fails", [
    (["warn"], False, False), (["warn"], True, True), (["error"], False, True), (["error"], True, True),
    (["stale"], False, True), (["stale"], True, True), ([], True, False),
])
def test_which_levels_fail_a_check(levels, strict, fails):
    assert failing([{"level": level} for level in levels], strict=strict) is fails


def _row(vendor, platform, cliff, flop_per_byte=None):
    return {"vendor": vendor, "platform": platform, "scale_up_to_scale_out": cliff, "bf16_flop_per_network_byte": flop_per_byte}


def test_the_trend_line_says_grew_shrank_or_held_with_five_percent_of_slack():
    rows = [
        _row("V", "a", 10), _row("V", "b", 10.5), _row("V", "c", 11.1), _row("V", "d", 10.5), _row("V", "e", 9.9),
        _row("W", "only", None), _row("W", "one", 3),
    ]
    # 10.5/10 = 1.05 held (not more than 5%); 11.1/10.5 = 1.057 grew; 10.5/11.1 = 0.946 shrank; 9.9/10.5 = 0.943 shrank.
    assert trend(rows) == ["V node-edge cliff, scale-up / scale-out: 10x a -> 10.5x b (held) -> 11.1x c (grew) -> 10.5x d (shrank) -> 9.9x e (shrank)"]


def test_a_vendor_with_one_platform_does_not_end_the_other_trends():
    rows = [_row("A", "solo", 9), _row("B", "x", 4, 1000), _row("B", "y", 8, 2500)]
    assert trend(rows) == [
        "B node-edge cliff, scale-up / scale-out: 4x x -> 8x y (grew)",
        "B dense BF16 FLOP per byte of scale-out bandwidth: 1,000 (x) -> 2,500 (y), x2.5",
    ]


def test_a_changed_source_outranks_a_warning_but_not_an_error(dated, tmp_path):
    """A figure only warned of by its age, whose source changed since its review, is 'changed' and fails a check;
    an error stays an error."""
    import specdb
    from specdb.analysis.stale import stale_figures

    _policy(specs=dated, text="  link:\n    warn_after: {count: 4, period: month}\n    error_after: {count: 150, period: day}\n")
    connection = specdb.connect(dated, tmp_path / "db.sqlite")
    rows = stale_figures(connection, today=dt.date(2026, 11, 29), changed_sources={"test-datasheet"})
    levels = {(row["record_id"], row["figure"]): row["level"] for row in rows}
    # As in test_policies_mark_warn_and_error_and_error_wins: the two reviewed before 2026-07-02 are errors, and
    # test-link's per_accelerator_bandwidth (2026-07-02) only warned; every figure cites test-datasheet.
    assert levels[("test-link", "per_link_bandwidth")] == levels[("test-link", "links_per_accelerator")] == "error"
    assert levels[("test-link", "per_accelerator_bandwidth")] == "changed"
    assert "warn" not in levels.values() and failing(rows, strict=False)
