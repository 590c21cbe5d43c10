"""How specdb check reads the sides of a comparison, runs beside ratings, counts of a system's parts and values a
text sets aside: the shapes outside pages write them in.

Each text is written for its test; expected verdicts follow docs/check.md and the figures in specs/: MI325X 256 GiB
and 6 TB/s, MI300X 192 GiB and 5.3 TB/s, H200 SXM 4.8 TB/s, H100 SXM NVLink 900 GB/s both ways, H20 NVLink 450 GB/s
each way, GB200 NVL72 130 TB/s of NVLink in all and 72 GPUs, AMD Helios 72 GPUs, AMD Infinity Fabric 64 GB/s a link
each way.
"""

import pytest
from conftest import verdicts

from specdb.check.claims import extract
from specdb.check.page import read_page
from specdb.check.verdicts import check_text


def label(finding):
    return f"{finding.record_id}.{finding.figure}"


def test_a_figure_outside_a_comparison_is_not_the_comparands(database):
    found = verdicts("The MI325X is an evolution of the MI300X. It has 256GB of HBM3e versus the MI300X's 192GB.", database)
    assert (found["256GB"].verdict, label(found["256GB"])) == ("ok", "amd-mi325x.memory_capacity")
    assert (found["192GB"].verdict, label(found["192GB"])) == ("ok", "amd-mi300x.memory_capacity")


def test_a_part_named_only_as_the_comparand_gives_no_alarm(database):
    # The card itself is not named: the MI300X's 192 GiB is not its figure, so 256 GB is unmatched, not a mismatch.
    found = verdicts("The new card carries 256 GB of HBM3e, an upgrade to the MI300X.", database)
    assert found["256 GB"].verdict == "unmatched"


def test_the_comparand_is_taken_when_its_figure_agrees(database):
    found = verdicts("The MI325X raises memory bandwidth to 6 TB/s versus 5.3 TB/s on the MI300X.", database)
    assert (found["6 TB/s"].verdict, label(found["6 TB/s"])) == ("ok", "amd-mi325x.memory_bandwidth")
    assert (found["5.3 TB/s"].verdict, label(found["5.3 TB/s"])) == ("ok", "amd-mi300x.memory_bandwidth")


def test_an_increase_over_a_part_names_the_comparand(database):
    found = verdicts("The H200 is the refreshed Hopper.\n- Memory Bandwidth: 4.8 TB/s (a 43% increase over H100).", database)
    assert (found["4.8 TB/s"].verdict, label(found["4.8 TB/s"])) == ("ok", "nvidia-h200-sxm.memory_bandwidth")


def test_two_parts_set_side_by_side_are_both_candidates(database):
    # "HGX H100 vs GB200 NVL72": neither is the other's comparand; the rack's 130 TB/s is the GB200 NVL72's.
    found = verdicts("HGX H100 vs GB200 NVL72: 130 TB/s of NVLink bandwidth in total.", database)
    assert (found["130 TB/s"].verdict, label(found["130 TB/s"])) == ("ok", "nvidia-gb200-nvl72.scale_up_aggregate_bandwidth")


def test_a_run_the_writer_tells_of_is_a_measurement(database):
    # The H20 record holds no measured NVLink rate: a run is unmatched, never a mismatch against the 450 GB/s peak.
    found = verdicts("And we run DeepEP intranode test on H20, the max bandwidth is 337.35 GB/s", database)
    assert found["337.35 GB/s"].verdict == "unmatched"


def test_a_rating_beside_a_run_stays_a_rating(database):
    found = verdicts("I am running the p2p bandwidth test and only achieved 749GB/s out of the marketed theoretical 900GB/s"
                     " on H100 SXM.", database)
    assert found["749GB/s"].verdict == "unmatched"
    assert (found["900GB/s"].verdict, label(found["900GB/s"])) == ("ok", "nvidia-h100-sxm.scale_up_bandwidth")


