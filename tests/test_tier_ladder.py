"""The tier ladder read through its `Figures` interface (what a database or a snapshot of specs answers), with platforms
written here so that each rule of the ladder has a case of its own. Expected values are worked out in the comments."""

import shutil
from dataclasses import dataclass, field

import pytest

from conftest import TEST_SPECS
from specdb.errors import NotFound, UsageError
from specdb.db.access import open_fresh
from specdb.db.figures import System
from specdb.format.counting import Bandwidth, same_basis
from specdb.analysis.tiers import platforms, ratio_rows, trend


@dataclass
class Ladder:
    """Records as the ladder sees them: systems, the records they use, and bandwidth-like figures (value, direction)."""

    systems_: list[System]
    uses_: dict[str, dict[str, str]]
    figures: dict[tuple[str, str], tuple[float, str | None]] = field(default_factory=dict)

    def resolve(self, name: str) -> str:
        if name in self.uses_:
            return name
        raise NotFound(f"no record or alias '{name}'")

    def systems(self) -> list[System]:
        return list(self.systems_)

    def uses(self, record_id: str) -> dict[str, str]:
        return dict(self.uses_.get(record_id, {}))

    def figure(self, record_id, name):
        found = self.figures.get((record_id, name))
        return None if found is None else Bandwidth(found[0], found[1], record_id, name)


def _platform(ladder: Ladder, system: str, gpu: str, *, vendor="Vendor", released="2024-01-01", memory=4e12, up=(1.6e12, "bidirectional"),
              out=(100e9, "per-direction"), flops=2e15) -> None:
    ladder.systems_.append(System(system, system.upper(), vendor, released))
    ladder.uses_[system] = {"accelerator": gpu}
    ladder.uses_.setdefault(gpu, {})
    ladder.figures[(gpu, "memory_bandwidth")] = (memory, "total")
    if up:
        ladder.figures[(gpu, "scale_up_bandwidth")] = up
    if out:
        ladder.figures[(system, "scale_out_bandwidth")] = out
    if flops:
        ladder.figures[(gpu, "dense_bf16_flops")] = (flops, None)


def _ladder() -> Ladder:
    return Ladder([], {})


def test_ratios_on_both_bases():
    ladder = _ladder()
    _platform(ladder, "box", "gpu")
    [one_way] = ratio_rows(ladder)
    # 4 TB/s memory, 1.6 TB/s both ways = 800 GB/s each way, 100 GB/s out: 5, 8 and 40.
    assert (one_way["memory_gbps"], one_way["scale_up_gbps"], one_way["scale_out_gbps"]) == (4000, 800, 100)
    assert (one_way["memory_to_scale_up"], one_way["scale_up_to_scale_out"], one_way["memory_to_scale_out"]) == (5, 8, 40)
    assert (one_way["memory_counted"], one_way["scale_up_counted"], one_way["scale_out_counted"]) == ("total", "per-direction", "per-direction")
    assert one_way["mixed_counting"] == []
    [quoted] = ratio_rows(ladder, "as-quoted")
    # As quoted: 4000 / 1600 = 2.5 and 1600 / 100 = 16, each mixing a bidirectional side with a one-way one; 40 is not mixed.
    assert (quoted["memory_to_scale_up"], quoted["scale_up_to_scale_out"], quoted["memory_to_scale_out"]) == (2.5, 16, 40)
    assert quoted["scale_up_counted"] == "bidirectional"
    assert quoted["mixed_counting"] == ["memory_to_scale_up", "scale_up_to_scale_out"]
    # 2 PFLOP/s over 100 GB/s: 20,000 FLOP per byte on either basis.
    assert one_way["bf16_flop_per_network_byte"] == quoted["bf16_flop_per_network_byte"] == 20000
    assert (one_way["platform"], one_way["vendor"], one_way["accelerator"], one_way["year"], quoted["basis"]) == ("box", "Vendor", "gpu", 2024, "as-quoted")


