"""Every kind of bad input gives path:line:column: message, exit 1, and leaves a built database byte-identical."""

import json

import pytest

GPU = "accelerator/test-gpu.yaml"
SOURCE = "source/test-datasheet.yaml"
LINK = "link/test-link.yaml"
SYSTEM = "system/test-system.yaml"

# (case, file, find, replace, expected line, expected column (0, 0: the whole file), expected message part)
CASES = [
    ("yaml syntax", GPU, "family: Testarch", "family: [Testarch", 7, 9, "YAML syntax"),
    ("duplicate key", GPU, "family: Testarch", "family: Testarch\nfamily: Other", 7, 1, "duplicate key 'family' (first at line 6)"),
    ("alias", GPU, "aliases: [TEST GPU 80GB HBM3, Test GPU SXM]", "aliases: &names [TEST GPU 80GB HBM3]\nnotes: *names", 9, 8, "anchors and aliases are not allowed"),
    ("object tag", GPU, "family: Testarch", "family: !!python/object:os.system ls", 6, 9, "tag '!!python/object:os.system' is not allowed"),
    ("custom tag", GPU, "family: Testarch", "family: !shout Testarch", 6, 9, "tag '!shout' is not allowed"),
    ("merge key", GPU, "uses: {scale_up: test-link, host_link: test-pcie}", "uses: {<<: {scale_up: test-link}}", 9, 8, "merge keys (<<) are not allowed"),
    ("unknown key", GPU, "family: Testarch", "famly: Testarch", 6, 1, "unknown key 'famly'"),
    ("missing key", GPU, "name: Test GPU 80GB\n", "", 1, 1, "missing key 'name'"),
    ("unknown kind", LINK, "kind: link", "kind: cable", 3, 7, "kind: 'cable' is not one of"),
    ("unknown direction", GPU, "direction: bidirectional", "direction: both", 42, 16, "direction: 'both' is not one of"),
    ("unknown scope", GPU, "scope: per-accelerator\n    status: shipping\n    as_of: 2023-01\n    reviewed: 2026-07-15\n    sources: [{ref: test-datasheet}]\n    alternatives", "scope: per-gpu\n    status: shipping\n    as_of: 2023-01\n    reviewed: 2026-07-15\n    sources: [{ref: test-datasheet}]\n    alternatives", 25, 12, "scope: 'per-gpu' is not one of"),
    ("unknown status", GPU, "status: announced", "status: rumoured", 22, 74, "status: 'rumoured' is not one of"),
    ("NO is text, not false", GPU, "status: announced", "status: NO", 22, 74, "status: 'NO' is not one of"),
    ("bad unit", GPU, "value: 3.35 TB/s", "value: 3.35 TBs", 12, 12, "unknown unit 'TBs'; did you mean 'TB/s'?"),
    ("bits or bytes", GPU, "value: 3.35 TB/s", "value: 3.35 TBps", 12, 12, "'TBps' is ambiguous"),
    ("negative", GPU, "value: 3.35 TB/s", "value: -3.35 TB/s", 12, 12, "must be greater than zero"),
    ("zero", GPU, "value: 3.35 TB/s", "value: 0 TB/s", 12, 12, "must be greater than zero"),
    ("not finite", GPU, "value: 3.35 TB/s", "value: 1e999 TB/s", 12, 12, "is not finite"),
    ("not a number", GPU, "value: 3.35 TB/s", "value: .inf TB/s", 12, 12, "is not a number followed by a unit"),
    ("malformed date", GPU, "reviewed: 2026-07-15\n    sources:\n      - ref: test-datasheet\n        quote", "reviewed: 15/07/2026\n    sources:\n      - ref: test-datasheet\n        quote", 17, 15, "'15/07/2026' is not a date"),
    ("impossible date", GPU, "reviewed: 2026-07-15\n    sources:\n      - ref: test-datasheet\n        quote", "reviewed: 2026-02-30\n    sources:\n      - ref: test-datasheet\n        quote", 17, 15, "'2026-02-30' is not a real date"),
    ("future date", GPU, "reviewed: 2026-07-15\n    sources:\n      - ref: test-datasheet\n        quote", "reviewed: 2999-01-01\n    sources:\n      - ref: test-datasheet\n        quote", 17, 15, "'2999-01-01' is in the future"),
    ("missing source record", GPU, "- ref: test-datasheet\n        quote", "- ref: no-such-datasheet\n        quote", 19, 14, "no source record 'no-such-datasheet'"),
    # "name: " is 6 characters
    ("blank name", LINK, "name: Test Link 4", "name: '   '", 4, 7, "name: must not be empty"),
    ("figure with no source", LINK, "sources: [{ref: test-datasheet}]}\n  per_link", "sources: []}\n  per_link", 7, 105, "sources: must not be empty"),
    ("figure without sources key", "fabric/test-fabric.yaml", ", sources: [{ref: test-datasheet}]", "", 8, 19, "missing key 'figures.port_bandwidth.sources'"),
    ("id does not match file", LINK, "id: test-link", "id: test-link-4", 2, 5, "id 'test-link-4' does not match the file name 'test-link.yaml'"),
    ("bandwidth without direction", "fabric/test-fabric.yaml", "direction: per-direction, ", "", 8, 19, "a bandwidth figure needs 'direction'"),
    ("derived does not multiply out", LINK, "value: 25 GB/s", "value: 20 GB/s", 16, 24, "derived: links_per_accelerator x per_link_bandwidth x 2 = 7.2e+11, but value is 9e+11"),
    ("not a mapping", SOURCE, None, "- just\n- a list\n", 1, 1, "a record file must be a mapping of keys"),
    ("empty file", SOURCE, None, "", 0, 0, "file is empty"),
    ("thousands separator", GPU, "value: 989 TFLOPS", "value: 1,979 TFLOPS", 33, 12, "without thousands separators"),
    ("unknown schema", SOURCE, "schema: 2", "schema: 3", 1, 9, "schema: '3' is not one of"),
    ("unknown figure name", GPU, "  memory_capacity:", "  memory_capacty:", 23, 3, "unknown figure name 'memory_capacty'; did you mean 'memory_capacity'?"),
    ("unit that does not fit the name", SYSTEM, "value: 400 Gb/s\n    direction: per-direction\n", "value: 400 GB\n", 12, 12, "'400 GB' is a size, but scale_out_bandwidth is a bandwidth"),
    ("count that must be whole", SYSTEM, 'scale_up_domain: {value: "8"', 'scale_up_domain: {value: "0.5"', 10, 28, "'0.5' must be a whole number"),
    ("direction that does not fit the name", GPU, "direction: total", "direction: per-direction", 13, 16, "direction 'per-direction' does not fit; memory_bandwidth is counted total"),
    ("figure of another kind", GPU, "  memory_bandwidth:\n", "  port_bandwidth:\n", 11, 3, "accelerator records cannot have this figure (it belongs to: fabric)"),
    ("implausibly small", GPU, "value: 3.35 TB/s", "value: 1e-320 B/s", 12, 12, "outside the plausible range of a bandwidth (1 kB/s to 1 EB/s)"),
    ("implausibly large", SYSTEM, "value: 400 Gb/s", "value: 4e21 B/s", 12, 12, "outside the plausible range of a bandwidth"),
    ("review policy beyond a century", GPU, "family: Testarch", "family: Testarch\nreview: {warn_after: {count: 99999999999, period: year}}", 7, 22, "longer than 100 years"),
    ("control character", GPU, "family: Testarch", "family: Test\x07arch", 6, 13, "character U+0007 is not allowed in YAML"),
    ("NUL byte", SOURCE, "schema: 2", "schema: 2\nname: a\x00b", 2, 8, "character U+0000 is not allowed in YAML"),
    ("explicit str tag", GPU, "family: Testarch", "family: !!str Testarch", 6, 9, "tag '!!str' is not allowed"),
    ("explicit map tag", GPU, "uses: {scale_up", "uses: !!map {scale_up", 9, 7, "tag '!!map' is not allowed"),
    # "aliases: [" is 10 characters; the GPU's file comes before the link's.
    ("fullwidth look-alike of another record's alias", LINK, "vendor: Test Vendor\n", "vendor: Test Vendor\naliases: [Ｔｅｓｔ GPU SXM]\n", 6, 11,
     "alias 'Ｔｅｓｔ GPU SXM' is a look-alike of 'Test GPU SXM', which names 'test-gpu'"),
    ("look-alike of another record's id", GPU, "Test GPU SXM]", "Test GPU SXM, ｔｅｓｔ-ｌｉｎｋ]", 8, 45, "alias 'ｔｅｓｔ-ｌｉｎｋ' is a look-alike of 'test-link', which names 'test-link'"),
    ("look-alike of its own alias", GPU, "Test GPU SXM]", "Test GPU SXM, Ｔｅｓｔ GPU SXM]", 8, 45, "alias 'Ｔｅｓｔ GPU SXM' is listed twice (aliases ignore case and look-alike forms)"),
    ("Arabic-Indic digits", GPU, "value: 3.35 TB/s", "value: ٣.٣٥ TB/s", 12, 12, "'٣.٣٥ TB/s': write numbers with the digits 0-9 ('٣' is U+0663)"),
    ("fullwidth digits", GPU, "value: 989 TFLOPS", "value: ９８９ TFLOPS", 33, 12, "'９８９ TFLOPS': write numbers with the digits 0-9 ('９' is U+FF19)"),
    ("Devanagari digits in a date", GPU, "released: 2022-09", "released: २०२२-09", 7, 11, "'२०२२-09': write dates with the digits 0-9 ('२' is U+0968)"),
]


