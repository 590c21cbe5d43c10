"""Readings of specdb check added after the sixth held-out set: a part named with its memory size, sparsity that the text
denies, BFLOAT16 as a spelling of BF16, and the row that heads a table's columns when the first row does not.

Expected verdicts come from specs/: H100 SXM 80 GiB, 3.35 TB/s, dense BF16 989 TFLOPS, dense FP8 1979 TFLOPS; H200 SXM
141 GiB, 4.8 TB/s, dense BF16 989 TFLOPS; MI300X 192 GiB and 5.3 TB/s; the H100 NVL (94 GB) is not held.
"""

from conftest import verdicts
from specdb.check.verdicts import check_text


def _by_place(text, database, fmt):
    return {(finding.line, finding.column): finding for finding in check_text(text, database, path="page", fmt=fmt)}


def test_a_part_named_with_its_memory_size_is_that_part(database):
    table = ("| | H100 80 GB | AMD MI300X 192 GB | H200 141 GB |\n|---|---|---|---|\n"
             "| HBM bandwidth | 3.35 TB/s | 5.3 TB/s | 4.8 TB/s |\n")
    found = _by_place(table, database, "markdown")
    assert (found[(3, 19)].verdict, found[(3, 19)].record_id) == ("ok", "nvidia-h100-sxm")
    assert (found[(3, 31)].verdict, found[(3, 31)].record_id) == ("ok", "amd-mi300x")
    assert (found[(3, 42)].verdict, found[(3, 42)].record_id) == ("ok", "nvidia-h200-sxm")


def test_a_size_no_held_variant_has_still_names_a_part_the_data_lacks(database):
    table = "| | H100 SXM | H100 94GB |\n|---|---|---|\n| HBM bandwidth | 3.35 TB/s | 3.9 TB/s |\n"
    found = _by_place(table, database, "markdown")
    assert found[(3, 31)].verdict == "unmatched" and "H100 94GB" in found[(3, 31)].note
    assert all(line == 3 for line, _ in found), "the size in a part's name is no claim"


def test_sparsity_the_text_denies_leaves_the_dense_rate(database):
    found = verdicts("Without sparsity, the H100 SXM delivers 989 TFLOPS of BF16.", database)
    assert (found["989 TFLOPS"].verdict, found["989 TFLOPS"].figure) == ("ok", "dense_bf16_flops")
    found = verdicts("With sparsity, the H100 SXM delivers 1979 TFLOPS of BF16.", database)
    assert found["1979 TFLOPS"].verdict == "unmatched"


def test_bfloat16_is_bf16(database):
    found = verdicts("The H100 SXM reaches 1979 TFLOPS in BFLOAT16.", database)
    assert found["1979 TFLOPS"].figure == "dense_bf16_flops" and found["1979 TFLOPS"].verdict != "ok"


def test_a_row_of_parts_under_an_empty_header_heads_the_columns(database):
    table = ("| Specifications | | |\n| :--- | :---: | :---: |\n| | **H100 SXM** | **H200 SXM** |\n"
             "| **GPU Memory Bandwidth** | 4.8 TB/s | 4.8 TB/s |\n")
    found = _by_place(table, database, "markdown")
    assert (found[(4, 30)].verdict, found[(4, 30)].record_id) == ("mismatch", "nvidia-h100-sxm")
    assert (found[(4, 41)].verdict, found[(4, 41)].record_id) == ("ok", "nvidia-h200-sxm")


def test_the_first_row_of_an_html_table_without_header_cells_heads_its_columns(database):
    page = ("<html><body><p>Two parts.</p>\n<table>\n<tr><td>Metric</td><td>H100 SXM</td><td>H200 SXM</td></tr>\n"
            "<tr><td>HBM bandwidth</td><td>4.8 TB/s</td><td>4.8 TB/s</td></tr>\n</table></body></html>\n")
    found = _by_place(page, database, "html")
    assert (found[(4, 31)].verdict, found[(4, 31)].record_id) == ("mismatch", "nvidia-h100-sxm")
    assert (found[(4, 48)].verdict, found[(4, 48)].record_id) == ("ok", "nvidia-h200-sxm")


def test_an_html_table_whose_first_row_holds_figures_has_no_header(database):
    page = ("<html><body><p>The H200 SXM.</p>\n<table>\n<tr><td>HBM bandwidth</td><td>4.8 TB/s</td></tr>\n"
            "<tr><td>Memory</td><td>141 GB</td></tr>\n</table></body></html>\n")
    found = _by_place(page, database, "html")
    assert (found[(3, 31)].verdict, found[(3, 31)].record_id) == ("ok", "nvidia-h200-sxm")
    assert (found[(4, 24)].verdict, found[(4, 24)].record_id) == ("ok", "nvidia-h200-sxm")


def test_a_gpu_die_is_not_the_part_a_figure_is_of(database):
    found = verdicts("NVIDIA H20\n\nThe chip is a cut-down GH100 with 96 GB of HBM3 at 4.0 TB/s.\n", database)
    assert (found["4.0 TB/s"].verdict, found["4.0 TB/s"].record_id) == ("ok", "nvidia-h20")


