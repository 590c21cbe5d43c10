"""specdb import nccl-tests: a run's log becomes a valid measured-figures record that calibrates the estimate."""

import datetime as dt

import pytest

from specdb.collective.estimate import estimate
from specdb.db.access import open_fresh

HEADER = """\
# nccl-tests version 2.13.9 nccl-headers=21805 nccl-library=21805
# Collective test starting: all_reduce_perf
# nThread 1 nGpus 1 minBytes 1048576 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0
#
# Using devices
#  Rank  0 Group  0 Pid  11 on node01 device  0 [0x18] Test GPU
#  Rank  1 Group  0 Pid  12 on node01 device  1 [0x2a] Test GPU
#  Rank  2 Group  0 Pid  13 on node01 device  2 [0x3a] Test GPU
#  Rank  3 Group  0 Pid  14 on node01 device  3 [0x5d] Test GPU
NCCL version 2.18.5+cuda12.2
#
#                                                              out-of-place                       in-place
#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
"""
SMALL = "     1048576        262144     float     sum      -1    61.20   17.13   25.70      0    60.10   17.45   26.17      0\n"
LARGE = "  8589934592    2147483648     float     sum      -1    34000  252.64  378.96      0    33900  253.39  380.08      0\n"


@pytest.fixture
def log(tmp_path):
    path = tmp_path / "all_reduce.log"
    path.write_text(HEADER + SMALL + LARGE + "# Avg bus bandwidth    : 202.7\n")
    return path


def test_a_run_becomes_a_valid_record_that_calibrates_the_platform(cli, log, specs, db):
    result = cli("import", "nccl-tests", str(log), "--platform", "test-system", "--algorithm", "ring", "--date", "2026-11-30")
    assert result.exit_code == 0, result.stderr
    record = specs / "cluster" / "test-system-nccl-tests-2026-11-30.yaml"
    assert str(record) in result.stdout and (specs / "source" / "test-system-nccl-tests-2026-11-30-log.yaml").exists()
    text = record.read_text()
    assert "value: 380.08 GB/s" in text and "value: 26.17 GB/s" in text  # the in-place busbw column
    assert "library: \"NCCL 2.18.5+cuda12.2\"" in text and "accelerators: 4" in text
    assert cli("validate").exit_code == 0
    # The 4-GPU ring at 8 GiB ran at 380.08 GB/s busbw: its time is 2 x 3/4 x 8 GiB / 380.08 GB/s.
    connection = open_fresh(db, specs)
    result = estimate(connection, "all-reduce", platform="test-system", size_bytes=8 * 2**30, accelerators=4, algorithm="ring")
    # (The 1 MiB run's latency, 6 steps of about 9 us, adds under 0.2 %.)
    assert result.seconds == pytest.approx(2 * 3 / 4 * 8 * 2**30 / 380.08e9, rel=2e-3)
    assert "test-system-nccl-tests-2026-11-30.measured_all_reduce_busbw_4gpu_ring_8589934592b" in result.expected[0].efficiency_source
    # The 1 MiB row sets the latency per step: its measured time, less the transfer at that efficiency, over 6 ring steps.
    small = estimate(connection, "all-reduce", platform="test-system", size_bytes=2**20, accelerators=4, algorithm="ring")
    assert small.seconds == pytest.approx(2 * 3 / 4 * 2**20 / 26.17e9, rel=1e-6)


def test_a_run_over_two_hosts_records_the_domains_it_spanned(cli, tmp_path):
    path = tmp_path / "two-hosts.log"
    path.write_text(HEADER.replace("on node01 device  2", "on node02 device  0").replace("on node01 device  3", "on node02 device  1") + LARGE)
    assert cli("import", "nccl-tests", str(path), "--platform", "test-system", "--algorithm", "ring", "--id", "two-hosts").exit_code == 0
    assert "domains: 2" in (cli.specs / "cluster" / "two-hosts.yaml").read_text()
    assert cli("validate").exit_code == 0


@pytest.mark.parametrize("content, message", [
    ("# only comments\n", "no nccl-tests result table found"),
    (HEADER + "     1048576   262144   float   sum   -1   61.20   oops\n", "all_reduce.log:15: not an nccl-tests result row"),
    (HEADER.replace("all_reduce_perf", "all_gather_perf") + LARGE, "is a all-gather run, not all-reduce"),
    (HEADER.replace("#  Rank", "#  Host") + LARGE, "the number of GPUs is not in the log"),
])
def test_bad_logs_are_usage_errors_that_name_the_file(cli, tmp_path, content, message):
    path = tmp_path / "all_reduce.log"
    path.write_text(content)
    result = cli("import", "nccl-tests", str(path), "--platform", "test-system", "--algorithm", "ring")
    assert result.exit_code == 2 and message in result.stderr
    assert not (cli.specs / "cluster").exists()