@pytest.mark.parametrize("case, relpath, find, replace, line, column, message", CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_reported_where_it_is_and_leaves_the_database_alone(cli, specs, db, case, relpath, find, replace, line, column, message):
    assert cli("build").exit_code == 0
    before = db.read_bytes()
    path = specs / relpath
    text = path.read_text()
    if find is None:
        path.write_text(replace)
    else:
        assert find in text, case
        path.write_text(text.replace(find, replace, 1))

    for command in ("validate", "build", "list"):
        result = cli(command)
        # validate's findings are its output; for the other commands they are the error that stops them.
        reported = result.stdout if command == "validate" else result.stderr
        assert result.exit_code == 1, (command, result.stderr)
        assert (f"{path}:{line}:{column}: " if line else f"{path}: ") in reported, reported
        assert message in reported
        assert "Traceback" not in result.stderr
    assert db.read_bytes() == before


def _refused(cli, db) -> str:
    """Build, let the test break the specs, then check every command refuses them and leaves the database as it was."""
    before = db.read_bytes()
    for command in ("validate", "build", "list"):
        result = cli(command)
        assert result.exit_code == 1, (command, result.stderr)
        assert "Traceback" not in result.stderr
    assert db.read_bytes() == before
    return result.stderr


def test_non_utf8_bytes_are_located(cli, specs, db):
    assert cli("build").exit_code == 0
    path = specs / GPU
    path.write_bytes(path.read_bytes().replace(b"Testarch", b"Test\xe9arch"))
    assert f"{path}:6:13: not UTF-8: byte 0xe9 cannot be decoded" in _refused(cli, db)


def test_two_records_with_one_id_are_reported(cli, specs, db):
    assert cli("build").exit_code == 0
    copy = specs / "fabric" / "test-link.yaml"
    copy.write_text((specs / LINK).read_text().replace("kind: link", "kind: fabric"))
    # Files are read in path order, so the fabric/ copy takes the id first.
    assert f"{specs / LINK}:2:5: id 'test-link' is already used by {copy}" in _refused(cli, db)


def test_every_problem_is_reported_not_only_the_first(cli, specs):
    gpu = specs / GPU
    gpu.write_text(gpu.read_text().replace("family: Testarch", "famly: Testarch").replace("3.35 TB/s", "3.35 TBs"))
    link = specs / LINK
    link.write_text(link.read_text().replace("status: shipping", "status: rumoured", 1))
    result = cli("validate")
    assert len(result.stdout.splitlines()) == 3, result.stdout


def test_alias_bomb_is_refused_quickly(cli, specs, db):
    assert cli("build").exit_code == 0
    levels = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    levels += [f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}]" for i in range(1, 10)]
    (specs / SOURCE).write_text("\n".join(levels) + "\n")
    assert f"{specs / SOURCE}:2:10: anchors and aliases are not allowed (alias *a0)" in _refused(cli, db)


