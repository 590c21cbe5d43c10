"""Rules of specdb check for the shapes real pages write figures in: what a page measures, parts the data does not
hold, values the text computes, multipliers that are counts, and version numbers that are not counts.

Each text is written for its test; expected verdicts come from the rules in docs/check.md and the figures in specs/
(PCIe 5.0 x16: 63 GB/s per direction, 128 GB/s both ways; H100 SXM: NVLink 900 GB/s both ways, 3.35 TB/s HBM).
"""

import pytest
from conftest import verdicts

from specdb.check.claims import extract
from specdb.check.page import read_page
from specdb.check.verdicts import check_text


def test_a_figure_a_tool_reports_is_a_run_not_a_peak(database):
    found = verdicts("On our H100 box each GPU sits on a PCIe 5.0 x16 link, and bandwidthTest shows 51.2 GB/s"
                     " host to device.", database)
    # Not a mismatch against PCIe's 63 GB/s: the H100 record holds no such measurement, so it is unmatched.
    assert found["51.2 GB/s"].verdict == "unmatched"


def test_an_actual_throughput_is_not_judged_against_the_link_it_crosses(database):
    found = verdicts("PCIe 5.0 x16 is rated 128 GB/s bidirectional, so the actual throughput is perhaps 20-30 GB/s.", database)
    assert found["128 GB/s"].verdict == "ok"
    assert found["20-30 GB/s"].verdict == "unmatched"


def test_the_words_of_a_run_in_another_clause_leave_a_rated_figure_rated(database):
    found = verdicts("PCIe 5.0 x16 carries 63 GB/s per direction; in practice we see less.", database)
    assert found["63 GB/s"].verdict == "ok"


@pytest.mark.parametrize("row", ["GeForce RTX 4090", "RTX 4090", "Radeon RX 7900 XTX", "RTX A6000"])
def test_a_graphics_card_in_a_row_label_is_hardware_the_data_does_not_hold(database, row):
    table = f"| GPU | Memory (GB) | Bandwidth |\n| --- | --- | --- |\n| H100 SXM | 80 | 3.35 TB/s |\n| {row} | 24 | 1 TB/s |\n"
    found = check_text(table, database, path="page.md", fmt="markdown")
    by_line = {(finding.line, finding.claim): finding.verdict for finding in found}
    assert by_line[3, "80"] == "ok" and by_line[3, "3.35 TB/s"] == "ok"
    assert by_line[4, "24"] == "unmatched" and by_line[4, "1 TB/s"] == "unmatched"


@pytest.mark.parametrize("written", ["4x 50Gbps", "2× 400 GB/s", "8x 80GB"])
def test_a_multiplier_before_a_figure_counts_parts_and_is_no_ratio(written):
    found = extract(read_page(f"One HDR port aggregates {written} lanes.", "text"))
    assert [claim.kind for claim in found] == ["quantity"] and found[0].text == written.split(maxsplit=1)[1]


def test_a_multiplier_before_a_word_is_still_a_ratio():
    (claim,) = extract(read_page("NDR is 2x the HDR rate.", "text"))
    assert (claim.kind, claim.value) == ("ratio", 2)


def test_a_ratio_in_a_table_cell_is_not_judged_against_figures_of_other_rows(database):
    table = ("| Part | NVLink | Switches |\n| --- | --- | --- |\n| H100 SXM | 900 GB/s | 4× |\n"
             "| A100 SXM 40GB | 600 GB/s | 2× |\n")
    found = {finding.claim: finding.verdict for finding in check_text(table, database, path="page.md", fmt="markdown")}
    # 900 ÷ 600 = 1.5: no cell says so, and "4×" and "2×" are not read as that ratio.
    assert "4×" not in found and "2×" not in found
    assert found["900 GB/s"] == "ok" and found["600 GB/s"] == "ok"  # NVLink's per-GPU figures, quoted both ways


def test_a_ratio_that_names_compute_divides_no_bandwidths(database):
    found = verdicts("The H200 reads HBM at 4.8 TB/s and the H100 at 3.35 TB/s. The B200 has 5× more FP8 compute.", database)
    # 4.8 ÷ 3.35 = 1.43 is a ratio of memory bandwidths; the 5× speaks of compute, whose figures the text does not give.
    assert "5×" not in found
    assert found["4.8 TB/s"].verdict == "ok" and found["3.35 TB/s"].verdict == "ok"


def test_a_ratio_with_nothing_named_still_divides_the_last_two_figures(database):
    found = verdicts("The H200 reads HBM at 4.8 TB/s and the H100 at 3.35 TB/s. That is 1.4x.", database)
    assert found["1.4x"].verdict == "ok"