def test_refusals(cli, log, tmp_path):
    missing = cli("import", "nccl-tests", str(tmp_path / "none.log"), "--platform", "test-system", "--algorithm", "ring")
    assert missing.exit_code == 2 and "none.log: no such file" in missing.stderr
    not_a_platform = cli("import", "nccl-tests", str(log), "--platform", "test-gpu", "--algorithm", "ring")
    assert not_a_platform.exit_code == 2
    bad_id = cli("import", "nccl-tests", str(log), "--platform", "test-system", "--algorithm", "ring", "--id", "Bad Id")
    assert bad_id.exit_code == 2 and "is not a record id" in bad_id.stderr
    first = cli("import", "nccl-tests", str(log), "--platform", "test-system", "--algorithm", "ring", "--id", "run")
    again = cli("import", "nccl-tests", str(log), "--platform", "test-system", "--algorithm", "ring", "--id", "run")
    assert first.exit_code == 0 and again.exit_code == 2 and "exists already" in again.stderr


RUN = (
    "  {name}:\n"
    "    value: 380 GB/s\n"
    "    direction: per-direction\n"
    "    scope: per-accelerator\n"
    "    status: {status}\n"
    "    as_of: 2026-11-30\n"
    "    reviewed: 2026-11-30\n"
    "    method: all_reduce_perf\n"
    "    collective: {collective}\n"
    "    sources: [{{ref: test-datasheet}}]\n"
)
GOOD = "{operation: all-reduce, accelerators: 4, size: 8 GiB, algorithm: ring, library: NCCL 2.18.5}"


@pytest.mark.parametrize("name, status, collective, message", [
    ("measured_all_reduce_busbw_4gpu", "shipping", GOOD, "'collective' belongs to a measured bandwidth"),
    ("measured_all_reduce_busbw_4gpu", "measured", GOOD.replace("8 GiB", "8 GB/s"), "size '8 GB/s' is not a data size"),
    ("measured_all_reduce_busbw_4gpu", "measured", GOOD.replace("ring", "butterfly"), "algorithm"),
    ("measured_all_reduce_busbw_4gpu", "measured", GOOD.replace("library: NCCL 2.18.5}", "library: NCCL 2.18.5, domains: 5}"), "4 accelerators cannot span 5 domains"),
    ("measured_allreduce_bandwidth", "measured", GOOD, "unknown figure name 'measured_allreduce_bandwidth'"),
])
def test_a_malformed_collective_run_is_a_located_error(cli, name, status, collective, message):
    system = cli.specs / "system" / "test-system.yaml"
    system.write_text(system.read_text() + RUN.format(name=name, status=status, collective=collective))
    result = cli("validate")
    assert result.exit_code == 1 and message in result.stdout
    assert "test-system.yaml:" in result.stdout


def rows_of(*sizes_and_busbw):
    """Result rows as nccl-tests prints them, in-place busbw second to last."""
    return "".join(f"  {size}  {size // 4}  float  sum  -1  10.0  1.00  2.00  0  10.0  1.00  {busbw}  0\n" for size, busbw in sizes_and_busbw)


@pytest.mark.parametrize("rows, chosen", [
    # The largest size, and the small size nearest 1 MiB: 1.5 MiB is 0.5 MiB away, 256 KiB 0.75 MiB.
    ([(262144, "5.00"), (1572864, "9.00"), (8589934592, "380.00")], [8589934592, 1572864]),
    # 256 MiB is a large message: nothing small to take.
    ([(268435456, "300.00"), (8589934592, "380.00")], [8589934592]),
    # A row whose busbw rounds to zero says nothing of the latency; half a GB/s does.
    ([(1048576, "0.00"), (4194304, "10.00"), (8589934592, "380.00")], [8589934592, 4194304]),
    ([(1048576, "0.50"), (8589934592, "380.00")], [8589934592, 1048576]),
])
def test_the_rows_kept_are_the_largest_and_the_nearest_to_1_mib(rows, chosen):
    from specdb.collective.nccltests import chosen_rows, parse

    assert [row.size for row in chosen_rows(parse(rows_of(*rows), "run.log"))] == chosen