def test_flop_per_network_byte_counts_a_bidirectional_scale_out_figure_one_way_on_either_basis():
    ladder = _ladder()
    _platform(ladder, "box", "gpu", out=(200e9, "bidirectional"))
    # 200 GB/s both ways is 100 GB/s each way: 2 PFLOP/s / 100 GB/s = 20,000, also when the ratios are as quoted.
    assert [row["bf16_flop_per_network_byte"] for row in ratio_rows(ladder, "as-quoted")] == [20000]
    assert [row["bf16_flop_per_network_byte"] for row in ratio_rows(ladder)] == [20000]


def test_bandwidths_keep_three_decimal_places_of_gb_per_s():
    """MI355X-like: 1,075.2 GB/s both ways is 537.6 GB/s each way; TPU-like 50 Gb/s out is 6.25 GB/s; 1.23456 GB/s is shown as 1.235."""
    ladder = _ladder()
    _platform(ladder, "box", "gpu", up=(1075.2e9, "bidirectional"), out=(6.25e9, "per-direction"), memory=1.23456e9)
    [row] = ratio_rows(ladder)
    assert (row["scale_up_gbps"], row["scale_out_gbps"]) == (537.6, 6.25)
    assert row["memory_gbps"] == 1.235


def test_a_system_scale_up_figure_overrides_its_accelerator():
    ladder = _ladder()
    _platform(ladder, "box", "gpu")
    ladder.figures[("box", "scale_up_bandwidth")] = (3.6e12, "bidirectional")
    [row] = ratio_rows(ladder)
    assert row["scale_up_gbps"] == 1800  # the system's 3.6 TB/s halved, not the accelerator's 1.6 TB/s


@pytest.mark.parametrize("flops, shown", [
    (1e12, 10),  # 1 TFLOP/s / 100 GB/s = 10
    (1e11, 1),  # exactly one: a whole number
    (1.26e11, 1),  # 1.26: a whole number
    (7e10, 0.7),  # under one FLOP per byte: the fraction, not a rounded 1 or 0
    (5e10, 0.5),
    (1.234e8, 0.00123),  # three significant digits, never a false 0
])
def test_flop_per_byte_is_whole_from_one_up_and_a_fraction_below(flops, shown):
    ladder = _ladder()
    _platform(ladder, "box", "gpu", flops=flops)
    found = ratio_rows(ladder)[0]["bf16_flop_per_network_byte"]
    assert found == shown and type(found) is type(shown)  # JSON prints 1, not 1.0


def test_a_missing_tier_leaves_its_ratios_and_flop_per_byte_empty():
    ladder = _ladder()
    _platform(ladder, "box", "gpu", up=None, out=None, flops=None, released=None)
    [row] = ratio_rows(ladder)
    assert (row["scale_up_gbps"], row["scale_up_counted"], row["scale_out_gbps"], row["scale_out_counted"]) == (None, None, None, None)
    assert (row["memory_to_scale_up"], row["scale_up_to_scale_out"], row["memory_to_scale_out"]) == (None, None, None)
    assert row["bf16_flop_per_network_byte"] is None and row["year"] is None and row["mixed_counting"] == []


def test_platforms_come_in_release_order_then_by_id_and_undated_last():
    ladder = _ladder()
    _platform(ladder, "a-undated", "gpu-1", released=None)
    _platform(ladder, "b-newer", "gpu-2", released="2025-03-01")
    _platform(ladder, "c-older", "gpu-3", released="2023-06-01")
    _platform(ladder, "d-older", "gpu-4", released="2023-06-01")
    assert [row["platform"] for row in ratio_rows(ladder)] == ["c-older", "d-older", "b-newer", "a-undated"]


