"""Readings of specdb check added after the ninth held-out set.

Expected verdicts come from specs/ and the docs/check.md verdict table: a bandwidth, compute rate, power or latency the
page ties to no part the data holds is `unmatched` (it fails only `--strict`), while sizes, counts and ratios with no
part stay silent, being as often a model's, a job's or a cluster's.
"""

from specdb.check.verdicts import check_text


def _findings(text, database):
    return [(finding.claim, finding.verdict, finding.record_id) for finding in check_text(text, database, path="page.txt")]


def test_a_rate_with_no_part_is_reported_unmatched(database):
    found = _findings("On our cluster the all-reduce reached 231 GB/s of bus bandwidth.", database)
    assert found == [("231 GB/s", "unmatched", None)]


def test_compute_power_and_latency_with_no_part_are_reported_unmatched(database):
    found = _findings("The card peaks at 400 TFLOPS. It draws 700 W. A hop adds 2 µs.", database)
    assert found == [("400 TFLOPS", "unmatched", None), ("700 W", "unmatched", None), ("2 µs", "unmatched", None)]


def test_sizes_counts_and_durations_with_no_part_stay_silent(database):
    assert _findings("The step took 120 ms, each message is 17 MB, and the job ran on 512 GPUs, 3x faster.", database) == []