def test_the_record_says_what_ran_on_which_hosts(log):
    from specdb.collective.nccltests import parse, records

    # The header is 14 lines, the 1 MiB row line 15 and the 8 GiB row line 16.
    two_hosts = log.read_text().replace("Pid  13 on node01", "Pid  13 on node02").replace("Pid  14 on node01", "Pid  14 on node02")
    text = records(parse(two_hosts, "all_reduce.log"), log_name="all_reduce.log", platform="test-system", record_id="run-1",
                   operation="all-reduce", algorithm="ring", accelerators=4, date="2026-12-01")["cluster"]
    assert ('method: "nccl-tests all_reduce_perf on 4 Test GPU GPUs on 2 host(s) with algorithm ring; '
            'in-place busbw at 8589934592 bytes (all_reduce.log, line 16)"') in text
    assert 'library: "NCCL 2.18.5+cuda12.2", domains: 2}' in text


def test_a_log_without_ranks_says_neither_hosts_nor_devices():
    from specdb.collective.nccltests import parse, records

    text = records(parse(rows_of((8589934592, "380.00")), "bare.log"), log_name="bare.log", platform="test-system", record_id="run-2",
                   operation="all-gather", algorithm="ring", accelerators=8, date="2026-12-01")["cluster"]
    assert 'method: "nccl-tests all_gather_perf on 8 GPUs with algorithm ring; in-place busbw at 8589934592 bytes (bare.log, line 1)"' in text
    assert 'library: "NCCL, version not in the log"}' in text


def _files(folder):
    return sorted(path.relative_to(folder).as_posix() for path in folder.rglob("*"))


def _import(cli, log, *extra):
    return cli("import", "nccl-tests", str(log), "--platform", "test-system", "--algorithm", "ring", "--date", "2026-11-30", *extra)


NEXT_YEAR = (dt.date.today() + dt.timedelta(days=366)).isoformat()


@pytest.mark.parametrize("rows, extra, message", [
    # The largest row is what the record keeps: a busbw of zero, or of 10^30 GB/s (beyond 1 EB/s), is no figure.
    (rows_of((8589934592, "0.00")), (), "'0 GB/s' must be greater than zero"),
    (rows_of((8589934592, "1e30")), (), "'1e+30 GB/s' is outside the plausible range of a bandwidth"),
    # 2 x 10^21 bytes is 2 ZB, over the 1 ZB bound on a size.
    (rows_of((2 * 10**21, "380.00")), (), "'2000000000000000000000 B' is outside the plausible range of a size"),
    (rows_of((8589934592, "380.00")), ("--date", NEXT_YEAR), f"'{NEXT_YEAR}' is in the future"),
    # test-gpu is the accelerator's id.
    (rows_of((8589934592, "380.00")), ("--id", "test-gpu"), "id 'test-gpu' is already used by"),
], ids=["zero busbw", "busbw of 1e30 GB/s", "size of 2 ZB", "date in the future", "id taken"])
def test_records_that_would_not_validate_are_refused_and_nothing_is_written(cli, specs, tmp_path, rows, extra, message):
    log = tmp_path / "all_reduce.log"
    log.write_text(HEADER + rows)
    before = _files(specs)
    result = _import(cli, log, *extra)
    assert result.exit_code == 2, result.output
    assert "all_reduce.log: the records made from it do not validate with the specs; nothing was written" in result.stderr
    assert message in result.stderr
    assert _files(specs) == before
    assert cli("validate").exit_code == 0


@pytest.mark.parametrize("busbw", ["-5.0", "1e999"])
def test_a_negative_or_infinite_bandwidth_is_refused_at_its_line(cli, specs, tmp_path, busbw):
    log = tmp_path / "all_reduce.log"
    log.write_text(HEADER + rows_of((8589934592, busbw)))
    before = _files(specs)
    result = _import(cli, log)
    # The header is 14 lines: the row is line 15.
    assert result.exit_code == 2 and "all_reduce.log:15: a bandwidth that is negative or not finite is not a measurement" in result.stderr
    assert _files(specs) == before


def test_an_id_with_a_trailing_newline_is_not_an_id(cli, specs, log):
    before = _files(specs)
    result = _import(cli, log, "--id", "run\n")
    assert result.exit_code == 2 and "--id 'run\\n' is not a record id" in result.stderr
    assert _files(specs) == before


