"""The rules of the record format, one record at a time and across records: each broken rule is one problem, at the
line and column of what broke it, with a message that says what to write instead. Loaded in-process (no build), so fast.

Line and column numbers are counted by hand in the text written by each test.
"""

import datetime as dt
import hashlib
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from conftest import TEST_SPECS
from specdb.load.dataset import Problem, load_specs
from specdb.load.files import SpecFile, SpecsInMemory, current_stamp, walk

NPU = "accelerator/test-npu.yaml"
# A valid accelerator: line numbers below refer to this text.
HEAD = """schema: 2
id: test-npu
kind: accelerator
name: Test NPU
vendor: Test Vendor
figures:
"""
CAPACITY = """  memory_capacity:
    value: 96 GiB
    status: shipping
    as_of: 2023-01
    reviewed: 2026-07-15
    sources: [{ref: test-datasheet}]
"""


def _problems(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, int, int, str, str]]:
    """(file, line, column, message, code) of every problem after writing these files over a copy of the test data."""
    specs = Path(tempfile.mkdtemp(dir=tmp_path)) / "specs"
    shutil.copytree(TEST_SPECS, specs)
    for relpath, text in files.items():
        (specs / relpath).parent.mkdir(parents=True, exist_ok=True)
        (specs / relpath).write_text(text)
    return [(Path(p.path).relative_to(specs).as_posix(), p.line, p.column, p.message.replace(f"{specs}/", ""), p.code) for p in load_specs(specs).problems]


def _npu(tmp_path: Path, figures: str, head: str = HEAD) -> list[tuple[int, int, str, str]]:
    found = _problems(tmp_path, {NPU: head + figures})
    assert {path for path, *_ in found} <= {NPU}
    return [tuple(rest) for _, *rest in found]


def test_the_valid_record_has_no_problem(tmp_path):
    assert _npu(tmp_path, CAPACITY) == []


def test_a_measured_figure_needs_its_method(tmp_path):
    measured = CAPACITY.replace("status: shipping", "status: measured")
    # The figure's mapping starts at line 8, column 5 (its first key, value).
    assert _npu(tmp_path, measured) == [(8, 5, "figures.memory_capacity: a measured figure needs 'method'", "invalid-value")]
    assert _npu(tmp_path, measured + "    method: nvidia-smi on one GPU\n") == []


def test_a_measured_bandwidth_without_direction_or_method_names_all_three_keys(tmp_path):
    figure = """  memory_bandwidth:
    value: 3 TB/s
    status: measured
    as_of: 2023-01
    reviewed: 2026-07-15
    sources: [{ref: test-datasheet}]
"""
    assert _npu(tmp_path, figure) == [(8, 5, "figures.memory_bandwidth: a bandwidth figure needs 'direction', 'scope', 'method'", "invalid-value")]


def test_direction_belongs_to_bandwidths_only(tmp_path):
    with_direction = CAPACITY + "    direction: total\n"
    assert _npu(tmp_path, with_direction) == [(8, 5, "figures.memory_capacity: 'direction' applies to bandwidths only, not to a size", "invalid-value")]


def test_a_compute_figure_needs_precision_and_sparsity(tmp_path):
    figure = """  dense_bf16_flops:
    value: 989 TFLOPS
    precision: bf16
    status: shipping
    as_of: 2023-01
    reviewed: 2026-07-15
    sources: [{ref: test-datasheet}]
"""
    assert _npu(tmp_path, figure) == [(8, 5, "figures.dense_bf16_flops: a compute figure needs 'sparsity'", "invalid-value")]


def test_collective_belongs_to_a_measured_bandwidth(tmp_path):
    figure = CAPACITY + "    collective: {operation: all-reduce, accelerators: 8, algorithm: ring, library: NCCL}\n"
    assert _npu(tmp_path, figure) == [
        (8, 5, "figures.memory_capacity: 'collective' belongs to a measured bandwidth (a bus bandwidth as nccl-tests reports it)", "invalid-value"),
    ]


BUSBW = """  measured_all_reduce_busbw_8:
    value: 360 GB/s
    direction: per-direction
    scope: per-accelerator
    status: measured
    method: nccl-tests all_reduce_perf
    as_of: 2024-01
    reviewed: 2026-07-15
    sources: [{ref: test-datasheet}]
    collective: {operation: all-reduce, accelerators: 8, algorithm: ring, library: NCCL"""


@pytest.mark.parametrize("extra, message", [
    (", size: 8 GB}", None),
    (", size: 8 GB/s}", "size '8 GB/s' is not a data size"),
    (", domains: 8}", None),
    (", domains: 9}", "8 accelerators cannot span 9 domains"),
])
def test_a_collective_run_is_sized_in_bytes_and_spans_no_more_domains_than_accelerators(tmp_path, extra, message):
    found = _problems(tmp_path, {"system/test-box.yaml": SYSTEM_HEAD + BUSBW + extra + "\n"})
    # The run's flow mapping starts at line 17, column 17.
    where = ("system/test-box.yaml", 17, 17)
    assert found == ([] if message is None else [(*where, f"figures.measured_all_reduce_busbw_8.collective: {message}", "invalid-value")])