def test_a_family_with_no_generation_named_is_judged_only_by_agreeing(database):
    found = verdicts("The cards talk over NVLink at 160 GB/s. Fourth-generation NVLink gives each GPU 1000 GB/s bidirectional."
                     " NVLink gives each GPU 900 GB/s bidirectional.", database)
    # 160 GB/s is no NVLink generation's figure, and the text says no generation: nothing to call it a mismatch of.
    assert found["160 GB/s"].verdict == "unmatched" and "NVLink" in found["160 GB/s"].note
    # With the generation named, a figure off by 11% is a mismatch; one agreeing with a generation is that generation's.
    assert (found["1000 GB/s"].verdict, found["1000 GB/s"].record_id) == ("mismatch", "nvlink-4")
    assert (found["900 GB/s"].verdict, found["900 GB/s"].record_id) == ("ok", "nvlink-4")


@pytest.mark.parametrize("text, counts", [
    ("The flagship is a CDNA 3 GPU with 192 GB of HBM3.", []),
    ("Both are RDNA 4 GPUs.", []),
    ("An NVIDIA 8-GPU server.", ["8-GPU"]),
    ("The HGX board holds 8 GPUs.", ["8 GPUs"]),
])
def test_a_number_after_an_architecture_name_is_its_version_not_a_count(text, counts):
    assert [claim.text for claim in extract(read_page(text, "text")) if claim.dimension == "count"] == counts


def test_a_value_the_text_computes_is_judged_but_never_an_alarm(database):
    found = check_text("On the H100, NVLink 4 adds 18 links at 26.5 GB/s = 477 GB/s. On the H100, NVLink 4 gives 18 links x 25 GB/s"
                       " = 450 GB/s per direction per GPU. InfiniBand NDR runs at 400 Gb/s = 50 GB/s per direction.", database, path="page")
    by_claim = {(finding.column, finding.claim): finding.verdict for finding in found}
    # 18 x 26.5 = 477 is the text's arithmetic on a rate no record holds; 18 x 25 = 450 is NVLink 4's per direction.
    assert by_claim[52, "477 GB/s"] == "unmatched" and by_claim[111, "450 GB/s"] == "ok"
    # 400 Gb/s is 50 GB/s: the same figure in another unit is restated, not computed, and judged as any figure.
    assert [verdict for (_, claim), verdict in by_claim.items() if claim == "50 GB/s"] == ["ok"]


def test_a_switch_chip_of_a_generation_is_a_part_the_data_does_not_hold(database):
    table = ("| Chip | Ports | Port BW | Total | Used in |\n| --- | --- | --- | --- | --- |\n"
             "| NVSwitch 3.0 | 64 | 50 GB/s | 3.2 TB/s | HGX H100 |\n")
    found = {finding.claim: finding.verdict for finding in check_text(table, database, path="page.md", fmt="markdown")}
    # The chip's port and total rates are no GPU's and no HGX board's: unmatched, not a mismatch of the HGX H100's 7.2 TB/s.
    assert found["50 GB/s"] == "unmatched" and found["3.2 TB/s"] == "unmatched"
    # Its 64 ports are a count of a part the data lacks: no finding at all.
    assert "64" not in found


@pytest.mark.parametrize("text, count", [
    ("The V100 has six links.", "six links"), ("An H800 board carries 8 GPUs.", "8 GPUs"),
    ("Each NVSwitch 2.0 chip has 36 ports.", "36 ports"),
])
def test_a_count_of_a_part_the_data_does_not_hold_makes_no_finding(database, text, count):
    assert count not in verdicts(text, database)


@pytest.mark.parametrize("text, claim, verdict, record", [
    # NDR's own record is named "InfiniBand NDR (400 Gb/s)": NDR400 is that part; no HDR record is named with 100.
    ("Each node has an InfiniBand NDR400 adapter at 400 Gb/s.", "400 Gb/s", "ok", "infiniband-ndr"),
    ("Our HDR100 ports run 100 Gb/s.", "100 Gb/s", "unmatched", None),
    # "Gen4" is the fourth NVLink as "NVLink 4" is.
    ("The H200 has NVLink Gen4 at 900 GB/s per GPU.", "900 GB/s", "ok", "nvlink-4"),
    # SXM5 is the SXM form of a part whose names say only SXM.
    ("The B200 SXM5 reads HBM at 7.7 TB/s.", "7.7 TB/s", "ok", "nvidia-b200"),
])
def test_model_names_written_with_a_speed_a_generation_or_a_socket_revision(database, text, claim, verdict, record):
    found = verdicts(text, database)[claim]
    assert (found.verdict, found.record_id) == (verdict, record)