SECOND_RUN = HEADER + SMALL + LARGE


@pytest.mark.parametrize("content, message", [
    # Two whole runs: the second header's "Collective test starting" is its line 2, after 16 lines of the first run.
    (SECOND_RUN + SECOND_RUN, "all_reduce.log:18: a second 'Collective test starting' line"),
    # The second run's header without its first two lines (the banner among them): it starts on line 17 with the
    # header's line 3, so its rank 0 (the header's line 6) is on line 20.
    (SECOND_RUN + HEADER.split("\n", 2)[2] + LARGE, "all_reduce.log:20: rank 0 is listed a second time"),
    # Only the rows again: the 1 MiB row first seen on line 15.
    (SECOND_RUN + SMALL + LARGE, "all_reduce.log:17: a second row for 1048576 bytes (the first is line 15)"),
])
def test_a_log_of_two_runs_is_refused_at_the_line_where_the_second_begins(cli, specs, tmp_path, content, message):
    log = tmp_path / "all_reduce.log"
    log.write_text(content)
    before = _files(specs)
    result = _import(cli, log)
    assert result.exit_code == 2 and message in result.stderr and "the log holds more than one run" in result.stderr
    assert _files(specs) == before


@pytest.mark.parametrize("option, message", [
    (("--gpus=-3",), "--gpus -3: a collective run has at least 2 GPUs"),
    (("--gpus", "0"), "--gpus 0: a collective run has at least 2 GPUs"),
    (("--gpus", "1"), "--gpus 1: a collective run has at least 2 GPUs"),
])
def test_too_few_gpus_is_a_usage_error_that_names_the_option(cli, specs, log, option, message):
    before = _files(specs)
    result = _import(cli, log, *option)
    assert result.exit_code == 2 and message in result.stderr
    assert _files(specs) == before


def test_a_huge_gpu_count_is_refused_by_validation(cli, specs, tmp_path):
    log = tmp_path / "all_reduce.log"
    log.write_text(HEADER.replace("#  Rank", "#  Host") + LARGE)  # no rank lines: the count is --gpus alone
    result = _import(cli, log, "--gpus", str(10**30))
    assert result.exit_code == 2 and "is outside the plausible range of a count" in result.stderr
    assert not (specs / "cluster").exists()


@pytest.mark.parametrize("option", ["--id", "--date"])
def test_an_empty_id_or_date_is_a_usage_error_not_the_default(cli, specs, log, option):
    result = cli("import", "nccl-tests", str(log), "--platform", "test-system", "--algorithm", "ring", option, "")
    assert result.exit_code == 2 and f"{option} is empty" in result.stderr
    assert not (specs / "cluster").exists()


def test_an_empty_platform_is_a_usage_error(cli, specs, log):
    # A second platform, so that an empty name cannot stand for the only one.
    (specs / "system" / "test-system-2.yaml").write_text((specs / "system" / "test-system.yaml").read_text().replace("id: test-system", "id: test-system-2"))
    result = cli("import", "nccl-tests", str(log), "-p", "", "--algorithm", "ring")
    assert result.exit_code == 2 and "--platform is empty" in result.stderr
    assert not (specs / "cluster").exists()


