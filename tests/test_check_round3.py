"""Rules of specdb check from the third round on real pages: counting stated in words the checker ties to a figure,
measured bus bandwidth, tables and rows that name their parts elsewhere, ratios and neighbouring parts.

Each text is written for its test; expected verdicts come from the rules in docs/check.md and the figures in specs/
(NVLink 4: 900 GB/s per H100 both ways, 450 GB/s one way; NVLink 3: 600 GB/s per A100 both ways; PCIe 4.0 x16:
31.5 GB/s per direction, 32 its listed alternative; HGX H100: a measured 8-GPU NVLS all-reduce bus bandwidth of
478.87 GB/s).
"""

import pytest

from specdb.check.verdicts import check_text


def by_place(text, database, fmt="text"):
    return {(finding.line, finding.claim): finding for finding in check_text(text, database, path="page", fmt=fmt)}


def test_chinese_one_way_in_a_sentence_counts_the_figure_one_way(database):
    found = by_place("A100 NVLink 3.0 单向 300GB/s，H100 NVLink 4.0 单向 450GB/s。", database)
    assert found[1, "300GB/s"].verdict == "ok" and found[1, "300GB/s"].basis == "per-direction"
    assert found[1, "450GB/s"].verdict == "ok" and found[1, "450GB/s"].basis == "per-direction"


def test_chinese_one_way_in_a_column_header_counts_its_cells_one_way(database):
    table = ("<table><tr><th>互联方式</th><th>带宽（单向）</th></tr>"
             "\n<tr><td>NVLink 4.0</td><td>450 GB/s（H100）</td></tr></table>")
    found = by_place(table, database, fmt="html")
    assert found[2, "450 GB/s"].verdict == "ok" and found[2, "450 GB/s"].basis == "per-direction"


def test_chinese_both_ways_counts_the_figure_both_ways(database):
    found = by_place("H100 NVLink 4.0 双向 450GB/s。", database)
    assert found[1, "450GB/s"].verdict == "mismatch"  # 900 GB/s both ways


def test_a_value_repeated_in_its_paragraph_keeps_the_counting_first_stated(database):
    text = ("Given that NVLink4 unidirectional bandwidth is 450 GB/s, and the wall time is t. The measured transfer should"
            " then be comparable to 450GB/s.\n\nElsewhere, H100 NVLink runs at 450GB/s.\n")
    found = by_place(text, database)
    assert found[1, "450 GB/s"].verdict == "ok"
    assert found[1, "450GB/s"].verdict == "ok" and found[1, "450GB/s"].basis == "per-direction"
    # Another paragraph does not inherit it: there the counting is unsaid.
    assert found[3, "450GB/s"].verdict == "ambiguous-basis"


@pytest.mark.parametrize("sentence", [
    "On 8 H100 GPUs the NVLS allreduce bus bandwidth is 480GB/s.",
    "With NVLS on H100, all_reduce_perf shows 480GB/s busbw.",
])
def test_a_bus_bandwidth_on_a_gpu_is_a_run_on_the_machine_built_of_it(database, sentence):
    finding = by_place(sentence, database)[1, "480GB/s"]
    # Not a mismatch against NVLink's 900 GB/s peak: the HGX H100 (a machine of H100s) holds the run, 478.87 GB/s.
    assert finding.verdict == "ok"
    assert (finding.record_id, finding.figure) == ("nvidia-hgx-h100", "measured_all_reduce_busbw_8gpu_nvls_8gib")


def test_a_bus_bandwidth_no_run_agrees_with_is_no_error_in_the_peak(database):
    finding = by_place("On H100 the allreduce bus bandwidth is 555GB/s.", database)[1, "555GB/s"]
    assert finding.verdict == "unmatched"