def test_a_value_the_text_sets_aside_is_no_claim(database):
    found = verdicts("As it turns out, AMD's Helios has 72 GPUs, not 128 GPUs.", database)
    assert (found["72 GPUs"].verdict, label(found["72 GPUs"])) == ("ok", "amd-helios.accelerators")
    assert "128 GPUs" not in found


def test_a_count_of_a_systems_part_is_not_the_systems(database):
    found = verdicts("The GB200 NVL72 holds 36 superchips, each with one Grace CPU and two Blackwell GPUs.", database)
    assert "two Blackwell GPUs" not in found


def test_a_link_direction_header_counts_one_way(database):
    found = verdicts("| Interconnect | Link/<br>Direction<br>P2P (GBps) |\n| :--- | ---: |\n| MI300X | 64 |\n", database, fmt="markdown")
    assert (found["64"].verdict, label(found["64"]), found["64"].basis) == ("ok", "amd-infinity-fabric.per_link_bandwidth", "per-direction")


def test_a_claims_own_counting_word_is_not_taken_by_a_claim_lines_before(database):
    found = check_text("The NVLink 4 total bandwidth is 900 GB/s\nwhich is what the H100 has\n"
                       "The H20 NVLink's bi-directional bandwidth is 900 GB/s.", database, path="page")
    second = [(finding.verdict, label(finding), finding.basis) for finding in found if finding.line == 3]
    assert second == [("ok", "nvidia-h20.scale_up_bandwidth", "bidirectional")]


def test_a_one_way_value_is_judged_against_the_records_own_one_way_figure(database):
    # PCIe 5.0 x16: 128 GB/s both ways, 63.0 GB/s one way after encoding. 64 GB/s is half the first, but the record's
    # own one-way figure is 63.0 and 64 lies outside half a unit of it: a mismatch, not a question of counting.
    found = verdicts("The card sits on PCIe 5.0 x16 at 64 GB/s.", database)["64 GB/s"]
    assert (found.verdict, label(found)) == ("mismatch", "pcie-5.x16_per_direction_bandwidth")


def test_a_sentence_that_counts_one_way_throughout_counts_its_every_figure(database):
    # NVLink 5: 50 GB/s a link each way, 100 both; the sentence says "bidirectional" once and nothing else.
    found = verdicts("NVLink 5 gives 1.8 TB/s of aggregate bandwidth (bidirectional) per GPU over 18 links of 100 GB/s each.",
                     database)["100 GB/s"]
    assert (found.verdict, label(found), found.basis) == ("ok", "nvlink-5.per_link_bandwidth", "bidirectional")


def test_a_sentence_with_both_countings_leaves_an_unstated_one_ambiguous(database):
    found = verdicts("NVLink 5 gives 900 GB/s per direction and 1.8 TB/s bidirectional per GPU; a link carries 100 GB/s.",
                     database)["100 GB/s"]
    assert found.verdict == "ambiguous-basis"


def test_nvlink_c2c_is_a_link_the_data_does_not_hold(database):
    found = verdicts("The Grace CPU shares memory with the two B200 GPUs via NVLink-C2C at 900 GB/s.", database)["900 GB/s"]
    assert found.verdict == "unmatched"


def test_ib_names_the_infiniband_family(database):
    # "IB NDR", "IB HDR" and "IB XDR" are aliases of the three InfiniBand records: "IB" alone names the family, and a
    # family names its generation by agreeing: 50 GB/s is NDR's 400 Gb/s port one way, as held, before HDR's 200 Gb/s
    # port counted both ways.
    found = verdicts("NVLink offers a bandwidth of 160 GB/s, roughly 3.2 times that of IB (50 GB/s).", database)["50 GB/s"]
    assert (found.verdict, label(found)) == ("ok", "infiniband-ndr.port_bandwidth")