def test_filters_by_vendor_whatever_its_case_and_by_platform():
    ladder = _ladder()
    _platform(ladder, "box-1", "gpu-1", vendor="Alpha")
    _platform(ladder, "box-2", "gpu-2", vendor="Beta")
    assert [row["platform"] for row in ratio_rows(ladder, vendor="ALPHA")] == ["box-1"]
    assert [row["platform"] for row in ratio_rows(ladder, platform="box-2")] == ["box-2"]
    assert [row["platform"] for row in ratio_rows(ladder, vendor="beta", platform="box-1")] == []
    with pytest.raises(UsageError) as raised:
        ratio_rows(ladder, vendor="Alpah")
    assert str(raised.value) == "--vendor 'Alpah': no platform of this vendor (vendors: Alpha, Beta); did you mean 'Alpha'?"


def test_a_platform_must_be_a_system_and_the_message_names_the_platforms_built_on_it():
    ladder = _ladder()
    _platform(ladder, "box-2", "gpu")
    _platform(ladder, "box-1", "gpu")
    ladder.uses_["lonely-gpu"] = {}
    with pytest.raises(UsageError) as raised:
        ratio_rows(ladder, platform="gpu")
    assert str(raised.value) == "'gpu' is not a platform (a system record); platforms built on it: box-1, box-2"
    with pytest.raises(UsageError) as raised:
        ratio_rows(ladder, platform="lonely-gpu")
    assert str(raised.value) == "'lonely-gpu' is not a platform (a system record); `specdb list --kind system` lists the platforms"


def test_an_unknown_basis_is_refused():
    with pytest.raises(ValueError, match="basis must be one of per-direction, as-quoted"):
        ratio_rows(_ladder(), "both-ways")


@pytest.mark.parametrize("one, other, same", [
    ("total", "per-direction", True),
    ("per-direction", "per-direction", True),
    ("bidirectional", "bidirectional", True),
    ("total", "bidirectional", False),
    ("bidirectional", "per-direction", False),
])
def test_memory_totals_and_one_way_figures_share_a_basis_and_bidirectional_ones_do_not(one, other, same):
    assert same_basis(one, other) is same


def test_bandwidth_on_a_basis():
    both = Bandwidth(900e9, "bidirectional", "link", "per_accelerator_bandwidth")
    total = Bandwidth(3.35e12, "total", "gpu", "memory_bandwidth")
    assert (both.on("per-direction"), both.on("as-quoted")) == (450e9, 900e9)
    assert (both.counted("per-direction"), both.counted("as-quoted")) == ("per-direction", "bidirectional")
    assert (total.on("per-direction"), total.counted("per-direction"), total.counted("as-quoted")) == (3.35e12, "total", "total")


def _row(platform, vendor, cliff, flop_per_byte=None):
    return {"platform": platform, "vendor": vendor, "scale_up_to_scale_out": cliff, "bf16_flop_per_network_byte": flop_per_byte}


def test_trend_calls_a_change_within_five_percent_held():
    rows = [_row("p1", "V", 10), _row("p2", "V", 10.5), _row("p3", "V", 11.04), _row("p4", "V", 10.4), _row("p5", "V", 9.87)]
    # 10.5 / 10 = 1.05 held; 11.04 / 10.5 = 1.051 grew; 10.4 / 11.04 = 0.942 shrank; 9.87 / 10.4 = 0.949 shrank.
    assert trend(rows) == ["V node-edge cliff, scale-up / scale-out: 10x p1 -> 10.5x p2 (held) -> 11.04x p3 (grew) -> 10.4x p4 (shrank) -> 9.87x p5 (shrank)"]
    assert trend([_row("p1", "V", 10), _row("p2", "V", 9.5)]) == ["V node-edge cliff, scale-up / scale-out: 10x p1 -> 9.5x p2 (held)"]