NVLINK_TABLE = """NVLink carries 25GB/s each way per link; you can send a total of 50GB/s over both directions.

| NVLink Gen | NVLink Bandwidth (GB/s, full-duplex) | Per GPU (GB/s full-duplex) |
| :---: | :---: | :---: |
| **3.0** | 25 | 300 |
| **4.0** | 25 | 450 |
"""


def test_a_version_under_a_family_header_names_that_generation(database):
    found = by_place(NVLINK_TABLE, database, fmt="markdown")
    # NVLink 3.0: 600 GB/s per A100 both ways, 300 one way; NVLink 4.0: 900 both ways, 450 one way.
    assert found[5, "300"].verdict == "ok" and found[5, "300"].record_id == "nvlink-3"
    assert found[6, "450"].verdict == "ok" and found[6, "450"].record_id == "nvlink-4"


def test_a_column_header_says_how_its_cells_count_before_the_caption_does(database):
    found = by_place(NVLINK_TABLE, database, fmt="markdown")
    # The paragraph above the table names both counts; the header, nearer, says full-duplex: one way.
    assert found[5, "300"].basis == "per-direction" and found[6, "450"].basis == "per-direction"


def test_the_second_value_of_a_pair_is_the_other_part_named_before(database):
    # GB300 FP4 dense 15 PFLOPS, B200 9 PFLOPS (specs/).
    found = by_place("Differences between GB300 and B200\n\nCompute: GB300 dense FP4 is higher (15 vs 9 PFLOPS).", database)
    assert found[3, "9 PFLOPS"].verdict == "ok" and found[3, "9 PFLOPS"].record_id == "nvidia-b200"


def test_the_second_value_of_a_pair_no_named_part_holds_is_no_error_of_the_first(database):
    found = by_place("Compute: GB300 dense FP4 is higher (15 vs 12 PFLOPS).", database)
    assert found[1, "12 PFLOPS"].verdict == "unmatched"


def ratios(text, database):
    return {finding.claim: finding for finding in check_text(text, database, path="page") if finding.claim.endswith(("x", "X", "×"))}


def test_a_ratio_whose_nearest_figure_no_record_holds_is_not_judged_on_figures_further_back(database):
    # MI300X 5.3 TB/s and H100 3.35 TB/s of HBM are held; FP16 is not held for either, so "5X" divides unheld figures.
    text = ("The MI300X has 5.3 TB/s of HBM bandwidth against 3.35 TB/s on the H100.\n\nThe MI300X reaches 1.31 petaflops"
            " at FP16, while the H100 achieves 989.5 teraflops. The MI300X performs up to 5X faster in certain operations.")
    assert "5X" not in ratios(text, database)


def test_a_ratio_is_not_judged_between_a_figure_and_the_same_value_held_for_its_link(database):
    text = "The H100 has 900 GB/s of NVLink bandwidth, and NVLink 4 carries 900 GB/s per GPU, enabling 3x faster training."
    assert "3x" not in ratios(text, database)


def test_a_ratio_is_not_judged_between_a_bandwidth_and_a_capacity(database):
    # TPU v5e: 16 GB of HBM, 819 GB/s; 819 / 16 = 51, which no "higher bandwidth" states.
    text = "The TPU v5e has 16 GB of HBM. Its VMEM bandwidth is around 22x higher than HBM bandwidth."
    assert "22x" not in ratios(text, database)


def test_a_part_named_as_what_a_figure_doubles_is_no_part_of_the_figure(database):
    # The H200 holds 141 GB; the H100 80 GB. The H100 is named only as the comparand.
    found = by_place("The NVIDIA H200 is a Hopper GPU.\nMemory: 141GB HBM3e (double the memory capacity of H100)", database)
    assert found[2, "141GB"].verdict == "ok" and found[2, "141GB"].record_id == "nvidia-h200-sxm"


