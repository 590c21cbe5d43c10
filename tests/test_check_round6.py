"""Readings of specdb check added after the ninth held-out set.

Expected verdicts come from specs/ and the docs/check.md verdict table: a bandwidth, compute rate, power or latency the
page ties to no part the data holds is `unmatched` (it fails only `--strict`), while sizes, counts and ratios with no
part stay silent, being as often a model's, a job's or a cluster's.
"""

from specdb.check.page import read_page
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


def test_compute_units_as_vendors_and_ml_writing_spell_them(database):
    # The TPU v6e holds 918 TFLOPS dense BF16 and 1836 TOPS dense INT8; the B200 9 PFLOPS dense FP4 and 2.25 PFLOPS BF16.
    found = {claim: (verdict, record) for claim, verdict, record in _findings(
        "The TPU v6e gives 918 BF16 TFLOPS and 1836 TOPs. The B200 gives 9 PetaFLOPS of dense FP4 and 2.25 PF of BF16.",
        database)}
    assert found == {"918 BF16 TFLOPS": ("ok", "google-tpu-v6e"), "1836 TOPs": ("ok", "google-tpu-v6e"),
                     "9 PetaFLOPS": ("ok", "nvidia-b200"), "2.25 PF": ("ok", "nvidia-b200")}


def test_a_format_between_a_rate_and_its_unit_is_the_rate_s(database):
    # 1979 TFLOPS is the H100 SXM's dense FP8 rate and twice its dense BF16 (989): written as BF16, it is no BF16 figure.
    found = {claim: (verdict, figure) for claim, verdict, figure in (
        (finding.claim, finding.verdict, finding.figure) for finding in check_text(
            "The H100 SXM gives 1979 FP8 TFLOPS.", database, path="page.txt"))}
    assert found == {"1979 FP8 TFLOPS": ("ok", "dense_fp8_flops")}


def test_a_memory_word_in_the_sentence_does_not_make_a_power_a_memory_figure(database):
    # The Gaudi 2 holds 96 GiB and 600 W (Intel's Hot Chips 2024 table).
    found = _findings("The Gaudi 2 has 96 GB of HBM and draws 600 W.", database)
    assert found == [("96 GB", "ok", "intel-gaudi-2"), ("600 W", "ok", "intel-gaudi-2")]


def test_a_format_a_word_or_two_after_a_rate_is_the_rate_s(database):
    # The Gaudi 2 holds 432 TFLOPS dense BF16 and no FP8 rate; without the rule, 432 took the FP8 named before it.
    found = _findings("O Gaudi 2 oferece 835 TFLOPS na matriz FP8, 432 TFLOPS na matriz BF16.", database)
    assert found == [("835 TFLOPS", "unmatched", None), ("432 TFLOPS", "ok", "intel-gaudi-2")]


def test_a_numbered_link_label_scopes_its_figure_to_one_link(database):
    # nvidia-smi nvlink --status lists each link's rate: NVLink 3 holds 25 GB/s per link and direction (the HGX A100's
    # scale-out NIC is 25 GB/s too, which the words "Link 0" rule out).
    found = check_text("GPU 0: NVIDIA A100-SXM4-80GB\n\t Link 0: 25 GB/s\n\t Link 1: 25 GB/s\n", database, path="smi.txt")
    assert [(f.line, f.verdict, f.record_id, f.figure) for f in found] == [
        (2, "ok", "nvlink-3", "per_link_bandwidth"), (3, "ok", "nvlink-3", "per_link_bandwidth")]


def test_a_quantity_run_into_the_word_before_it_is_read(database):
    # Table cells copied as text: "Memory Bandwidth5.3TB/s" on an MI300X page (5.3 TB/s held); a format run into its
    # number ("bf16") and a name ending in digits are not quantities.
    found = _findings("AMD MI300X\nMemory Bandwidth5.3TB/s\n", database)
    assert found == [("5.3TB/s", "ok", "amd-mi300x")]
    assert _findings("Peak bf16 TFLOPS (dense) of the part, see SXM5 docs.", database) == []


def test_a_table_whose_rows_have_no_outer_pipes(database):
    # GitHub reads a row without outer pipes as a row: H200 SXM 141 GiB and 4.8 TB/s, H100 SXM 80 GiB and 3.35 TB/s. Each
    # row's figure is its own part's, though the row runs on into the next one's label.
    table = "accelerator | memory (GB) | memory bandwidth (TB/s)\n|---|---|---|\nNVIDIA H200 SXM | 141 | 4.8\nNVIDIA H100 SXM | 80 | 3.35\n"
    found = [(f.line, f.claim, f.verdict, f.record_id) for f in check_text(table, database, path="t.md")]
    assert found == [(3, "141", "ok", "nvidia-h200-sxm"), (3, "4.8", "ok", "nvidia-h200-sxm"),
                     (4, "80", "ok", "nvidia-h100-sxm"), (4, "3.35", "ok", "nvidia-h100-sxm")]