def test_without_a_specs_folder_named_nothing_is_written_into_the_bundled_data(log, tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from specdb.cli import app
    from specdb.resources import bundled_specs

    monkeypatch.chdir(tmp_path)
    before = _files(bundled_specs())
    result = CliRunner().invoke(app, ["import", "nccl-tests", str(log), "--platform", "test-system", "--algorithm", "ring"])
    assert result.exit_code == 2 and "no specs folder to write into" in result.stderr
    assert _files(bundled_specs()) == before


def test_a_record_folder_that_cannot_be_made_leaves_no_file(cli, specs, log):
    # A file where the cluster folder belongs: the source record, written first, must not stay on its own.
    (specs / "cluster").write_text("not a folder\n")
    result = _import(cli, log, "--id", "run")
    assert result.exit_code == 3 and f"{specs / 'cluster' / 'run.yaml'}: cannot write" in result.stderr
    assert not (specs / "source" / "run-log.yaml").exists()
    assert [path.name for path in (specs / "source").iterdir()] == ["test-datasheet.yaml"]


def test_a_record_that_appears_meanwhile_is_kept_and_the_import_leaves_nothing(cli, specs, log, monkeypatch):
    import os

    link = os.link

    def link_then_taken(source, target):
        if str(target).endswith("cluster/run.yaml"):  # another process wrote it between the check and the link
            raise FileExistsError(17, "File exists")
        link(source, target)

    monkeypatch.setattr(os, "link", link_then_taken)
    (specs / "cluster").mkdir()
    result = _import(cli, log, "--id", "run")
    assert result.exit_code == 2 and "cluster/run.yaml exists already" in result.stderr
    assert _files(specs / "source") == ["test-datasheet.yaml"] and _files(specs / "cluster") == []


def test_a_full_disk_leaves_no_file(cli, specs, log, monkeypatch):
    import errno
    import os

    def full(descriptor):
        raise OSError(errno.ENOSPC, "No space left on device")

    assert cli("build").exit_code == 0  # the database is in place: only the import writes
    monkeypatch.setattr(os, "fsync", full)
    before = _files(specs)
    result = _import(cli, log, "--id", "run")
    assert result.exit_code == 3 and "cannot write (No space left on device)" in result.stderr
    assert _files(specs) == before


@pytest.mark.parametrize("path, message", [
    ("/dev/zero", "/dev/zero: larger than 64 MiB, more than the output of one run"),
    # "# nccl-tests " is 13 bytes: the 14th, on line 1, is the first that is not UTF-8.
    ("not-utf8.log", "not-utf8.log:1:14: not UTF-8: byte 0xff cannot be decoded"),
    (".", ": is a folder; name the log to import"),
])
def test_what_is_not_a_readable_log_is_refused_without_reading_it_all(cli, specs, tmp_path, path, message):
    (tmp_path / "not-utf8.log").write_bytes(b"# nccl-tests \xff\xfe\n")
    result = _import(cli, path if path.startswith("/") else str(tmp_path / path))
    assert result.exit_code == 2 and message in result.stderr
    assert not (specs / "cluster").exists()


def test_a_killed_imports_temporaries_are_removed_by_the_next(cli, specs, log):
    import subprocess
    import sys

    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (specs / "cluster").mkdir()
    # What an import killed after writing its temporaries leaves: hidden, and named with its process id.
    left = specs / "cluster" / f".run.yaml.{dead.pid}.0123abcd.tmp"
    left.write_text("half")
    assert _import(cli, log, "--id", "run").exit_code == 0
    assert not left.exists() and _files(specs / "cluster") == ["run.yaml"]


@pytest.mark.parametrize("name", [b"run\xff.log", b"run\n1.log"], ids=["not UTF-8", "a newline"])
def test_a_log_whose_name_the_records_cannot_quote_is_refused(cli, specs, log, tmp_path, name):
    import os

    renamed = os.path.join(os.fsencode(tmp_path), name)
    os.rename(log, renamed)
    before = _files(specs)
    result = _import(cli, os.fsdecode(renamed))
    assert result.exit_code == 2 and "the records quote the log's file name, and this one is not printable UTF-8 text" in result.stderr
    assert _files(specs) == before


def test_a_gpu_count_the_log_contradicts_is_refused(cli, specs, log):
    # The log lists ranks 0 to 3.
    result = _import(cli, log, "--gpus", "8")
    assert result.exit_code == 2 and "--gpus 8, but" in result.stderr and "all_reduce.log lists 4 ranks" in result.stderr
    assert not (specs / "cluster").exists()
    assert _import(cli, log, "--gpus", "4").exit_code == 0


def test_a_log_of_one_rank_is_no_collective_run(cli, specs, tmp_path):
    path = tmp_path / "all_reduce.log"
    path.write_text("".join(line for line in HEADER.splitlines(keepends=True) if "Rank  1" not in line and "Rank  2" not in line and "Rank  3" not in line) + LARGE)
    result = _import(cli, path)
    assert result.exit_code == 2 and "the log lists 1 rank; a collective run has at least 2 GPUs" in result.stderr
    assert not (specs / "cluster").exists()


@pytest.mark.skipif(__import__("os").geteuid() == 0, reason="permissions do not bind root")
def test_an_unwritable_record_folder_is_a_clear_error(cli, specs, log):
    (specs / "cluster").mkdir()
    (specs / "cluster").chmod(0o500)
    try:
        result = _import(cli, log, "--id", "run")
    finally:
        (specs / "cluster").chmod(0o700)
    assert result.exit_code == 3 and "cannot write (Permission denied)" in result.stderr
    assert _files(specs / "cluster") == [] and _files(specs / "source") == ["test-datasheet.yaml"]
