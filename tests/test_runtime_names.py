"""Names real tools print resolve to the part they name, and names of parts the data lacks resolve to nothing.

Each name below was seen in a tool's output; the comment gives where. The expected record is the part that output
came from, read from the source, not from the resolver.
"""

import pytest

import specdb
from specdb.errors import AmbiguousName, NotFound


@pytest.fixture(scope="module")
def connection(bundled_db):
    return specdb.connect(db=bundled_db)


SEEN = [
    # torch.cuda.get_device_name() on an H100 SXM (pytorch/pytorch PR 194276; karpathy/nanoGPT PR 464)
    ("NVIDIA H100 80GB HBM3", "nvidia-h100-sxm"),
    # nvidia-smi -q "Product Name" of an H200, device id 0x233510DE (NVIDIA/mig-parted issue 120)
    ("NVIDIA H200", "nvidia-h200-sxm"),
    ("0x233510DE", "nvidia-h200-sxm"),
    # lspci -nn: "GH100 [H200 SXM 141GB] [10de:2335]" (easydiffusion/torchruntime issue 24)
    ("10de:2335", "nvidia-h200-sxm"),
    # PyTorch collect_env GPU list (nvidia-smi -L) on an H20 machine (vllm-project/vllm issue 7865)
    ("NVIDIA H20", "nvidia-h20"),
    # torch.cuda.get_device_name() on B300 (NVIDIA/cosmos-framework PR 114; allenai/OLMo-core PR 817)
    ("NVIDIA B300 SXM6 AC", "nvidia-b300"),
    # JAX device_kind on a GB200 system (marin-community/marin PR 7328)
    ("NVIDIA GB200", "nvidia-gb200"),
    # JAX device_kind of v5p: "TPU v5" on a TPU VM, "TPU v5p" on Pathways (vllm-project/tpu-inference PR 716)
    ("TPU v5", "google-tpu-v5p"),
    ("TPU v5p", "google-tpu-v5p"),
    # The GKE accelerator label of v5p slices (apple/axlearn PR 994): the chip, not the 6,144-chip slice system
    ("tpu-v5p-slice", "google-tpu-v5p"),
    # JAX device_kind of v6e and of Ironwood, as JAX's own test matches them (jax-ml/jax tests/pallas/tpu_info_test.py)
    ("TPU v6 lite", "google-tpu-v6e"),
    ("TPU7x", "google-tpu-v7"),
    # rccl-tests' HIP device name on an Azure MI300X VM, an SR-IOV virtual function (ROCm/rccl issue 1728)
    ("AMD Instinct MI300X VF", "amd-mi300x"),
    # The GKE accelerator label of v6e (Trillium) nodes (ray-project/ray PR 48201; Netflix/metaflow PR 2143)
    ("tpu-v6e-slice", "google-tpu-v6e"),
    # rocminfo Marketing Name and Chip ID of an MI300X (ROCm/legacy-rocm-build issue 4414)
    ("AMD Instinct MI300X", "amd-mi300x"),
    ("1002:74a1", "amd-mi300x"),
    # amdsmi product_name on MI300X machines (ROCm/vllm PR 359)
    ("AMD Instinct MI300X OAM", "amd-mi300x"),
    # What tools print around a name: nvidia-smi -L's index and UUID, collect_env's ROCm target, gcnArchName's features
    # (collect_env prints "AMD Instinct MI300A (gfx942:sramecc+:xnack-)" in vllm-project/vllm issue 17875)
    ("GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-8af70525-9683-161c)", "nvidia-h100-sxm"),
    ("AMD Instinct MI300X (gfx942:sramecc+:xnack-)", "amd-mi300x"),
    # The same names written as people type them: case, spacing, '-' and '_' do not matter
    ("nvidia_h100_80gb_hbm3", "nvidia-h100-sxm"),
    ("NVIDIA-H200", "nvidia-h200-sxm"),
    ("tpu v5p slice", "google-tpu-v5p-pod-slice"),  # the slice system's own alias, written as it is
    ("  amd instinct  MI300X ", "amd-mi300x"),
    # NVIDIA's DGX H100 is the HGX H100 8-GPU platform the record's scale-out figures are stated for
    ("DGX H100", "nvidia-hgx-h100"),
]