def test_a_record_outside_a_kind_folder_is_reported(cli, specs, db):
    assert cli("build").exit_code == 0
    (specs / "stray.yaml").write_text((specs / LINK).read_text())
    assert f"{specs / 'stray.yaml'}: a record lives in specs/<kind>/<id>.yaml" in _refused(cli, db)


def test_a_file_of_many_problems_lists_a_hundred_and_counts_the_rest(cli, specs, db):
    """5,000 unknown keys: 5,000 problems in the file, 100 listed, 4,900 counted."""
    assert cli("build").exit_code == 0
    gpu = specs / GPU
    gpu.write_text(gpu.read_text() + "".join(f"unknown_{i}: 1\n" for i in range(5000)))
    result = cli("validate")
    lines = result.stdout.splitlines()
    assert result.exit_code == 1 and len(lines) == 101
    assert f"{gpu}: ... and 4,900 more problems in this file (at most 100 are listed per file)" in lines
    assert sum(f"{gpu}:" in line and "unknown key 'unknown_" in line for line in lines) == 100
    assert "specdb: 5,000 problem(s) in the specs" in result.stderr
    report = json.loads(cli("validate", "--format", "json").stdout)
    assert report["problems_left_out"] == 4900 and len(report["problems"]) == 101
    assert [p for p in report["problems"] if p["code"] == "more-problems"] == [
        {"path": str(gpu), "line": 0, "column": 0, "message": "... and 4,900 more problems in this file (at most 100 are listed per file)",
         "code": "more-problems"}]
    assert "4,900 more problems" in _refused(cli, db)