def test_a_named_parts_listed_alternative_is_meant_before_a_neighbours_figure(database):
    # The B200 lists 8 TB/s as an alternative of its 7.7 TB/s; the GB200, which shares NVLink 5 with it, holds 8 TB/s.
    found = verdicts("B200 and NVLink 5: 8 TB/s of HBM.", database)["8 TB/s"]
    assert (found.verdict, found.record_id) == ("mismatch", "nvidia-b200")


@pytest.mark.parametrize("text, written", [("A DGX H100 (8× H100) node.", "8× H100"), ("On a node of 8x H200 we ran it.", "8x H200")])
def test_a_multiplication_sign_before_a_product_counts_that_many(database, text, written):
    (claim,) = [claim for claim in extract(read_page(text, "text")) if claim.dimension == "count"]
    assert (claim.text, claim.value, claim.noun) == (written, 8, "accelerators")
    found = verdicts(text, database)[written]
    assert (found.verdict, found.figure) == ("ok", "accelerators")  # an HGX or DGX board holds 8


def test_a_ratio_against_the_previous_generation_divides_by_the_family_generation_before(database):
    found = check_text("Fifth-generation NVLink gives each GPU 1.8 TB/s bidirectional, 2x more than the previous generation."
                       " Fifth-generation NVLink gives each GPU 1.8 TB/s bidirectional. That is 3x the previous generation.",
                       database, path="page")
    ratios = [(finding.claim, finding.verdict, finding.figure) for finding in found if finding.claim.endswith("x")]
    # NVLink 5 gives 1.8 TB/s per GPU and NVLink 4 900 GB/s, both counted both ways: 2 times.
    division = "nvlink-5.per_accelerator_bandwidth ÷ nvlink-4.per_accelerator_bandwidth"
    assert ratios == [("2x", "ok", division), ("3x", "mismatch", division)]


@pytest.mark.parametrize("text, claim, verdict", [
    # B200 4.5 PFLOPS dense FP8 ÷ H100 1,979 TFLOPS = 2.27; BF16 2.25 PFLOPS ÷ 989 TFLOPS = 2.27.
    ("The B200 has 2.3× the FP8 compute of H100.", "2.3×", "ok"),
    ("The B200 delivers roughly 2–3× the compute of H100.", "2–3×", "ok"),
    ("The B200 has 4× the FP8 compute of H100.", "4×", "mismatch"),
    # H200 141 GiB ÷ H100 80 GiB = 1.76.
    ("The H200 carries 1.8× the memory of the H100.", "1.8×", "ok"),
])
def test_a_ratio_to_a_named_parts_figure_of_a_named_kind(database, text, claim, verdict):
    found = verdicts(text, database)[claim]
    assert found.verdict == verdict


def test_a_ratio_to_a_part_the_data_does_not_hold_is_not_judged(database):
    assert "2×" not in verdicts("The B200 has 2× the compute of the V100.", database)


def test_a_count_of_gpus_in_a_domain_is_the_domain_figure(database):
    found = check_text("In a DGX H100 the NVLink domain is 8 GPUs. A DGX H100 holds 8 GPUs.", database, path="page")
    # Both are 8, but the first is the GPUs NVLink joins and the second the GPUs in the box.
    assert [(finding.verdict, finding.record_id, finding.figure) for finding in found] == [
        ("ok", "nvidia-hgx-h100", "scale_up_domain"), ("ok", "nvidia-hgx-h100", "accelerators")]


def test_a_domain_of_in_switch_reduction_is_that_figure_when_the_text_says_so(database):
    found = check_text("In a DGX H100, NVLink SHARP reduces across a domain of 8 GPUs.", database, path="page")
    # HGX H100's switches reduce across its 8 GPUs (in_network_reduction_domain = 8, the H100 whitepaper).
    assert [(finding.verdict, finding.record_id, finding.figure) for finding in found] == [
        ("ok", "nvidia-hgx-h100", "in_network_reduction_domain")]


def test_a_lines_label_before_its_colon_counts_every_figure_after_it(database):
    by_line = {finding.line: finding for finding in check_text(
        "> PCIe 5.0 x16 (Unidirectional) Bandwidth: 63 GB/s; twice that both ways.\nPCIe 5.0 x16 Bandwidth: 63 GB/s\n",
        database, path="page")}
    # 63 GB/s is PCIe 5.0 x16 one way: "Unidirectional" in the label says so; with no such label, the counting is unsaid.
    assert (by_line[1].verdict, by_line[1].basis) == ("ok", "per-direction")
    assert by_line[2].verdict == "ambiguous-basis"