def test_a_part_the_page_s_part_succeeds_is_no_part_of_its_figures(database):
    # Gaudi 3: 128 GB of HBM; the Gaudi 2 holds 96 GB.
    text = ("Intel revealed the Gaudi 3 accelerator. The new chip, which succeeds the Gaudi 2, combines two dies and"
            " includes 128 GB of HBM2e memory.")
    found = by_place(text, database)
    assert found[1, "128 GB"].verdict == "ok" and found[1, "128 GB"].record_id == "intel-gaudi-3"


def test_chinese_commas_and_full_stops_part_one_figure_from_the_next(database):
    # A100 80GB SXM: 2,039 GB/s ("2TB/s" within rounding); H100 SXM: 3.35 TB/s.
    found = by_place("高带宽显存。A100 80GB 版带宽 2TB/s，H100 80GB 版 3.35TB/s。", database)
    assert found[1, "2TB/s"].verdict == "ok" and found[1, "2TB/s"].record_id.startswith("nvidia-a100")
    assert found[1, "3.35TB/s"].verdict == "ok" and found[1, "3.35TB/s"].record_id == "nvidia-h100-sxm"


def test_a_markdown_row_s_notes_state_the_counting_of_its_figures(database):
    # PCIe 5.0 x16: 128 GB/s both ways; "~64 GB/s" in a row noted bidirectional is half of it.
    table = ("| Link | Bandwidth | Notes |\n| --- | --- | --- |\n| PCIe Gen5 x16 | ~64 GB/s | CPU to GPU, bidirectional |\n"
             "| PCIe Gen5 x16 | ~64 GB/s | bidirectional or per direction |\n")
    found = by_place(table, database, fmt="markdown")
    assert found[3, "64 GB/s"].verdict == "mismatch" and found[3, "64 GB/s"].figure == "x16_bidirectional_bandwidth"
    assert found[4, "64 GB/s"].figure != "x16_bidirectional_bandwidth"  # a row stating both counts says neither


def test_a_ratio_called_rough_agrees_within_the_rounding_cap(database):
    # NVLink 5: 1.8 TB/s per GPU both ways; PCIe 4.0 x16 32 GB/s one way; 1800 / 32 = 56.25, 2.2% from 55.
    text = "A x16 slot at Gen4 unidirectional is 32 GB/s, vs NVLink 5's per-GPU bandwidth of 1.8 TB/s. Roughly 55× slower."
    assert ratios(text, database)["55×"].verdict == "mixed-basis"
    exact = "A x16 slot at Gen4 unidirectional is 32 GB/s, vs NVLink 5's per-GPU bandwidth of 1.8 TB/s. It is 55× slower."
    assert ratios(exact, database)["55×"].verdict == "mismatch"


def test_a_header_naming_a_gpu_s_rate_heads_rates_not_a_count_of_gpus(database):
    table = ("| Node Type | GPUs per node | GPU egress bandwidth |\n| :-: | :-: | :-: |\n| GB200 NVL72 | 72 | 900e9 |\n")
    found = by_place(table, database, fmt="markdown")
    assert found[3, "72"].verdict == "ok"
    assert (3, "900e9") not in found or found[3, "900e9"].figure != "accelerators"


def test_a_part_named_in_another_cell_of_the_row_is_the_row_s(database):
    # The paragraph above names the H100 (NVLink 4: 25 GB/s per link one way); the row is of InfiniBand, which the table
    # does not say the generation of: its 50 is no NVLink figure.
    table = ("Within an H100 node each NVLink link carries 25GB/s full-duplex.\n\n"
             "| Level | Switch Type | GPU-to-GPU Bandwidth (GB/s, full-duplex) |\n| :-: | :-: | :-: |\n"
             "| Node | NVLink 4 | 25 |\n| Leaf | IB | 50 |\n")
    found = by_place(table, database, fmt="markdown")
    assert found[5, "25"].verdict == "ok" and found[5, "25"].record_id == "nvlink-4"
    assert found[6, "50"].verdict == "unmatched" and found[6, "50"].record_id is None  # not the H100's or NVLink's
