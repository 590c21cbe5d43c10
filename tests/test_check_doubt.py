"""An alarm is raised only where the page gives no reason to doubt it (docs/check.md, "When an alarm is held back").

Expected verdicts come from the rules in docs/check.md and the figures in specs/: TPU v4 HBM 1,200 GB/s, TPU v5e 819
GB/s; H100 NVLink 4 900 GB/s both ways, 450 one way; H100 HBM 3.35 TB/s, A100 80 GB 2,039 GB/s; GB200 NVL72 72 GPUs.
"""

from conftest import verdicts


def test_a_value_of_another_part_the_page_names_is_that_parts_not_an_error_of_the_nearest(database):
    found = verdicts("Older chips came first: TPU v4. Within half a unit, 819 GB/s is what we read.\n\n"
                     "Later pages cover the TPU v5e and the TPU v5p.", database)
    assert (found["819 GB/s"].verdict, found["819 GB/s"].record_id) == ("ok", "google-tpu-v5e")


def test_a_part_named_in_the_claims_sentence_keeps_its_alarm_whatever_other_parts_hold(database):
    found = verdicts("The TPU v5e is the smaller chip. For the TPU v4, 819 GB/s of HBM bandwidth is quoted.", database)
    assert (found["819 GB/s"].verdict, found["819 GB/s"].record_id) == ("mismatch", "google-tpu-v4")


def test_a_value_a_run_should_reach_below_the_rating_is_no_mismatch(database):
    found = verdicts("On H100 you should reach about 310 GB/s over NVLink.", database)
    assert found["310 GB/s"].verdict == "unmatched"


def test_a_value_above_the_rating_in_words_of_a_run_is_still_a_mismatch(database):
    found = verdicts("On H100 you should reach 1,200 GB/s over NVLink.", database)
    assert found["1,200 GB/s"].verdict == "mismatch"


def test_a_rated_value_in_words_of_a_run_is_judged_as_a_rating(database):
    found = verdicts("We only got 310 GB/s, out of the theoretical 600 GB/s of NVLink on the H100.", database)
    assert found["600 GB/s"].verdict == "mismatch"  # 900 GB/s both ways: the words call it the rating


def test_a_count_bounded_rather_than_stated_raises_no_alarm(database):
    found = verdicts("The GB200 NVL72 rack joins a fabric scaling beyond 10,000 GPUs.", database)
    assert all(finding.verdict not in ("mismatch", "stale") for finding in found.values())


def test_a_count_stated_of_the_system_is_still_judged(database):
    found = verdicts("The GB200 NVL72 rack holds 64 GPUs.", database)
    assert found["64 GPUs"].verdict == "mismatch"


def test_a_multiple_of_training_speed_divides_no_figures(database):
    found = verdicts("The H100 has 3.35 TB/s of HBM and the A100 2 TB/s, so training runs 5x faster.", database)
    assert "5x" not in found


def test_a_multiple_of_figures_is_still_judged(database):
    found = verdicts("The H100 has 3.35 TB/s of HBM and the A100 2 TB/s, 5x more memory bandwidth.", database)
    assert found["5x"].verdict == "mismatch"  # 3.35 / 2.039 = 1.64