def test_the_value_a_figure_was_changed_to_is_the_new_parts(database):
    # The H200 refreshes the H100 (80 GiB, 3.35 TB/s) with 141 GiB and 4.8 TB/s; the page names the H200 most.
    page = ("The H200 is the H100 with HBM3e.\n\nA refresh of the H100, lifting memory from 80 GB to 141 GB and bandwidth to"
            " 4.8 TB/s.\n\nThe H200 ships now, and the H200 is sold by every cloud.\n")
    found = verdicts(page, database)
    assert (found["80 GB"].verdict, found["80 GB"].record_id) == ("ok", "nvidia-h100-sxm")
    assert (found["141 GB"].verdict, found["141 GB"].record_id) == ("ok", "nvidia-h200-sxm")
    assert (found["4.8 TB/s"].verdict, found["4.8 TB/s"].record_id) == ("ok", "nvidia-h200-sxm")


def test_a_changed_value_no_part_the_page_names_holds_is_unmatched(database):
    found = verdicts("A refresh of the H100, lifting memory from 80 GB to 100 GB.", database)
    assert found["80 GB"].verdict == "ok" and found["100 GB"].verdict == "unmatched"


def test_a_row_label_naming_a_part_that_holds_no_such_figure_makes_its_cell_unmatched(database):
    # The L40S record holds no memory capacity (specs/accelerator/nvidia-l40s.yaml); the L4's 24 GiB is another part's.
    table = "| GPU | Memory bandwidth | Notes |\n| --- | --- | --- |\n| L4 | 300 GB/s | 24 GB |\n| L40S | 864 GB/s | 48 GB |\n"
    found = {(finding.line, finding.claim): finding for finding in check_text(table, database, path="page.md", fmt="markdown")}
    assert found[4, "864 GB/s"].verdict == "ok"
    assert (found[4, "48 GB"].verdict, found[4, "48 GB"].record_id) == ("unmatched", None)
    assert "nvidia-l40s" in found[4, "48 GB"].note


def test_pcie_in_a_parts_name_is_its_variant_not_the_host_link(database):
    table = "| GPU | Memory | Notes |\n| --- | --- | --- |\n| H100 PCIe | HBM2e | 80 GB |\n"
    (finding,) = check_text(table, database, path="page.md", fmt="markdown")
    assert (finding.verdict, finding.record_id, finding.figure) == ("ok", "nvidia-h100-pcie", "memory_capacity")


def test_a_count_a_family_names_is_of_no_member_unless_one_holds_it(database):
    found = verdicts("A superchip pairs 1 Grace CPU with 2 Blackwell GPUs. An HGX board carries 8 Blackwell GPUs.", database)
    # No Blackwell record holds 2 GPUs; the HGX B200 holds 8.
    assert "2 Blackwell GPUs" not in found
    assert (found["8 Blackwell GPUs"].verdict, found["8 Blackwell GPUs"].record_id) == ("ok", "nvidia-hgx-b200")


@pytest.mark.parametrize("unknown", ["?", "N/A.", "TBD?"])
def test_an_unknown_cell_before_a_figure_leaves_the_figure_its_rows_part(database, unknown):
    # B200: 180 GB shipping, 192 GB the announced alternative (specs/accelerator/nvidia-b200.yaml).
    table = f"| GPU | Memory bandwidth | Capacity |\n|---|---|---|\n| B200 | {unknown} | 192 GB |\n| B200 | {unknown} | 180 GB |\n"
    found = {(finding.line, finding.claim): finding for finding in check_text(table, database, path="page.md", fmt="markdown")}
    assert found[3, "192 GB"].verdict == "mismatch" and found[3, "192 GB"].record_id == "nvidia-b200"
    assert found[4, "180 GB"].verdict == "ok"


def test_an_announced_capacity_in_the_vendors_gb_is_named_as_the_alternative_it_is(database):
    found = verdicts("The B200 has 192 GB of HBM3e.", database)
    assert found["192 GB"].verdict == "mismatch"
    assert "192 GiB is an alternative value" in found["192 GB"].note


@pytest.mark.parametrize("header, written", [("HBM bandwidth (bytes/s)", "3.35e12"), ("Memory bandwidth, Bytes/sec", "3.35E+12"),
                                             ("HBM (bytes per second)", "3350000000000")])