def _history(*entries: tuple[str, str]) -> str:
    rows = "".join(f"      - {{value: {value}, as_of: {as_of}, reviewed: 2026-07-15, sources: [{{ref: test-datasheet}}]}}\n" for value, as_of in entries)
    return CAPACITY + "    history:\n" + rows


def test_history_is_newest_first(tmp_path):
    assert _npu(tmp_path, _history(("80 GB", "2022-06"), ("64 GB", "2022-03"))) == []
    assert _npu(tmp_path, _history(("64 GB", "2022-03"), ("80 GB", "2022-06"))) == [
        (8, 5, "figures.memory_capacity: history must be ordered newest first (by as_of)", "invalid-value"),
    ]


def test_history_and_alternatives_keep_the_figure_dimension(tmp_path):
    assert _npu(tmp_path, _history(("3 TB/s", "2022-06"))) == [
        (8, 5, "figures.memory_capacity: history value '3 TB/s' is a bandwidth, not a size", "invalid-value"),
    ]
    alternative = CAPACITY + "    alternatives:\n      - {value: 2 TFLOPS, reason: a typo, sources: [{ref: test-datasheet}]}\n"
    assert _npu(tmp_path, alternative) == [
        (8, 5, "figures.memory_capacity: alternative value '2 TFLOPS' is a compute, not a size", "invalid-value"),
    ]


def test_reviewed_may_be_the_day_of_as_of_but_not_before_it(tmp_path):
    assert _npu(tmp_path, CAPACITY.replace("as_of: 2023-01", "as_of: 2026-07-15")) == []
    # reviewed is on line 11, its value at column 15.
    assert _npu(tmp_path, CAPACITY.replace("reviewed: 2026-07-15", "reviewed: 2022-12-31")) == [
        (11, 15, "reviewed 2022-12-31 is before as_of 2023-01", "review-order"),
    ]


def test_dates_in_the_future_and_impossible_dates_are_refused(tmp_path):
    tomorrow = (dt.date.today() + dt.timedelta(days=1)).isoformat()
    today = dt.date.today().isoformat()
    assert _npu(tmp_path, CAPACITY.replace("reviewed: 2026-07-15", f"reviewed: {today}")) == []
    assert _npu(tmp_path, CAPACITY.replace("reviewed: 2026-07-15", f"reviewed: {tomorrow}")) == [
        (11, 15, f"figures.memory_capacity.reviewed: '{tomorrow}' is in the future", "invalid-value"),
    ]
    assert _npu(tmp_path, CAPACITY.replace("as_of: 2023-01", "as_of: 2023-13")) == [
        (10, 12, "figures.memory_capacity.as_of: '2023-13' is not a real date (month must be in 1..12)", "invalid-value"),
    ]
    assert _npu(tmp_path, CAPACITY.replace("as_of: 2023-01", "as_of: {year: 2023}")) == [
        (10, 12, "figures.memory_capacity.as_of: expected a date such as 2026-07 or 2026-07-15", "invalid-value"),
    ]


def test_a_value_is_text_with_a_unit_that_fits_the_name(tmp_path):
    # The value is on line 8, from column 12.
    assert _npu(tmp_path, CAPACITY.replace("value: 96 GiB", "value: [96, GB]")) == [
        (8, 12, "figures.memory_capacity.value: expected a quantity such as '3.35 TB/s' or '72'", "invalid-value"),
    ]
    assert _npu(tmp_path, CAPACITY.replace("value: 96 GiB", "value: 96 W")) == [
        (8, 12, "figures.memory_capacity: '96 W' is a power, but memory_capacity is a size", "vocabulary"),
    ]


SYSTEM_HEAD = """schema: 2
id: test-box
kind: system
name: Test Box
vendor: Test Vendor
uses: {accelerator: test-gpu}
figures:
"""
SYSTEM = SYSTEM_HEAD + """  scale_up_domain: {value: "VALUE", status: shipping, as_of: 2023-01, reviewed: 2026-07-15, sources: [{ref: test-datasheet}]}
"""


@pytest.mark.parametrize("value, message", [
    ("8", None),
    ("7.5", "figures.scale_up_domain: '7.5' must be a whole number (accelerators in one scale-up domain of the system)"),
])
def test_counts_of_things_are_whole(tmp_path, value, message):
    found = _problems(tmp_path, {"system/test-box.yaml": SYSTEM.replace("VALUE", value)})
    assert found == ([] if message is None else [("system/test-box.yaml", 8, 28, message, "vocabulary")])


