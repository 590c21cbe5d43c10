"""Rules of specdb check from the third held-out set (pages 231-260) once it was measured: French byte units, a unit
joined by a hyphen, a part the data lacks named beside one it holds, and nvidia-smi's memory total.

Expected verdicts come from docs/check.md and specs/: MI355X 288 GiB and 8 TB/s; H200 141 GiB; B300 270 GiB with 288
GiB its listed alternative and an nvidia-smi total of 275040 MiB; MI350X and NVLink-C2C not held.
"""

from conftest import verdicts


def test_french_octets_are_bytes(database):
    found = verdicts("L'Instinct MI355X embarque 288 Go de HBM3E à 8 To/s.", database)
    assert (found["288 Go"].verdict, found["288 Go"].figure) == ("ok", "memory_capacity")
    assert (found["8 To/s"].verdict, found["8 To/s"].figure) == ("ok", "memory_bandwidth")


def test_a_unit_joined_by_a_hyphen_is_read(database):
    found = verdicts("Nvidia's H200 has a 141-GB memory.", database)
    assert (found["141-GB"].verdict, found["141-GB"].record_id) == ("ok", "nvidia-h200-sxm")


def test_a_part_the_data_lacks_yields_to_a_held_part_beside_it_whose_figure_agrees(database):
    found = verdicts("The MI355X and MI350X each carry 288 GB of HBM3E.", database)
    assert (found["288 GB"].verdict, found["288 GB"].record_id) == ("ok", "amd-mi355x")


def test_a_part_the_data_lacks_still_decides_where_no_held_part_agrees(database):
    found = verdicts("The MI355X and MI350X each carry 320 GB of HBM3E.", database)
    assert found["320 GB"].verdict == "unmatched" and found["320 GB"].record_id is None


def test_a_part_the_data_lacks_decides_where_a_held_part_agrees_only_counted_the_other_way(database):
    found = verdicts("The Grace CPU shares memory with the B200 over NVLink-C2C at 900 GB/s.", database)
    assert found["900 GB/s"].verdict == "unmatched"


def test_a_capacity_in_the_vendors_gb_is_judged_on_the_memory_not_the_driver_total(database):
    found = verdicts("NVIDIA B300 Blackwell Ultra: 288 GB HBM3e.", database)
    assert (found["288 GB"].verdict, found["288 GB"].figure) == ("mismatch", "memory_capacity")


def test_a_total_in_mib_is_judged_on_the_driver_total(database):
    found = verdicts("nvidia-smi shows 275040 MiB on the B300.", database)
    assert (found["275040 MiB"].verdict, found["275040 MiB"].figure) == ("ok", "driver_memory_total")


def test_a_capacity_is_no_run_whatever_the_words_around_it(database):
    found = verdicts("NVIDIA B300 results: it reaches 288 GB of HBM3e.", database)
    assert found["288 GB"].verdict == "mismatch"


def test_on_a_page_of_runs_a_value_a_held_run_measured_is_that_runs(database):
    # HGX H100's measured 8-GPU NVLS all-reduce bus bandwidth: 478.87 GB/s.
    found = verdicts("We run NVLS all-reduce on H100.\n\nHow does H100 NVLink 4 reach 480GBps?", database)
    assert (found["480GBps"].verdict, found["480GBps"].figure) == ("ok", "measured_all_reduce_busbw_8gpu_nvls_8gib")


def test_on_a_page_of_no_runs_a_value_below_the_rating_is_still_a_mismatch(database):
    found = verdicts("H100 NVLink gives 480 GB/s.", database)
    assert found["480 GB/s"].verdict == "mismatch"