def test_trend_compares_the_first_and_the_last_of_three_generations():
    rows = [_row("p1", "V", 8, 20000), _row("p2", "V", 12, 30000), _row("p3", "V", 16, 45000)]
    # 12 / 8 = 1.5 and 16 / 12 = 1.33 grew; 45,000 / 20,000 = 2.25, x2.2 to one decimal (half to even).
    assert trend(rows) == [
        "V node-edge cliff, scale-up / scale-out: 8x p1 -> 12x p2 (grew) -> 16x p3 (grew)",
        "V dense BF16 FLOP per byte of scale-out bandwidth: 20,000 (p1) -> 45,000 (p3), x2.2",
    ]


def test_trend_needs_two_platforms_with_a_cliff_per_vendor_and_two_with_flop_per_byte_for_its_second_line():
    rows = [
        _row("a1", "A", 8, 20000), _row("a2", "A", None, 30000), _row("a3", "A", 16, 45000),
        _row("b1", "B", 4, 1000),
        _row("c1", "C", 4, 1000), _row("c2", "C", 4),
    ]
    # A: a2 has no cliff, so the steps are a1 and a3; FLOP per byte 20,000 -> 45,000 is x2.2 (2.25 to one decimal).
    assert trend(rows) == [
        "A node-edge cliff, scale-up / scale-out: 8x a1 -> 16x a3 (grew)",
        "A dense BF16 FLOP per byte of scale-out bandwidth: 20,000 (a1) -> 45,000 (a3), x2.2",
        "C node-edge cliff, scale-up / scale-out: 4x c1 -> 4x c2 (held)",
    ]


@pytest.fixture(scope="module")
def database(tmp_path_factory):
    """The test data built into a database, with a second platform that gives no release date of its own."""
    folder = tmp_path_factory.mktemp("ladder")
    specs = folder / "specs"
    shutil.copytree(TEST_SPECS, specs)
    system = (specs / "system" / "test-system.yaml").read_text()
    (specs / "system" / "test-system-undated.yaml").write_text(system.replace("id: test-system", "id: test-system-undated").replace("released: 2022-09\n", ""))
    return open_fresh(folder / "specdb.sqlite", specs)


def test_a_platform_read_from_the_database_names_where_each_tier_comes_from(database):
    found = {platform.id: platform for platform in platforms(database)}
    system = found["test-system"]
    assert (system.name, system.vendor, system.released, system.accelerator) == ("Test System 8-GPU", "Test Vendor", "2022-09-01", "test-gpu")
    assert (system.scale_up_link, system.scale_out_fabric, system.domain_size, system.dense_bf16_flops) == ("test-link", "test-fabric", 8, 989e12)
    assert system.tiers["memory"] == Bandwidth(3.35e12, "total", "test-gpu", "memory_bandwidth")
    assert system.tiers["scale_up"] == Bandwidth(900e9, "bidirectional", "test-gpu", "scale_up_bandwidth")
    assert system.tiers["scale_out"] == Bandwidth(50e9, "per-direction", "test-system", "scale_out_bandwidth")


def test_a_platform_without_a_release_date_takes_its_accelerators(database):
    # test-gpu was released 2022-09: the undated platform sorts with it, after test-system by id.
    assert [(platform.id, platform.released) for platform in platforms(database)] == [
        ("test-system", "2022-09-01"), ("test-system-undated", "2022-09-01"),
    ]


def test_a_snapshot_of_specs_finds_a_platform_by_id_or_by_alias_in_any_case(specs):
    from specdb.load.dataset import load_specs
    from specdb.versions.snapshot import from_dataset

    system = specs / "system" / "test-system.yaml"
    system.write_text(system.read_text().replace("released: 2022-09\n", "released: 2022-09\naliases: [Test Box]\n"))
    snapshot = from_dataset(load_specs(specs), "the specs folder")
    assert [platform.id for platform in platforms(snapshot, platform="test-system")] == ["test-system"]
    assert [platform.id for platform in platforms(snapshot, platform="TEST BOX")] == ["test-system"]
    with pytest.raises(NotFound, match=r"^no record or alias 'test-box' in the specs folder$"):
        platforms(snapshot, platform="test-box")