@pytest.mark.parametrize("period, count, ok", [("year", 100, True), ("year", 101, False), ("month", 1200, True), ("month", 1201, False), ("day", 36525, True), ("day", 36526, False)])
def test_a_review_policy_is_at_most_a_century(tmp_path, period, count, ok):
    head = HEAD.replace("figures:\n", f"review: {{warn_after: {{count: {count}, period: {period}}}}}\nfigures:\n")
    found = _npu(tmp_path, CAPACITY, head)
    # The period's flow mapping starts at line 6, column 22.
    assert found == ([] if ok else [(6, 22, f"review.warn_after: {count} {period}s is longer than 100 years; write null to switch the policy off", "invalid-value")])


@pytest.mark.parametrize("text, message", [
    ("count: 2.5", "review.warn_after.count: '2.5' must be a whole number"),
    ("count: 2 GB", "review.warn_after.count: '2 GB' must be a plain number"),
])
def test_a_review_count_is_a_whole_plain_number(tmp_path, text, message):
    head = HEAD.replace("figures:\n", f"review: {{warn_after: {{{text}, period: year}}}}\nfigures:\n")
    [(line, _, found, code)] = _npu(tmp_path, CAPACITY, head)
    assert (line, found, code) == (6, message, "invalid-value")


SOURCE = """schema: 2
id: test-page
kind: source
name: A test page
publisher: Test Vendor
"""


@pytest.mark.parametrize("body, message", [
    ("url: https://example.com/page\naccessed: 2026-07-15\n", None),
    ("citation: Test Vendor, Annual Report 2025, p. 4\npublished: 2025-03\n", None),
    ("accessed: 2026-07-15\n", "record: a source needs 'url' or 'citation'"),
    ("url: https://example.com/page\n", "record: a source needs 'published' or 'accessed'"),
])
def test_a_source_can_be_found_again(tmp_path, body, message):
    found = _problems(tmp_path, {"source/test-page.yaml": SOURCE + body})
    # A rule about the whole record points at its start, line 1, column 1.
    assert found == ([] if message is None else [("source/test-page.yaml", 1, 1, message, "invalid-value")])


@pytest.mark.parametrize("host, excluded", [
    ("mirror.example", True), ("www.mirror.example", True), ("notmirror.example", False), ("mirror.example.org", False),
])
def test_an_excluded_domain_covers_its_subdomains_and_nothing_else(tmp_path, host, excluded):
    files = {
        "policy.yaml": "schema: 2\nexcluded_source_domains: [mirror.example]\n",
        "source/test-page.yaml": SOURCE + f"url: https://{host}/page\naccessed: 2026-07-15\n",
    }
    message = (f"url: {host} is a mirror or content farm (mirror.example is in excluded_source_domains of policy.yaml); "
               "cite the primary source it copies")
    assert _problems(tmp_path, files) == ([("source/test-page.yaml", 6, 6, message, "excluded-source")] if excluded else [])


@pytest.mark.parametrize("domain", ["Mirror.example", "https://mirror.example", "mirror", "mirror.example/page"])
def test_an_excluded_domain_is_written_as_a_bare_host_name(tmp_path, domain):
    found = _problems(tmp_path, {"policy.yaml": f"schema: 2\nexcluded_source_domains: ['{domain}']\n"})
    message = f"excluded_source_domains[0]: '{domain}' is not a domain name such as example.com (lowercase, without scheme or path)"
    assert found == [("policy.yaml", 2, 27, message, "invalid-value")]


def test_an_excluded_domain_with_a_trailing_newline_is_not_a_domain(tmp_path):
    # Such a name would match no host: the exclusion would silently exclude nothing.
    found = _problems(tmp_path, {"policy.yaml": 'schema: 2\nexcluded_source_domains: ["mirror.example\\n"]\n'})
    message = "excluded_source_domains[0]: 'mirror.example\n' is not a domain name such as example.com (lowercase, without scheme or path)"
    assert found == [("policy.yaml", 2, 27, message, "invalid-value")]


def test_aliases_name_one_record_whatever_their_case(tmp_path):
    head = HEAD.replace("figures:\n", "aliases: [Test NPU 96, test npu 96, TEST-GPU, test gpu sxm]\nfigures:\n")
    assert _npu(tmp_path, CAPACITY, head) == [
        (6, 24, "alias 'test npu 96' is listed twice (aliases ignore case and look-alike forms)", "duplicate-alias"),
        (6, 37, "alias 'TEST-GPU' already names 'test-gpu'", "duplicate-alias"),
        (6, 47, "alias 'test gpu sxm' already names 'test-gpu'", "duplicate-alias"),
    ]


def test_of_two_records_listing_one_alias_the_first_file_keeps_it_whatever_the_order_of_ids(tmp_path):
    npu = HEAD.replace("figures:\n", "aliases: [Shared Name]\nfigures:\n") + CAPACITY
    link = (TEST_SPECS / "link" / "test-link.yaml").read_text().replace("figures:\n", "aliases: [shared NAME]\nfigures:\n")
    # accelerator/test-npu.yaml comes before link/test-link.yaml, although test-link comes before test-npu.
    assert _problems(tmp_path, {NPU: npu, "link/test-link.yaml": link}) == [
        ("link/test-link.yaml", 6, 11, "alias 'shared NAME' already names 'test-npu'", "duplicate-alias"),
    ]