def test_a_table_of_one_parts_specifications_gives_each_value_its_row_labels_unit(database):
    # TPU v5p: 459 TFLOPS dense BF16, 95 GiB, 2765 GB/s (2575 GiB/s); Google's own table, transposed.
    table = ("TPU v5p specifications:\n\n| Specification | Values |\n|---|---|\n"
             "| Peak compute per chip (BF16) (TFLOPs) | 459 |\n| HBM capacity per chip (GiB) | 95 |\n"
             "| HBM bandwidth per chip (GiBps) | 2575 |\n")
    found = verdicts(table, database, fmt="markdown")
    assert [(found[value].verdict, found[value].figure) for value in ("459", "95", "2575")] == [
        ("ok", "dense_bf16_flops"), ("ok", "memory_capacity"), ("ok", "memory_bandwidth")]


def test_a_range_states_no_counting(database):
    # NVLink 3 600 GB/s and NVLink 4 900 GB/s per GPU, both ways: the range holds them, however they are counted.
    found = verdicts("If you see NV18 between GPUs, you have NVLink. Those links give you 300-900 GB/s depending on the"
                     " generation, way faster than PCIe.", database)
    assert found["300-900 GB/s"].verdict != "ambiguous-basis"


def test_a_part_after_chinese_than_is_the_comparand_not_the_figures_part(database):
    # "141GB ... 4.8 TB/s, about 1.8 times faster than the previous generation's H100": the H200's, not the H100's.
    found = verdicts("NVIDIA H200 上市。\n\n显存升级:首次使用141GB HBM3e显存,带宽高达4.8 TB/s,比上一代 H100 快约1.8倍。", database)
    assert (found["141GB"].verdict, found["141GB"].record_id) == ("ok", "nvidia-h200-sxm")
    assert (found["4.8 TB/s"].verdict, found["4.8 TB/s"].record_id) == ("ok", "nvidia-h200-sxm")


def test_a_die_to_die_link_is_a_kind_of_figure_no_record_holds(database):
    found = verdicts("B200 is two reticle-limit dies joined by a 10 TB/s die-to-die link (NV-HBI).", database)
    assert found["10 TB/s"].verdict == "unmatched"  # not a mismatch of B200's 7.7 TB/s HBM


def test_per_second_written_in_japanese_is_read(database):
    found = verdicts("H100 SXM の NVLink は 900GB/秒 です。", database)
    assert (found["900GB/秒"].verdict, found["900GB/秒"].figure) == ("ok", "scale_up_bandwidth")


def test_a_number_format_written_right_after_a_figure_is_its_own(database):
    # TPU v5e: 197 TFLOPS BF16 and 393 TOPS INT8 held; the "bf16" after 197 is not the 393's.
    found = verdicts("| v5e | 2023 | 197 TFLOPS bf16 393 TOPS INT8 | 16 GiB |", database, fmt="markdown")
    assert (found["197 TFLOPS"].verdict, found["197 TFLOPS"].figure) == ("ok", "dense_bf16_flops")
    assert (found["393 TOPS"].verdict, found["393 TOPS"].figure) == ("ok", "dense_int8_flops")


def test_a_multiple_of_performance_over_a_part_is_not_judged(database):
    found = verdicts("40 PFLOPS FP4 and 20 PFLOPS FP8 per chip - AMD claims 10x performance over the MI355X.", database)
    assert "10x" not in found


def test_a_sentence_naming_a_part_that_holds_no_such_figure_raises_no_alarm_against_another(database):
    # Intel Gaudi 3: 1050 GB/s scale-up both ways held; the data holds no scale-up rate for the Gaudi 2.
    text = ("Each Intel Gaudi 3 AI accelerator has 21 scale-up ports running at 200Gbps.\n\nNote\n\nGaudi 2 network"
            " architecture is similar to Gaudi 3. The theoretical peak of scale-up bandwidth from each Gaudi 2 is 21*100Gbps"
            " = 21*12.5 GB/s = 262.5 GB/s unidirectional bandwidth or 525 GB/s bidirectional bandwidth.")
    found = verdicts(text, database)
    assert found["525 GB/s"].verdict == "unmatched" and found["525 GB/s"].record_id is None