# Parts the data came to hold after these names were first collected as traps: each now finds its own record.
SEEN += [
    ("NVIDIA A100-SXM4-40GB", "nvidia-a100-sxm-40gb"),  # torch.cuda.get_device_name() example in mosaicml/composer PR 2265
    ("TPU v5 lite", "google-tpu-v5e"),  # JAX's device_kind for the v5e (apple/axlearn PR 994)
]


@pytest.mark.parametrize(("name", "record"), SEEN)
def test_a_name_a_tool_reports_finds_its_part(connection, name, record):
    assert specdb.show(connection, name)["id"] == record


# Parts the data does not hold, each seen in a tool's output: they must not resolve to a neighbour.
NOT_IN_THE_DATA = [
    "NVIDIA H100 NVL",  # fastfetch-cli/fastfetch issue 1658; akash-network/provider-configs PR 91 (device 10de:2321)
    "10de:2321",  # the H100 NVL's PCI id, nvidia-smi "0x232110DE" (akash-network/provider-configs PR 91)
    "0x232110DE",
    "NVIDIA H800",
    "AMD Instinct MI350X",  # amd-smi static MARKET_NAME, DEVICE_ID 0x75a0 (ROCm/rocm-systems PR 2987)
    "1002:75a0",
    "AMD Instinct MI300A",  # collect_env "AMD Instinct MI300A (gfx942:sramecc+:xnack-)" (vllm-project/vllm issue 17875)
    "MI300A",
    "AMD Instinct MI300A (gfx942:sramecc+:xnack-)",
    "AMD Instinct MI308X",  # amdsmi market name (ROCm/vllm PR 359)
]


@pytest.mark.parametrize("name", NOT_IN_THE_DATA)
def test_a_part_the_data_lacks_is_not_found_rather_than_a_neighbour(connection, name):
    with pytest.raises(NotFound):
        specdb.show(connection, name)


@pytest.mark.parametrize(("name", "choices"), [
    ("gfx942", {"amd-mi300x", "amd-mi325x"}),  # rocminfo's Name of the MI300X; the MI325X is gfx942 too
    ("gfx942:sramecc+:xnack-", {"amd-mi300x", "amd-mi325x"}),  # torch's gcnArchName, with its target features
    ("H100", {"nvidia-h100-sxm", "nvidia-h100-pcie"}),
])
def test_a_name_several_parts_share_is_refused_with_the_choices(connection, name, choices):
    with pytest.raises(AmbiguousName) as refused:
        specdb.show(connection, name)
    assert all(choice in str(refused.value) for choice in choices)


def test_a_name_cut_short_before_its_model_numbers_is_refused(connection):
    # Older nvidia-smi tables print "NVIDIA A100-SXM..." for both the 40 GB and the 80 GB part.
    with pytest.raises(AmbiguousName, match="cut short"):
        specdb.show(connection, "NVIDIA A100-SXM...")


def test_a_name_cut_short_after_its_model_numbers_resolves(connection):
    assert specdb.show(connection, "NVIDIA B300 SXM6...")["id"] == "nvidia-b300"


def test_a_suggestion_keeps_the_model_number_asked_for(cli):
    # "NVIDIA H200 NVL" is not in the fixture data or the bundled data as such; "H20" must never be offered for "H200".
    result = cli("show", "Test GPU 800")
    assert result.exit_code == 2 and "Test GPU 80GB" not in result.stderr


def test_the_cli_refuses_a_shared_name_in_one_message_with_exit_2(bundled_db):
    from typer.testing import CliRunner

    from specdb.cli import app

    result = CliRunner().invoke(app, ["show", "H100", "--db", str(bundled_db)])
    assert result.exit_code == 2
    assert "nvidia-h100-sxm" in result.stderr and "nvidia-h100-pcie" in result.stderr and "Traceback" not in result.output


def test_compare_and_collective_take_the_names_show_takes(bundled_db):
    from typer.testing import CliRunner

    from specdb.cli import app

    runner = CliRunner()
    compared = runner.invoke(app, ["compare", "NVIDIA H100 80GB HBM3", "NVIDIA H200", "--format", "json", "--db", str(bundled_db)])
    assert compared.exit_code == 0, compared.output
    estimated = runner.invoke(app, [
        "collective", "all-reduce", "--params", "8e9", "--dtype", "bf16", "--gpus", "8", "--platform", "DGX H100", "--db", str(bundled_db),
    ])
    assert estimated.exit_code == 0, estimated.output