def test_uses_points_at_an_existing_record_of_the_kind_the_role_needs(tmp_path):
    head = HEAD.replace("figures:\n", "uses: {scale_up: test-fabric, host_link: test-nothing}\nfigures:\n")
    assert _npu(tmp_path, CAPACITY, head) == [
        (6, 18, "uses.scale_up: 'test-fabric' is a fabric, not a link", "wrong-kind"),
        (6, 42, "uses.host_link: no record 'test-nothing'", "unknown-record"),
    ]
    wrong_role = HEAD.replace("figures:\n", "uses: {gpu: test-gpu}\nfigures:\n")
    assert _npu(tmp_path, CAPACITY, wrong_role) == [(6, 8, "uses: 'gpu' is not an allowed name here", "invalid-value")]


def test_every_citation_names_a_source_record(tmp_path):
    figure = _history(("80 GB", "2022-06")).replace(
        "history:\n      - {value: 80 GB, as_of: 2022-06, reviewed: 2026-07-15, sources: [{ref: test-datasheet}]}",
        "history:\n      - {value: 80 GB, as_of: 2022-06, reviewed: 2026-07-15, sources: [{ref: old-page}]}",
    ) + "    alternatives:\n      - {value: 90 GiB, reason: usable, sources: [{ref: test-datasheet}, {ref: new-page}]}\n"
    # The history entry is line 14 and the alternative line 16; "      - {value: 80 GB, as_of: 2022-06, reviewed: 2026-07-15,
    # sources: [{ref: " is 77 characters, "      - {value: 90 GiB, reason: usable, sources: [{ref: test-datasheet}, {ref: " 79.
    assert _npu(tmp_path, figure) == [
        (14, 78, "no source record 'old-page' (expected specs/source/old-page.yaml)", "unknown-source"),
        (16, 80, "no source record 'new-page' (expected specs/source/new-page.yaml)", "unknown-source"),
    ]


def test_a_record_that_fails_validation_still_has_its_derived_figures_checked_against_its_own(tmp_path):
    link = (TEST_SPECS / "link" / "test-link.yaml").read_text().replace("figures:\n", "colour: red\nfigures:\n")
    unknown_key = (6, 1, "unknown key 'colour'", "unknown-key")
    assert _problems(tmp_path, {"link/test-link.yaml": link}) == [("link/test-link.yaml", *unknown_key)]
    # 18 links x 25 GB/s x 2 = 900 GB/s, in bytes per second; "    derived: {product: " is 23 characters.
    wrong = link.replace("value: 900 GB/s", "value: 800 GB/s")
    mismatch = "derived: links_per_accelerator x per_link_bandwidth x 2 = 9e+11, but value is 8e+11 (more than 2% apart)"
    assert _problems(tmp_path, {"link/test-link.yaml": wrong}) == [
        ("link/test-link.yaml", *unknown_key),
        ("link/test-link.yaml", 17, 24, mismatch, "derived-mismatch"),
    ]


def test_a_record_that_fails_validation_has_every_citation_written_as_text_checked(tmp_path):
    figures = (
        "  memory_capacity: 96 GiB\n"
        "  memory_bandwidth: {value: 3 TB/s, status: shipping, as_of: 2023-01, reviewed: 2026-07-15,"
        " sources: [test-datasheet, {ref: [5]}, {ref: no-such-source}]}\n"
    )
    found = [problem for problem in _npu(tmp_path, figures) if problem[3] == "unknown-source"]
    # A figure that is not a mapping is passed over, not the end of the search; a citation that is not a mapping, or whose
    # ref is not text, is its own problem. "  memory_bandwidth: ... sources: [test-datasheet, {ref: [5]}, {ref: " is 136 characters.
    assert found == [(8, 137, "no source record 'no-such-source' (expected specs/source/no-such-source.yaml)", "unknown-source")]


def test_a_record_lives_in_its_kind_folder_under_its_own_id(tmp_path):
    text = HEAD + CAPACITY
    assert _problems(tmp_path, {"link/test-npu.yaml": text}) == [
        ("link/test-npu.yaml", 3, 7, "kind 'accelerator' does not match the folder 'link/'", "layout"),
    ]
    assert _problems(tmp_path, {"accelerator/test-gpu.yaml": text}) == [
        ("accelerator/test-gpu.yaml", 2, 5, "id 'test-npu' does not match the file name 'test-gpu.yaml'", "layout"),
    ]
    layout = "a record lives in specs/<kind>/<id>.yaml, with kind one of accelerator, link, fabric, system, cluster, source"
    assert _problems(tmp_path, {"gpu/test-npu.yaml": text}) == [("gpu/test-npu.yaml", 0, 0, layout, "layout")]
    assert _problems(tmp_path, {"accelerator/more/test-npu.yaml": text}) == [("accelerator/more/test-npu.yaml", 0, 0, layout, "layout")]