def test_a_ratio_that_multiplies_a_named_part_divides_by_its_same_figure(database):
    # TPU v6e 1,638 GB/s of HBM over TPU v5e's 819 GB/s: 2.0. The v5e is the comparand, so 1,640 GB/s is the v6e's.
    found = verdicts("Trillium: 32 GiB HBM at 1,640 GB/s — exactly 2× v5e in capacity and bandwidth.", database)
    assert (found["1,640 GB/s"].verdict, label(found["1,640 GB/s"])) == ("ok", "google-tpu-v6e.memory_bandwidth")
    assert found["2×"].verdict == "ok"
    wrong = verdicts("Trillium: 32 GiB HBM at 1,640 GB/s — 3× v5e in capacity and bandwidth.", database)["3×"]
    assert (wrong.verdict, wrong.expected) == ("mismatch", "2")


def test_a_ratio_at_the_end_of_the_text_multiplies_nothing(database):
    found = verdicts("Trillium has 1,640 GB/s of HBM, v5e 819 GB/s: 2×", database)
    assert found["2×"].verdict == "ok"


def test_a_plain_text_table_without_separators_reads_its_columns_parts(database):
    # The header line names the parts; each row gives one figure per part, in order. GB300 FP8 5 PFLOPS, GB200 5 PFLOPS
    # (so 4.5 is a mismatch), B200 4.5 PFLOPS; GB200 memory 186 GiB (129 GB is a mismatch), B200 180 GiB.
    text = ("Technical Specifications\nFeature GB300 GB200 B200\nFP8 5 PFLOPS 4.5 PFLOPS 4.5 PFLOPS\n"
            "GPU Memory 279 GB HBM3E 129 GB HBM3E 180 GB HBM3E\n")
    found = [(finding.line, finding.claim, finding.verdict, label(finding)) for finding in check_text(text, database, path="page")]
    assert (3, "5 PFLOPS", "ok", "nvidia-gb300.dense_fp8_flops") in found
    assert (3, "4.5 PFLOPS", "mismatch", "nvidia-gb200.dense_fp8_flops") in found
    assert (4, "129 GB", "mismatch", "nvidia-gb200.memory_capacity") in found
    assert (4, "180 GB", "ok", "nvidia-b200.memory_capacity") in found


def test_a_row_with_another_number_of_figures_is_read_as_prose(database):
    # Two figures under three parts: no column is assumed; the row names the H200, whose 141 GiB agrees.
    text = "Spec H100 H200 B200\nThe H200 has 141 GB, up from 80 GB\n"
    found = {finding.claim: finding for finding in check_text(text, database, path="page")}
    assert (found["141 GB"].verdict, label(found["141 GB"])) == ("ok", "nvidia-h200-sxm.memory_capacity")


def test_a_rate_in_bits_is_a_one_way_line_rate(database):
    # TPU v5e ICI: 400 GB/s both ways held, so 200 GB/s = 1600 Gb/s one way.
    found = verdicts("Specification v5e v6e\nInter-chip interconnect (ICI) bandwidth 1600 Gbps 3584 Gbps\n", database)
    assert (found["1600 Gbps"].verdict, label(found["1600 Gbps"]), found["1600 Gbps"].basis) == (
        "ok", "google-tpu-v5e.scale_up_bandwidth", "per-direction")


def test_a_bisection_bandwidth_that_agrees_with_no_figure_is_unmatched(database):
    # HGX H100: 7.2 TB/s of NVLink in all, both ways. 3.6 TB/s of bisection bandwidth is another quantity, while a page
    # that calls the GB200 NVL72's 130 TB/s aggregate its "bisection bandwidth" gives the aggregate.
    found = verdicts("NVIDIA separately specifies 3.6TBps of system bisection bandwidth for the HGX H100.", database)["3.6TBps"]
    assert found.verdict == "unmatched"
    found = verdicts("The GB200 NVL72 gives 130 TB/s of aggregate bisection bandwidth.", database)["130 TB/s"]
    assert (found.verdict, label(found)) == ("ok", "nvidia-gb200-nvl72.scale_up_aggregate_bandwidth")