def test_a_label_line_of_a_spec_sheet_is_a_sentence_of_its_own(database):
    sheet = ("The NVIDIA H200 is the flagship GPU.\nMemory: 141GB HBM3e (double the memory capacity of H100)\n"
             "Product Position: Predecessor of B200/B300 series.\n")
    found = verdicts(sheet, database)
    assert (found["141GB"].verdict, found["141GB"].record_id) == ("ok", "nvidia-h200-sxm")


def test_a_count_of_a_parts_node_is_the_vendors_system_before_a_clouds(database):
    found = verdicts("A single H100 node with 8 GPUs.", database)
    assert (found["8 GPUs"].verdict, found["8 GPUs"].record_id) == ("ok", "nvidia-hgx-h100")


# The A100 records (specs/accelerator/nvidia-a100-*.yaml): the SXM4 40GB holds 400 W and FP16 312 TFLOPS; of the 80 GB
# ones, the PCIe card holds 300 W and neither holds power for the SXM4 80GB, nor an FP16 rate.
def test_a_part_named_with_a_size_is_the_records_of_that_size_not_its_siblings(database):
    found = verdicts("The A100 80GB draws 400 W.", database)
    assert found["400 W"].verdict == "unmatched" and found["400 W"].record_id is None


def test_a_header_naming_a_variant_takes_its_own_figures_and_none_of_its_siblings(database):
    table = ("| | A100 (80GB) | H100 SXM |\n|---|---|---|\n| NVLink | 600 GB/s | 900 GB/s |\n"
             "| FP16 Tensor | 312 TFLOPS | 989 TFLOPS |\n")
    found = _by_place(table, database, "markdown")
    assert (found[(3, 12)].verdict, found[(3, 12)].record_id) == ("ok", "nvidia-a100-sxm-80gb")
    assert found[(4, 17)].verdict == "unmatched" and found[(4, 17)].record_id is None


def test_a_count_after_a_label_and_colon_is_the_labels(database):
    found = verdicts("NVLink 4: 18 links", database)  # nvlink-4.links_per_accelerator = 18
    assert (found["18 links"].verdict, found["18 links"].record_id) == ("ok", "nvlink-4")


def test_of_systems_alike_the_one_built_of_the_named_accelerator_is_meant(database):
    found = verdicts("The H200 SXM connects over NVLink 4.0 within a node (8 GPUs).", database)  # HGX H200: 8 GPUs
    assert (found["8 GPUs"].verdict, found["8 GPUs"].record_id) == ("ok", "nvidia-hgx-h200")


def test_an_infiniband_generation_before_hdr_is_hardware_the_data_lacks(database):
    found = verdicts("Older InfiniBand clusters used FDR at 56 Gb/s per port.", database)
    assert found["56 Gb/s"].verdict == "unmatched" and "FDR" in found["56 Gb/s"].note


def test_an_effective_rate_is_read_in_a_table_title_and_in_other_languages(database):
    # PCIe 4.0 x16 carries 31.5 GB/s each way (specs/link/pcie-4.yaml); 28 GB/s is what a transfer gets, which no record holds.
    found = _by_place("**有效带宽：**\n\n| 配置 | 大消息(1GB) |\n| --- | --- |\n| PCIe 4.0 | 28 GB/s |\n", database, "markdown")
    assert found[(5, 14)].verdict == "unmatched" and "effective" in found[(5, 14)].note
    found = verdicts("Die effektive Bandbreite von PCIe 4.0 x16 liegt bei 28 GB/s.", database)
    assert found["28 GB/s"].verdict == "unmatched"


def test_a_sentence_introducing_a_table_does_not_make_every_cell_effective(database):
    table = ("NDR 400G InfiniBand gives 96 GB/s effective bandwidth.\n| Standard | 4x Typical |\n|---|---|\n"
             "| NDR | 400 Gb/s |\n")
    found = _by_place(table, database, "markdown")
    assert (found[(4, 9)].verdict, found[(4, 9)].record_id) == ("ok", "infiniband-ndr")


def test_formats_and_sparsity_are_read_inside_code_names(database):
    # The B200 holds a dense BF16 rate of 2.25 PFLOPS, no FP16 or INT4 rate, and no sparse rate (specs/accelerator/nvidia-b200.yaml).
    page = ("The B200 constants:\n\nB200_FLOPS_FP16_TENSOR = 2250 TFLOPs\n\nB200_FLOPS_INT4 = 9000 TFLOPs\n\n"
            "B200_FLOPS_FP8_SPARSE = 9000 TFLOPs\n")
    found = _by_place(page, database, "text")
    assert found[(3, 26)].verdict == "unmatched" and "fp16" in found[(3, 26)].note
    assert all(finding.verdict != "ok" for place, finding in found.items() if place[0] in (5, 7))