def test_a_number_in_scientific_notation_under_a_header_spelling_bytes_out(database, header, written):
    # H100 SXM: 3.35 TB/s of HBM = 3.35e12 bytes per second; H200: 4.8 TB/s, not 4.1.
    table = f"| Device | {header} |\n|---|---|\n| H100 SXM | {written} |\n| H200 | 4.1e12 |\n"
    found = {finding.claim: finding for finding in check_text(table, database, path="page.md", fmt="markdown")}
    assert found[written].verdict == "ok" and found[written].record_id == "nvidia-h100-sxm"
    assert found["4.1e12"].verdict == "mismatch" and found["4.1e12"].record_id == "nvidia-h200-sxm"


@pytest.mark.parametrize("text", ["Gaudi 3 has 24 x 200 GbE RoCE ports.", "Gaudi 3 has twenty-four 200 GbE ports.",
                                  "Each Gaudi 3 brings 24 ports, each 200 Gb/s Ethernet, so 200 Gbps ports in all."])
def test_a_speed_before_a_noun_is_not_a_count_of_it(database, text):
    # Gaudi 3 holds 24 RoCE ports (specs/accelerator/intel-gaudi-3.yaml): 200 is each port's speed, never a count.
    assert all(finding.verdict != "mismatch" for finding in check_text(text, database, path="page", fmt="text"))
    assert not any(claim.kind == "quantity" and claim.dimension == "count" and claim.value == 200
                   for claim in extract(read_page(text, "text")))


@pytest.mark.parametrize("text, claim, verdict, record", [
    # A100 SXM 80GB: 2,039 GB/s; A100 PCIe 80GB: 1,935 GB/s; A100 SXM 40GB: 1,555 GB/s; H100 SXM: 3.35 TB/s.
    ("The H100 offers 3,350 GB/sec of memory bandwidth and the A100 2 TB/sec.", "2 TB/sec", "ok", "nvidia-a100-sxm-80gb"),
    ("The H100 offers 3,350 GB/sec of memory bandwidth and the A100 1.2 TB/sec.", "1.2 TB/sec", "unmatched", None),
    ("The H100 offers 3,350 GB/sec of memory bandwidth and the A100 1.555 TB/sec.", "1.555 TB/sec", "ok", "nvidia-a100-sxm-40gb"),
])
def test_a_name_of_several_variants_beside_a_figure_is_meant_before_a_part_further_off(database, text, claim, verdict, record):
    found = verdicts(text, database)
    assert found["3,350 GB/sec"].verdict == "ok"
    assert (found[claim].verdict, found[claim].record_id if verdict == "ok" else None) == (verdict, record)


def test_a_version_in_a_row_label_is_no_figure_of_its_column(database):
    # The "Link" header counts links; "3.0" in "NVLink 3.0 (A100)" is the link's version, not 3 links (NVLink 3: 12).
    table = "| Link | Bandwidth (per GPU) |\n|---|---|\n| NVLink 3.0 (A100) | ~600 GB/s |\n"
    found = {finding.claim: finding for finding in check_text(table, database, path="page.md", fmt="markdown")}
    assert "3.0" not in found
    assert found["~600 GB/s"].verdict == "ok" if "~600 GB/s" in found else found["600 GB/s"].verdict == "ok"


@pytest.mark.parametrize("words", ["of egress", "of ingress"])
def test_egress_and_ingress_count_one_direction(database, words):
    # H100 SXM NVLink: 900 GB/s both ways, 450 GB/s each way.
    found = verdicts(f"Each H100 has 450 GB/s {words} over NVLink.", database)
    assert found["450 GB/s"].verdict == "ok" and found["450 GB/s"].basis == "per-direction"


def test_the_value_a_part_changed_from_is_not_its_figure(database):
    # MI325X: 256 GB (specs/accelerator/amd-mi325x.yaml); the 192 GB it replaced is the MI300X's, not an error.
    found = verdicts("The MI325X lifts memory from 192 GB to 256 GB.", database)
    assert found["192 GB"].verdict == "unmatched" and found["256 GB"].verdict == "ok"
    assert verdicts("The MI325X has 192 GB, up to 256 GB later.", database)["192 GB"].verdict == "mismatch"


def test_a_finding_with_no_value_held_shows_none_rather_than_the_word_none(database):
    found = verdicts("NVIDIA raised B200 memory bandwidth from 8 TB/s to 9 TB/s.", database)
    assert "= None" not in str(found["9 TB/s"])