def test_an_id_used_twice_is_reported_at_the_second_file(tmp_path):
    # A link file named and kinded as the test GPU's id: the kind is wrong for the folder and the id is taken.
    text = HEAD.replace("id: test-npu", "id: test-gpu") + CAPACITY
    assert _problems(tmp_path, {"link/test-gpu.yaml": text}) == [
        ("link/test-gpu.yaml", 2, 5, "id 'test-gpu' is already used by accelerator/test-gpu.yaml", "duplicate-id"),
        ("link/test-gpu.yaml", 3, 7, "kind 'accelerator' does not match the folder 'link/'", "layout"),
    ]


@pytest.mark.parametrize("value, problem", [
    ("900 GB/s", None),  # 25 GB/s x 18 links x 2 directions = 900 GB/s
    ("915 GB/s", None),  # 1.7 % above: within the 2 % tolerance
    ("920 GB/s", "derived: links_per_accelerator x per_link_bandwidth x 2 = 9e+11, but value is 9.2e+11 (more than 2% apart)"),
    ("885 GB/s", None),  # 1.7 % below
    ("880 GB/s", "derived: links_per_accelerator x per_link_bandwidth x 2 = 9e+11, but value is 8.8e+11 (more than 2% apart)"),
])
def test_a_derived_figure_multiplies_out_within_two_percent(tmp_path, value, problem):
    link = (TEST_SPECS / "link" / "test-link.yaml").read_text()
    assert "value: 900 GB/s" in link
    found = _problems(tmp_path, {"link/test-link.yaml": link.replace("value: 900 GB/s", f"value: {value}")})
    assert [message for *_, message, _ in found] == ([] if problem is None else [problem])


def test_a_derivation_names_figures_that_exist(tmp_path):
    link = (TEST_SPECS / "link" / "test-link.yaml").read_text()
    broken = link.replace("product: [links_per_accelerator, per_link_bandwidth]", "product: [links_per_accelerator, test-gpu.per_link_bandwidth]")
    assert broken != link
    # Located at the reference itself: line 16 is "    derived: {product: [links_per_accelerator, test-gpu....", whose
    # second item starts after 4 + 9 + 11 characters of prefix and 23 of the first item, at column 48.
    assert _problems(tmp_path, {"link/test-link.yaml": broken}) == [
        ("link/test-link.yaml", 16, 48, "derived: no figure 'test-gpu.per_link_bandwidth'", "unknown-figure"),
    ]
    # A record that does not exist, and a source, which holds no figures.
    for other in ("no-such-record", "test-datasheet"):
        broken = link.replace("product: [links_per_accelerator, per_link_bandwidth]", f"product: [{other}.per_link_bandwidth]")
        [(_, _, _, message, _)] = _problems(tmp_path, {"link/test-link.yaml": broken})
        assert message == f"derived: no figure '{other}.per_link_bandwidth'"


def test_a_derivation_over_a_figure_that_failed_validation_reports_only_that_failure(tmp_path):
    link = (TEST_SPECS / "link" / "test-link.yaml").read_text()
    # per_link_bandwidth, on line 8, is one of the figures per_accelerator_bandwidth is derived from.
    assert _problems(tmp_path, {"link/test-link.yaml": link.replace("value: 25 GB/s", "value: 25 parsecs")}) == [
        ("link/test-link.yaml", 8, 31, "figures.per_link_bandwidth.value: '25 parsecs': unknown unit 'parsecs'", "invalid-value"),
    ]


def test_every_figure_outside_the_vocabulary_is_reported(tmp_path):
    # Figures start on lines 7, 13 and 19 (six lines each); a value sits one line below, at column 12.
    unknown = CAPACITY + CAPACITY.replace("memory_capacity", "zzz_first") + CAPACITY.replace("memory_capacity", "zzz_second")
    hint = "; `specdb query names` lists the figure names"
    assert _npu(tmp_path, unknown) == [
        (13, 3, f"figures: unknown figure name 'zzz_first'{hint}", "vocabulary"),
        (19, 3, f"figures: unknown figure name 'zzz_second'{hint}", "vocabulary"),
    ]
    misfits = (CAPACITY.replace("memory_capacity", "memory_bandwidth").replace("96 GiB", "3 TB") + CAPACITY.replace("96 GiB", "2 us")
               + CAPACITY.replace("memory_capacity", "latency").replace("96 GiB", "2 us"))
    assert _npu(tmp_path, misfits) == [
        (8, 12, "figures.memory_bandwidth: '3 TB' is a size, but memory_bandwidth is a bandwidth", "vocabulary"),
        (14, 12, "figures.memory_capacity: '2 us' is a time, but memory_capacity is a size", "vocabulary"),
        # latency is declared for links and fabrics.
        (19, 3, "figures.latency: accelerator records cannot have this figure (it belongs to: link, fabric)", "vocabulary"),
    ]