def test_show_lists_the_names_tools_report_with_their_sources(connection):
    shown = specdb.show(connection, "NVIDIA H200")
    assert {"name": "NVIDIA H200", "reported_by": "nvidia-smi", "source_id": "github-nvidia-mig-parted-issue-120"} in shown["runtime_names"]
    assert {"name": "10de:2335", "reported_by": "pci", "source_id": "github-nvidia-mig-parted-issue-120"} in shown["runtime_names"]


def test_a_runtime_name_citing_no_source_record_is_a_problem_where_it_is_written(cli, specs):
    gpu = specs / "accelerator" / "test-gpu.yaml"
    text = gpu.read_text()
    gpu.write_text(text.replace("\nfigures:", "\nruntime_names:\n  - {name: Test GPU 80GB HBM3, reported_by: nvidia-smi, ref: no-such-log}\nfigures:", 1))
    result = cli("validate")
    assert result.exit_code == 1
    line = gpu.read_text().splitlines().index("  - {name: Test GPU 80GB HBM3, reported_by: nvidia-smi, ref: no-such-log}") + 1
    assert f"test-gpu.yaml:{line}:" in result.stdout and "no source record 'no-such-log'" in result.stdout


def test_a_pci_id_is_written_as_lowercase_vendor_colon_device(cli, specs):
    gpu = specs / "accelerator" / "test-gpu.yaml"
    gpu.write_text(gpu.read_text().replace("\nfigures:", "\npci_ids:\n  - {id: 0x233510DE, ref: test-datasheet}\nfigures:", 1))
    result = cli("validate")
    assert result.exit_code == 1 and "pci_ids" in result.stdout


@pytest.mark.parametrize(("text", "names"), [
    ("The H100 NVL has 3.9 TB/s of memory bandwidth.", "H100 NVL"),
    ("The H200 NVL has 4.8 TB/s of memory bandwidth.", "H200 NVL"),
])
def test_check_takes_a_variant_the_data_lacks_for_unknown_hardware_not_its_neighbour(connection, text, names):
    findings = [finding for finding in specdb.check_text(text, connection) if "TB/s" in finding.claim]
    assert [(finding.verdict, finding.record_id) for finding in findings] == [("unmatched", None)]
    assert names in findings[0].note


def test_check_still_knows_a_variant_its_record_names(connection):
    # The A100 record is the 80 GB part (NVIDIA A100-SXM4-80GB): "A100 80GB" is that record.
    [finding] = specdb.check_text("The A100 80GB has 2039 GB/s of memory bandwidth.", connection)
    assert (finding.verdict, finding.record_id) == ("ok", "nvidia-a100-sxm-80gb")


@pytest.mark.parametrize("name", ["NVIDIA H100 NVL", "NVIDIA H200 NVL", "NVIDIA H800"])
def test_a_variant_the_data_lacks_gets_no_neighbour_suggested(bundled_db, name):
    from typer.testing import CliRunner

    from specdb.cli import app

    result = CliRunner().invoke(app, ["show", name, "--db", str(bundled_db)])
    assert result.exit_code == 2 and "did you mean" not in result.stderr


def test_a_typo_still_gets_its_suggestion(bundled_db):
    from typer.testing import CliRunner

    from specdb.cli import app

    result = CliRunner().invoke(app, ["show", "H100 SMX", "--db", str(bundled_db)])
    assert result.exit_code == 2 and "did you mean 'H100 SXM'" in result.stderr


def test_a_name_the_mi250x_shares_with_the_mi250_finds_neither(connection):
    # "AMD Instinct MI250X / MI250" names both cards; the data holds only the MI250X (383 TFLOPS dense BF16 in AMD's
    # CDNA 2 white paper, where the MI250 has 362), so the shared name must not give the MI250X's figures.
    with pytest.raises(NotFound):
        specdb.show(connection, "AMD Instinct MI250X / MI250")
    assert specdb.show(connection, "AMD Instinct MI250X")["id"] == "amd-mi250x"