def test_a_reduction_bandwidth_is_a_kind_no_record_holds(database):
    found = verdicts("The HGX H100's switches give 450GBps of reduction bandwidth.", database)["450GBps"]
    assert found.verdict == "unmatched"


def test_a_rate_in_bits_that_agrees_only_both_ways_is_not_that_figure(database):
    # InfiniBand HDR: 50 Gb/s a lane each way. "100Gbps" would be a lane counted both ways, which a line rate never is:
    # twice the figure, so another quantity (HDR100's port), unmatched.
    found = verdicts("InfiniBand HDR lanes run at 100Gbps.", database)["100Gbps"]
    assert found.verdict == "unmatched"


def test_the_whole_a_share_is_out_of_is_counted_as_the_share(database):
    found = verdicts("I only achieved unidirectional 380GB/s out of 450GB/s theoretical on H100 SXM.", database)["450GB/s"]
    assert (found.verdict, label(found), found.basis) == ("ok", "nvidia-h100-sxm.scale_up_bandwidth", "per-direction")


def test_a_value_the_text_computes_that_agrees_only_counted_the_other_way_is_unmatched(database):
    # NVLink 3: 25 GB/s a link each way; "6.25 x 8 = 50GBps" is the text's arithmetic, not a rating of the link.
    found = verdicts("NVLink 3 pairs run at 6.25 GBps, so a single NVLink 3 link of 8 pairs would reach 6.25 x 8 = 50GBps.", database)["50GBps"]
    assert found.verdict == "unmatched"


def test_a_percentage_increase_is_a_ratio_of_the_parts_it_compares(database):
    # H200 141 GiB over H100 80 GiB: 1.7625, "76% more"; H200 4.8 TB/s over H100 3.35 TB/s: 1.433, "43% higher".
    text = "H200 SXM5: 141 GB HBM3e, 4.8 TB/s memory bandwidth; same Hopper chip as H100 with {} more memory and 43% higher bandwidth."
    found = verdicts(text.format("76%"), database)
    assert (found["76%"].verdict, found["43%"].verdict) == ("ok", "ok")
    wrong = verdicts(text.format("50%"), database)["50%"]
    assert (wrong.verdict, wrong.expected) == ("mismatch", "76%")


def test_a_percentage_gain_with_no_kind_named_compares_the_figure_before_it(database):
    # MI325X 6 TB/s over MI300X 5.3 TB/s: 1.132, "13%".
    found = verdicts("The MI325X has 256GB HBM3e (33% more than MI300X) and 6 TB/s bandwidth (13% gain over MI300X).", database)
    assert (found["33%"].verdict, found["13%"].verdict) == ("ok", "ok")


def test_a_percentage_increase_of_a_kind_no_part_holds_is_not_judged(database):
    found = verdicts("The H200 gives 45% more inference throughput than the H100.", database)
    assert "45%" not in found


def test_a_rate_per_second_written_out_is_read(database):
    found = verdicts("The MI325X has local memory bandwidths hitting 6TB/second.", database)["6TB/second"]
    assert (found.verdict, label(found)) == ("ok", "amd-mi325x.memory_bandwidth")


def test_a_part_name_after_a_part_is_the_next_column_not_a_variant(database):
    # "DGX H100 NVL72": the HGX H100 (7.2 TB/s of NVLink in all) and an NVL72 rack (the GB200 NVL72's 130 TB/s).
    text = "DGX H100 vs GB200 NVL72:\nDGX H100 NVL72\nNVLink BW: 7.2 TB/s 130 TB/s\n"
    found = verdicts(text, database)
    assert (found["7.2 TB/s"].verdict, label(found["7.2 TB/s"])) == ("ok", "nvidia-hgx-h100.scale_up_aggregate_bandwidth")
    assert (found["130 TB/s"].verdict, label(found["130 TB/s"])) == ("ok", "nvidia-gb200-nvl72.scale_up_aggregate_bandwidth")