def test_a_figure_counted_or_scoped_against_its_name_is_reported_at_that_key(tmp_path):
    up = CAPACITY.replace("memory_capacity", "scale_up_bandwidth").replace("96 GiB", "900 GB/s\n    direction: total\n    scope: per-accelerator")
    capacity = CAPACITY.replace("    status: shipping", "    scope: per-link\n    status: shipping")
    # scale_up_bandwidth starts on line 7, its direction on line 9 after 15 characters; memory_capacity's scope is on line 17.
    assert _npu(tmp_path, up + capacity) == [
        (9, 16, "figures.scale_up_bandwidth: direction 'total' does not fit; scale_up_bandwidth is counted per-direction or bidirectional", "vocabulary"),
        (17, 12, "figures.memory_capacity: scope 'per-link' does not fit; memory_capacity is per-accelerator", "vocabulary"),
    ]


def test_a_file_name_with_a_second_dot_is_not_its_records_id(tmp_path):
    # "test-npu.old.yaml" names the id "test-npu.old"; the record's id, on line 2 at column 5, is "test-npu".
    assert _problems(tmp_path, {"accelerator/test-npu.old.yaml": HEAD + CAPACITY}) == [
        ("accelerator/test-npu.old.yaml", 2, 5, "id 'test-npu' does not match the file name 'test-npu.old.yaml'", "layout"),
    ]


def test_problems_print_as_path_line_column_or_just_the_path():
    assert str(Problem("specs/a.yaml", 3, 7, "bad", "yaml")) == "specs/a.yaml:3:7: bad"
    assert str(Problem("specs/a.yaml", 0, 0, "cannot read file", "unreadable")) == "specs/a.yaml: cannot read file"


@pytest.mark.parametrize("find, replace, where, message", [
    ("kind: accelerator", "kind: cable", (3, 7), "kind: 'cable' is not one of 'accelerator', 'link', 'fabric', 'system' or 'cluster'"),
    ("id: test-npu", "id: Test_NPU", (2, 5), "id: 'Test_NPU' has characters that are not allowed (lowercase letters, digits, '-' for ids; '_' for figure names)"),
    ("name: Test NPU", "name: {first: Test, second: NPU}", (4, 7), "name: expected text"),
    ("vendor: Test Vendor\n", "vendor: Test Vendor\naliases: Test NPU 96\n", (6, 10), "aliases: expected a list"),
    ("vendor: Test Vendor\n", "vendor: Test Vendor\nreview: weekly\n", (6, 9), "review: expected a mapping of keys"),
    ("sources: [{ref: test-datasheet}]", "sources: []", (12, 14), "figures.memory_capacity.sources: must not be empty"),
])
def test_a_value_of_the_wrong_shape_says_what_was_expected(tmp_path, find, replace, where, message):
    text = HEAD + CAPACITY
    assert find in text
    assert _npu(tmp_path, text.replace(find, replace), head="") == [(*where, message, "invalid-value")]


def test_figures_must_be_a_mapping(tmp_path):
    assert _npu(tmp_path, " [memory_capacity]\n", head=HEAD.replace("figures:\n", "figures:")) == [(6, 10, "figures: expected a mapping of keys", "invalid-value")]


def test_a_missing_key_is_named_in_full_at_its_mapping(tmp_path):
    assert _npu(tmp_path, CAPACITY.replace("    status: shipping\n", "")) == [(8, 5, "missing key 'figures.memory_capacity.status'", "missing-key")]


def test_a_key_is_named_as_written(tmp_path):
    # The record's `schema` key is a Python attribute `schema_` inside; no name the user wrote is rewritten.
    assert _npu(tmp_path, CAPACITY + "    schema_note: x\n") == [(13, 5, "unknown key 'figures.memory_capacity.schema_note'", "unknown-key")]
    assert _npu(tmp_path, CAPACITY, HEAD.replace("schema: 2\n", "")) == [(1, 1, "missing key 'schema'", "missing-key")]


def test_a_key_really_named_like_pydantics_marker_is_an_unknown_key_where_it_is(tmp_path):
    # pydantic marks a bad mapping key with "[key]"; a key that really is "[key]" is reported as the unknown key it is.
    assert _npu(tmp_path, CAPACITY + '    "[key]": x\n') == [(13, 5, "unknown key 'figures.memory_capacity.[key]'", "unknown-key")]
    entry = _history(("80 GB", "2022-06")).replace("test-datasheet}]}", 'test-datasheet}], "[key]": x}')
    # "      - {value: 80 GB, as_of: 2022-06, reviewed: 2026-07-15, sources: [{ref: test-datasheet}], " is 95 characters.
    assert _npu(tmp_path, entry) == [(14, 96, "unknown key 'figures.memory_capacity.history[0].[key]'", "unknown-key")]


def test_a_bad_role_holding_text_with_brackets_is_still_reported_as_the_role(tmp_path):
    head = HEAD.replace("figures:\n", 'uses: {gpu: "x[key]"}\nfigures:\n')
    assert _npu(tmp_path, CAPACITY, head) == [
        (6, 8, "uses: 'gpu' is not an allowed name here", "invalid-value"),
        (6, 13, "uses.gpu: 'x[key]' has characters that are not allowed (lowercase letters, digits, '-' for ids; '_' for figure names)", "invalid-value"),
    ]