def test_a_column_named_in_snake_case_gives_its_unit(database):
    # Data files name columns "memory_capacity_gb", "memory_bandwidth_tb_s", "fp8_dense_tflops": the H100 SXM holds
    # 80 GiB, 3.35 TB/s and 1979 TFLOPS dense FP8.
    table = ("| accelerator | memory_capacity_gb | memory_bandwidth_tb_s | fp8_dense_tflops |\n|---|---|---|---|\n"
             "| NVIDIA H100 SXM | 80 | 3.35 | 1979 |\n")
    found = [(f.claim, f.verdict, f.record_id, f.figure) for f in check_text(table, database, path="t.md")]
    assert found == [("80", "ok", "nvidia-h100-sxm", "memory_capacity"), ("3.35", "ok", "nvidia-h100-sxm", "memory_bandwidth"),
                     ("1979", "ok", "nvidia-h100-sxm", "dense_fp8_flops")]


def test_sparsity_denied_or_named_as_a_feature_leaves_the_dense_rate(database):
    # The H100 SXM holds 989 TFLOPS dense BF16 and no sparse rate.
    for text in ("Without 2:4 structured sparsity, the H100 SXM gives 989 TFLOPS of BF16.",
                 "The H100 SXM, with support for 2:4 sparsity, gives 989 TFLOPS of BF16.",
                 "That is not a sparsity mixup: the H100 SXM gives 989 TFLOPS of BF16."):
        assert _findings(text, database) == [("989 TFLOPS", "ok", "nvidia-h100-sxm")], text
    found = _findings("With 2:4 structured sparsity the H100 SXM gives 1979 TFLOPS of BF16.", database)
    assert [(claim, verdict) for claim, verdict, _ in found] == [("1979 TFLOPS", "unmatched")]


def test_a_model_s_point_release_is_no_cluster_and_a_count_of_parts_no_link_figure(database):
    # "Llama 3.1" is a model, not the Llama 3 training cluster (24,576 GPUs); two H100s are no NVLink 4 domain (256 GPUs).
    assert _findings("Llama 3.1 70B runs across two B200s.", database) == []
    assert [claim for claim, _, _ in _findings("NVLink 4 links the two H100s of our box.", database)] == []


def test_a_share_is_a_link_s_efficiency_only_where_the_sentence_names_the_link(database):
    # PCIe 4.0's 128b/130b encoding is 98.46% efficient; the L4 uses PCIe 4.0, but "99% better efficiency" is a product claim.
    found = _findings("The NVIDIA L4 is a low-profile card on PCIe Gen4 x16. The L4 delivers up to 2.5× higher performance than "
                      "the T4, while offering up to 99% better efficiency than CPU-only solutions.", database)
    assert "99%" not in [claim for claim, _, _ in found]


def test_two_tables_one_after_the_other_each_keep_their_header():
    # With no blank line between them, the second table's header and delimiter rows are not rows of the first, so each
    # cell of the second is read once, under the MI300X.
    source = ("| Specification | NVIDIA B300 |\n|---|---|\nMemory bandwidth | 7.7 TB/s |\n"
              "| Specification | AMD Instinct MI300X |\n|---|---|\nMemory bandwidth | 5.3 TB/s per GPU |\n")
    page = read_page(source, "markdown")
    cells = [(source[cell.start:cell.end], source[cell.header.start:cell.header.end]) for cell in page.cells if cell.label]
    assert cells == [("7.7 TB/s", "NVIDIA B300"), ("5.3 TB/s per GPU", "AMD Instinct MI300X")]


def test_a_model_with_its_size_and_a_fraction_before_a_part_are_no_counts(database):
    # "Llama 3 70B" is a model (the Llama 3 cluster holds 24,576 GPUs), "1x H100" a deployment; "0.75x B200" a price ratio.
    assert _findings("Llama 3 70B FP8 fits on 1x H100 with 8K context.", database) == []
    assert _findings("| H200 (cloud) | $0.60 0.75x B200 |", database) == []


def test_a_parenthesis_holding_the_next_figure_counts_that_figure(database):
    # NVLink 4 holds 900 GB/s per GPU both ways, 450 GB/s each way: the label counts the first, the parenthesis the second.
    found = [(f.claim, f.verdict, f.figure) for f in check_text(
        "NVLink 4 bandwidth per direction: 450 GB/s (bidirectional = 900 GB/s total).", database, path="p.txt")]
    assert found == [("450 GB/s", "ok", "per_accelerator_bandwidth"), ("900 GB/s", "ok", "per_accelerator_bandwidth")]


def test_a_tier_word_nearer_than_the_part_yields_to_the_part_s_agreeing_figure(database):
    # "Networking" speaks of scale-out, which NVLink holds no figure of; NVLink 4 holds 900 GB/s per GPU.
    found = [(f.verdict, f.record_id, f.figure) for f in check_text(
        "NVLink and NVSwitch: High-Bandwidth GPU Networking enabling 900 GB/s per-GPU communication.", database, path="p.txt")]
    assert found == [("ok", "nvlink-4", "per_accelerator_bandwidth")]


def test_a_tensor_core_is_hardware_not_a_tensor_s_size(database):
    # The H100 SXM holds 80 GiB; "Tensor Core" names the GPU, while a tensor's size is no hardware figure.
    assert _findings("The H100 Tensor Core GPU with 80GB HBM3 memory.", database) == [("80GB", "ok", "nvidia-h100-sxm")]
    assert _findings("On the H100, each activation tensor takes 80GB.", database) == []