def test_a_data_rate_is_a_memory_pins_only_beside_memory_words(database):
    # InfiniBand HDR: 200 Gb/s per port, each way (specs/fabric/infiniband-hdr.yaml); no record holds an HBM pin rate.
    found = verdicts("HDR (Mellanox's High Data Rate generation) runs at 200 Gb/s per port.", database)
    assert (found["200 Gb/s"].verdict, found["200 Gb/s"].record_id) == ("ok", "infiniband-hdr")
    found = verdicts("The H200's HBM3e runs at a data rate of 6.4 Gb/s.", database)
    assert found["6.4 Gb/s"].verdict == "unmatched" and "pin" in found["6.4 Gb/s"].note


def test_a_duration_in_milliseconds_is_no_hardware_latency(database):
    table = "| Message | PCIe 4.0 | NVLink 3.0 |\n| --- | --- | --- |\n| 1 GB | 1400 ms | 350 ms |\n"
    assert not check_text(table, database, path="page", fmt="markdown")
    found = verdicts("The PCIe 4.0 link's latency is about 1 µs.", database)
    assert found["1 µs"].verdict == "unmatched" and "latency" in found["1 µs"].note


def test_a_decimal_comma_and_per_second_in_words_are_read(database):
    # Gaudi 3: 3.67 TB/s held (3.7 its listed alternative); NVLink 5: 1.8 TB/s per GPU both ways.
    found = verdicts("O Gaudi 3 tem 3,7 TB por segundo de largura de banda.", database)
    assert (found["3,7 TB por segundo"].verdict, found["3,7 TB por segundo"].record_id) == ("ok", "intel-gaudi-3")
    found = verdicts("NVLink 5 bietet 1,8 TB/s pro GPU.", database)
    assert (found["1,8 TB/s"].verdict, found["1,8 TB/s"].record_id) == ("ok", "nvlink-5")
    found = verdicts("The H100 SXM has 16,000 GB/s? No: 3,350 GB/s of HBM3.", database)
    assert found["3,350 GB/s"].verdict == "ok"  # a thousands separator is three digits after the comma


def test_a_bare_number_after_a_name_ending_in_its_number_is_no_version(database):
    found = verdicts("Intel Gaudi3 24 200-GbE-Netzwerkschnittstellen, 128 GB HBM2e mit 3,67 TB/s.", database)
    assert (found["128 GB"].verdict, found["128 GB"].record_id) == ("ok", "intel-gaudi-3")


def test_a_rate_of_a_format_the_pages_part_holds_none_of_is_unmatched(database):
    # The H100 SXM holds dense BF16, FP8 and INT8 rates, none in FP32 or FP64 (specs/accelerator/nvidia-h100-sxm.yaml).
    found = verdicts("NVIDIA H100 SXM\n\nEsta GPU alcanza 60 TFLOPS FP32 y 30 TFLOPS en FP64.\n", database)
    assert found["60 TFLOPS"].verdict == "unmatched" and "fp32" in found["60 TFLOPS"].note
    assert found["30 TFLOPS"].verdict == "unmatched" and "fp64" in found["30 TFLOPS"].note


def test_a_rate_given_for_a_pair_of_formats_is_the_held_ones(database):
    # The H100 SXM: dense BF16 989 TFLOPS, FP8 1979 (no FP16 rate held); "BF16 / FP16" and "FP8/INT8" name one rate each.
    table = "| | H100 SXM |\n|---|---|\n| BF16 / FP16 TFLOPS | 989 |\n| FP8/INT8 TFLOPS | 1979 |\n"
    found = _by_place(table, database, "markdown")
    assert (found[(3, 24)].verdict, found[(3, 24)].figure) == ("ok", "dense_bf16_flops")
    assert (found[(4, 21)].verdict, found[(4, 21)].figure) == ("ok", "dense_fp8_flops")


def test_a_named_parts_listed_alternative_is_meant_before_a_neighbours_figure_wherever_the_part_is_named(database):
    # B200: 7.7 TB/s held, 8 TB/s its listed (announced) alternative; the GB200 holds 8 TB/s and shares NVLink 5 with it.
    page = "NVIDIA announced the B200 at GTC 2024, with NVLink 5 between GPUs.\n\nIts HBM3e memory runs at 8 TB/s.\n"
    found = verdicts(page, database)
    assert (found["8 TB/s"].verdict, found["8 TB/s"].record_id) == ("mismatch", "nvidia-b200")


def test_russian_units_are_read(database):
    # Trainium3: 144 GiB, 4.9 TB/s, dense FP8 2517 TFLOPS (specs/accelerator/aws-trainium3.yaml).
    found = verdicts("Trainium3 получил 144 Гбайт памяти HBM3E с пропускной способностью 4,9 Тбайт/с и 2,52 Пфлопс FP8.", database)
    assert [found[claim].verdict for claim in ("144 Гбайт", "4,9 Тбайт/с", "2,52 Пфлопс")] == ["ok", "ok", "ok"]