def test_a_spec_file_that_cannot_be_read_is_a_problem_of_the_whole_file(tmp_path):
    specs = tmp_path / "specs"
    shutil.copytree(TEST_SPECS, specs)
    os.symlink(specs / "nowhere.yaml", specs / "link" / "dangling.yaml")
    dataset = load_specs(specs)
    [problem] = dataset.problems
    assert (problem.path, problem.line, problem.column, problem.code) == (str(specs / "link" / "dangling.yaml"), 0, 0, "layout")
    assert "broken symbolic link" in problem.message
    # What was read is still recorded: where from, and each file's metadata for the build to keep.
    assert dataset.root == specs
    assert dataset.stamp is not None and dataset.stamp.digest == current_stamp(walk(specs))


def test_a_file_too_large_to_be_a_record_is_refused_unread_and_its_id_is_not_reported_again(tmp_path):
    specs = tmp_path / "specs"
    shutil.copytree(TEST_SPECS, specs)
    # A sparse 60 MiB file (62.9 MB) standing where the test link was: the GPU's `uses` of it is not a second problem.
    (specs / "link" / "test-link.yaml").unlink()
    with open(specs / "link" / "test-link.yaml", "wb") as big:
        big.truncate(60 * 2**20)
    dataset = load_specs(specs)
    assert [(p.path, p.line, p.column, p.message, p.code) for p in dataset.problems] == [
        (str(specs / "link" / "test-link.yaml"), 0, 0, "file is 62.9 MB; a record file is at most 1 MiB", "unreadable"),
    ]
    assert dataset.root == specs


def test_a_file_that_is_not_a_mapping_or_not_yaml_is_reported_in_the_file(tmp_path):
    assert _problems(tmp_path, {NPU: "- just\n- a list\n"}) == [(NPU, 1, 1, "a record file must be a mapping of keys", "yaml")]
    [(path, line, column, message, code)] = _problems(tmp_path, {NPU: HEAD.replace("vendor: Test Vendor", "vendor: [Test Vendor") + CAPACITY})
    assert (path, code) == (NPU, "yaml") and line >= 5 and column >= 1 and "YAML syntax" in message


def test_problems_are_shown_relative_to_the_working_folder_when_inside_it(tmp_path, monkeypatch):
    specs = tmp_path / "specs"
    shutil.copytree(TEST_SPECS, specs)
    (specs / "link" / "test-pcie.yaml").write_text("- a list\n")
    monkeypatch.chdir(tmp_path)
    assert [str(problem) for problem in load_specs(specs).problems] == ["specs/link/test-pcie.yaml:1:1: a record file must be a mapping of keys"]
    monkeypatch.chdir(specs / "link")
    assert [problem.path for problem in load_specs(specs).problems] == ["test-pcie.yaml"]
    assert [problem.path for problem in load_specs(Path("..")).problems] == ["test-pcie.yaml"]
    # From inside the specs folder, a file outside the working folder is named in full.
    gpu = specs / "accelerator" / "test-gpu.yaml"
    gpu.write_text("- a list\n")
    assert [problem.path for problem in load_specs(specs).problems] == [str(gpu), "test-pcie.yaml"]
    gpu.write_text((TEST_SPECS / "accelerator" / "test-gpu.yaml").read_text())
    # Two levels down, a stray file in the working folder is still named from there, and the one above it in full.
    (specs / "link" / "extra").mkdir()
    (specs / "link" / "extra" / "stray.yaml").write_text("- a list\n")
    monkeypatch.chdir(specs / "link" / "extra")
    assert [problem.path for problem in load_specs(specs).problems] == [str(specs / "link" / "test-pcie.yaml"), "stray.yaml"]
    (specs / "link" / "extra" / "stray.yaml").unlink()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert [problem.path for problem in load_specs(specs).problems] == [str(specs / "link" / "test-pcie.yaml")]
    assert [problem.path for problem in load_specs(Path("../specs")).problems] == ["../specs/link/test-pcie.yaml"]