def test_a_record_file_over_one_mib_is_refused_unread(cli, specs):
    gpu = specs / GPU
    gpu.write_text(gpu.read_text() + "#" * (1024 * 1024))
    result = cli("validate")
    assert result.exit_code == 1 and f"{gpu}: file is 1.0 MB; a record file is at most 1 MiB" in result.stdout


def test_the_plainly_written_name_keeps_it_whichever_file_comes_first(cli, specs):
    """The look-alike is refused, not the name it imitates, even from a file read before the plain one."""
    gpu, link = specs / GPU, specs / LINK
    gpu.write_text(gpu.read_text().replace("Test GPU SXM]", "Test GPU SXM, Ｔｅｓｔ Ｌｉｎｋ Ｘ]"))
    link.write_text(link.read_text().replace("vendor: Test Vendor\n", "vendor: Test Vendor\naliases: [Test Link X]\n"))
    result = cli("validate")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [f"{gpu}:8:45: alias 'Ｔｅｓｔ Ｌｉｎｋ Ｘ' is a look-alike of 'Test Link X', which names 'test-link'"]


@pytest.mark.parametrize("typed", ["Ｔｅｓｔ GPU SXM", "ＴＥＳＴ-ＧＰＵ", "test\uff0dgpu", "Test GPU SXM"])
def test_a_name_typed_in_look_alike_forms_finds_its_record(cli, typed):
    """NFKC: fullwidth letters and the fullwidth hyphen-minus (U+FF0D) are the letters and the hyphen they stand for."""
    shown = cli("show", typed, "-f", "json")
    assert shown.exit_code == 0, shown.stderr
    assert '"id": "test-gpu"' in shown.stdout
    compared = cli("compare", typed, "test-gpu", "-f", "csv")
    assert compared.exit_code == 0 and compared.stdout.startswith("figure,unit,counted,test-gpu,test-gpu / test-gpu\n")


def test_a_link_named_by_its_name_in_fullwidth_letters_is_compared(cli):
    compared = cli("compare", "Ｔｅｓｔ Ｌｉｎｋ ４", "test-pcie", "-f", "csv")
    assert compared.exit_code == 0 and compared.stdout.startswith("figure,unit,counted,test-link,test-pcie,test-pcie / test-link\n")


@pytest.mark.parametrize("option, value, message", [
    ("--since", "٢٠٢٦-٠٧", "'٢٠٢٦-٠٧' is not a date; write YYYY-MM-DD or YYYY-MM"),
    ("--older-than", "٣mo", "'٣mo' is not an age; write a count and d, w, mo or y (90d, 6mo, 1y)"),
])
def test_a_date_or_age_option_in_digits_of_another_script_is_refused(cli, option, value, message):
    result = cli("stale", option, value)
    assert result.exit_code == 2 and result.stderr == f"specdb: {message}\n"


@pytest.mark.parametrize("plain, look_alike", [
    (["query", "figures", "--vendor", "test vendor", "--name", "memory_bandwidth"], ["query", "figures", "--vendor", "Ｔｅｓｔ Ｖｅｎｄｏｒ", "--name", "ｍｅｍｏｒｙ_bandwidth"]),
    (["query", "ratios", "--vendor", "test vendor"], ["query", "ratios", "--vendor", "ＴＥＳＴ ＶＥＮＤＯＲ"]),
    (["history", "test-gpu", "memory_bandwidth"], ["history", "Ｔｅｓｔ GPU SXM", "ｍｅｍｏｒｙ_bandwidth"]),
], ids=["query figures", "query ratios", "history"])
def test_filters_and_figure_names_in_look_alike_forms_give_what_the_plain_ones_give(cli, plain, look_alike):
    expected = cli(*plain, "-f", "csv")
    assert expected.exit_code == 0 and len(expected.stdout.splitlines()) > 1, expected.stderr
    assert cli(*look_alike, "-f", "csv").stdout == expected.stdout