def test_prose_under_a_heading_of_two_parts_is_not_a_table_row(database):
    # "Hopper vs Blackwell" names two families; the sentence under it is prose, and its 141 GB is the H200's.
    text = "Architecture: Hopper vs Blackwell\nThe H200 replaces the H100's 80 GB of HBM2e with 141 GB of HBM3e.\n"
    found = verdicts(text, database)
    assert (found["141 GB"].verdict, label(found["141 GB"])) == ("ok", "nvidia-h200-sxm.memory_capacity")


@pytest.mark.parametrize("written", ["25 GByte/s", "25 Gbytes/s", "25 GBytes/s"])
def test_bytes_spelt_out_are_bytes(database, written):
    (claim,) = extract(read_page(f"A sub-link carries {written}.", "text"))
    assert (claim.text, claim.value, claim.dimension) == (written, 25e9, "bandwidth")


def test_a_sizes_bytes_spelt_out_are_bytes(database):
    (claim,) = extract(read_page("The MI325X was announced with 288Gbytes of HBM3E.", "text"))
    assert (claim.value, claim.dimension) == (288e9, "size")


def test_a_data_rate_in_bytes_is_a_links_not_a_memory_pins(database):
    # NVLink 3: 25 GB/s a link each way, 50 GB/s both: "the total data rate for a link" adds the two directions.
    text = "NVLink 3 links have two sub-links. The total data rate for a sub-link is 25 GByte/s and the total data rate for a link is 50 GByte/s."
    found = verdicts(text, database)
    assert (found["25 GByte/s"].verdict, label(found["25 GByte/s"])) == ("ok", "nvlink-3.per_link_bandwidth")
    assert (found["50 GByte/s"].verdict, found["50 GByte/s"].basis) == ("ok", "bidirectional")


def test_a_value_the_page_counted_before_keeps_its_counting(database):
    # PCIe 5.0 x16: 63.0 GB/s one way. The table counts it one way; prose repeating it unsaid is counted the same.
    text = ("| Interconnect | Uni-dir. (GBps) |\n| :--- | ---: |\n| PCIe 5 | 63 |\n\n"
            "The host-to-device copy reaches 88% of the 63GBps PCIe 5 row above.\n")
    found = verdicts(text, database, fmt="markdown")["63GBps"]
    assert (found.verdict, label(found), found.basis) == ("ok", "pcie-5.x16_per_direction_bandwidth", "per-direction")
    unsaid = verdicts("The host-to-device copy reaches 88% of PCIe 5's 63GBps.", database)["63GBps"]
    assert unsaid.verdict == "ambiguous-basis"


def test_a_vendors_achieves_is_a_rating_not_a_run(database):
    found = verdicts("The H100 SXM achieves 3.35 TB/s of HBM3 bandwidth.", database)["3.35 TB/s"]
    assert (found.verdict, label(found)) == ("ok", "nvidia-h100-sxm.memory_bandwidth")


def test_a_ratio_before_a_part_that_names_another_kind_is_not_judged(database):
    # 8 TB/s is the B200's memory bandwidth; "2.5× H100's FP8 compute" is not a ratio of it (8 / 3.35 = 2.39).
    found = verdicts("The B200 has 8 TB/s of HBM, 2.5× H100's FP8 compute.", database)
    assert "2.5×" not in found


def test_a_rate_in_bits_near_the_one_way_figure_is_a_mismatch(database):
    # H100 SXM NVLink: 900 GB/s both ways, 3600 Gb/s each way. "3000 Gbps", one way by convention, is near that: a wrong
    # value, not another quantity (it is far from the 7200 Gb/s both ways).
    found = verdicts("Each H100 SXM has 3000 Gbps of NVLink bandwidth.", database)["3000 Gbps"]
    assert (found.verdict, label(found)) == ("mismatch", "nvidia-h100-sxm.scale_up_bandwidth")