def test_the_content_hash_follows_the_bytes(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    shutil.copytree(TEST_SPECS, first)
    shutil.copytree(TEST_SPECS, second)
    assert len(load_specs(first).content_hash) == 64 and load_specs(first).content_hash == load_specs(second).content_hash
    gpu = second / "accelerator" / "test-gpu.yaml"
    gpu.write_text(gpu.read_text() + "\n")
    assert load_specs(first).content_hash != load_specs(second).content_hash


def test_the_content_hash_is_the_documented_one_whatever_the_order_of_reading(tmp_path):
    """The README's definition: SHA-256 over each file's path, a zero byte and the SHA-256 of its bytes, in the order of paths."""
    specs = tmp_path / "specs"
    shutil.copytree(TEST_SPECS, specs)
    files = sorted(path.relative_to(specs).as_posix() for path in specs.rglob("*.yaml"))
    expected = hashlib.sha256(b"".join(f.encode() + b"\0" + hashlib.sha256((specs / f).read_bytes()).digest() for f in files)).hexdigest()
    assert load_specs(specs).content_hash == expected
    backwards = SpecsInMemory(SpecFile(f, (specs / f).read_bytes()) for f in reversed(files))
    for relpath in reversed(files):
        backwards.read(relpath)
    assert backwards.content_hash() == expected
    (specs / "link" / "test-pcie.yaml").rename(specs / "link" / "test-pcie-moved.yaml")
    assert load_specs(specs).content_hash != expected


def test_the_stamp_is_the_documented_one(tmp_path):
    """The definition in docs/design.md: SHA-256 of the folder's path, then of the SHA-256 of each file's path, size, modification and
    change times in nanoseconds and inode, separated by tabs, in the order of paths."""
    specs = tmp_path / "specs"
    shutil.copytree(TEST_SPECS, specs)
    files = sorted(path.relative_to(specs).as_posix() for path in specs.rglob("*.yaml"))
    infos = {f: os.stat(specs / f) for f in files}
    lines = [f"{f}\t{infos[f].st_size}\t{infos[f].st_mtime_ns}\t{infos[f].st_ctime_ns}\t{infos[f].st_ino}" for f in files]
    expected = hashlib.sha256(str(specs).encode() + b"".join(hashlib.sha256(line.encode()).digest() for line in lines)).hexdigest()
    assert load_specs(specs).stamp.digest == expected
    assert current_stamp(walk(specs)) == expected
    os.utime(specs / files[0], ns=(infos[files[0]].st_atime_ns, infos[files[0]].st_mtime_ns + 1))
    assert load_specs(specs).stamp.digest != expected


@pytest.mark.parametrize("relpath, text, problem", [
    ("link/more/test-link.yaml", None, (0, 0, "a record lives in specs/<kind>/<id>.yaml, with kind one of accelerator, link, fabric, system, cluster, source")),
    # '  links_per_accelerator: {value: "18", status: ' is 47 characters.
    ("link/test-link.yaml", "status: rumoured", (7, 48, "figures.links_per_accelerator.status: 'rumoured' is not one of 'spec', 'announced', 'shipping' or 'measured'")),
])
def test_a_record_that_cannot_be_loaded_is_reported_once_and_not_again_by_those_that_use_it(tmp_path, relpath, text, problem):
    # test-gpu and test-system use test-link; its problem is the only one, no "no record 'test-link'" after it.
    link = (TEST_SPECS / "link" / "test-link.yaml").read_text()
    specs = Path(tempfile.mkdtemp(dir=tmp_path)) / "specs"
    shutil.copytree(TEST_SPECS, specs)
    (specs / "link" / "test-link.yaml").unlink()
    (specs / relpath).parent.mkdir(parents=True, exist_ok=True)
    (specs / relpath).write_text(link if text is None else link.replace("status: shipping", text, 1))
    assert [(p.line, p.column, p.message) for p in load_specs(specs).problems] == [problem]


def test_a_record_file_ends_in_yaml(tmp_path):
    assert _problems(tmp_path, {"accelerator/test-npu.yml": HEAD + CAPACITY}) == [("accelerator/test-npu.yml", 0, 0, "record files end in .yaml", "layout")]


def test_a_memory_capacity_in_decimal_units_is_refused_at_its_value_with_its_binary_reading(tmp_path):
    decimal = CAPACITY.replace("96 GiB", "96 GB") + "    alternatives:\n      - {value: 0.1 TB, reason: raw stacks, sources: [{ref: test-datasheet}]}\n"
    # The value is line 8, column 12; the alternative is line 14, its value at column 17.
    why = "is counted in decimal units, but DRAM is built in powers of two, so a vendor's"
    assert _npu(tmp_path, decimal) == [
        (8, 12, f"figures.memory_capacity: '96 GB' {why} '96 GB' of it is 96 GiB: write that, and keep the vendor's words in the quote", "vocabulary"),
        (14, 17, f"figures.memory_capacity.alternatives[0]: '0.1 TB' {why} '0.1 TB' of it is 0.1 TiB: write that, and keep the vendor's words in the quote", "vocabulary"),
    ]
    # Bytes are exact, and the history keeps a value as it was once stored.
    exact = CAPACITY.replace("96 GiB", "103079215104 B") + "    history:\n      - {value: 96 GB, as_of: 2022-06, reviewed: 2026-07-15, sources: [{ref: test-datasheet}]}\n"
    assert _npu(tmp_path, exact) == []
    driver = CAPACITY.replace("memory_capacity", "driver_memory_total").replace("96 GiB", "98 GB")
    assert _npu(tmp_path, driver) == [(8, 12, f"figures.driver_memory_total: '98 GB' {why} '98 GB' of it is 98 GiB: write that, and keep the vendor's words in the quote", "vocabulary")]
