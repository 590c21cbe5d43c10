"""check.mentions, from its mutation survivors, on a lexicon of a few records written here so that every name it
should know, and every name it should not, is worked out by hand from the rules in the module's docstring.

The records: an H100 named with its vendor, form factor and memory, and an H100 PCIe whose short name is the same;
NVLink 4 and 5 of the NVLink family, each with its generation in words; InfiniBand NDR and HDR with their rates in
their names; an MI300X of the Instinct family; three parts of a family whose generations are the first, second and
eighth; three parts of no family: two whose model is written after a word, one whose name ends in "s"; and a B100
whose names give its form as SXM with no generation; UALink 1.0, of no family; and a Q7 whose name without its
vendor is two characters; and two Kilo K9s, one named with its maker and one with its vendor.
"""

import sqlite3

import pytest

from specdb.check.mentions import Lexicon, Mention, _nearest_first
from specdb.check.page import read_page

RECORDS = [
    ("gpu-h100", "NVIDIA H100 SXM5 80GB", "NVIDIA", "Hopper", ["H100 SXM", "H100"]),
    ("gpu-h100-pcie", "NVIDIA H100 PCIe", "NVIDIA", "Hopper", ["H100 PCIe"]),
    ("link-nv4", "NVIDIA NVLink 4 (fourth generation)", "NVIDIA", "NVLink", ["NVLink 4", "fourth-generation NVLink"]),
    ("link-nv5", "NVIDIA NVLink 5 (fifth generation)", "NVIDIA", "NVLink", ["NVLink 5", "fifth-generation NVLink"]),
    ("ib-ndr", "InfiniBand NDR (400 Gb/s)", "IBTA", "InfiniBand", ["NB"]),
    ("ib-hdr", "InfiniBand HDR (200 Gb/s)", "IBTA", "InfiniBand", []),
    ("amd-mi300x", "AMD Instinct MI300X, 2023", "AMD", "Instinct", ["7", "X"]),
    ("wx-1", "Widget WX1", None, "WX", ["first-generation WX"]),
    ("wx-2", "Widget WX2", None, "WX", ["second-generation WX"]),
    ("wx-8", "Widget WX8", None, "WX", ["eighth-generation WX"]),
    ("acme-z80", "Acme Big Z80", None, None, []),
    ("acme-9x", "Acme 9X", None, None, []),
    ("acme-nexus", "Acme Nexus", None, None, []),
    ("gpu-b100", "NVIDIA B100 SXM", "NVIDIA", None, []),
    ("link-ual1", "UALink 1.0", None, None, []),
    ("acme-q7", "Acme Q7", "Acme", None, []),
    ("acme-k9", "Acme Kilo K9", None, None, []),
    ("kco-k9", "KCo Kilo K9", "KCo", None, []),
]


def lexicon(records=RECORDS):
    connection = sqlite3.connect(":memory:")
    connection.execute("CREATE TABLE record (id TEXT, name TEXT, vendor TEXT, family TEXT, kind TEXT)")
    connection.execute("CREATE TABLE alias (alias TEXT, record_id TEXT)")
    for record_id, name, vendor, family, aliases in records:
        connection.execute("INSERT INTO record VALUES (?, ?, ?, ?, 'accelerator')", (record_id, name, vendor, family))
        connection.executemany("INSERT INTO alias VALUES (?, ?)", [(alias, record_id) for alias in aliases])
    return Lexicon(connection)


def found(lex, text):
    return [(mention.text, mention.records) for mention in lex.find(read_page(text, "text"))]


@pytest.fixture
def lex():  # built for each test, so that each test that reads it is one that the building of the lexicon is run for
    return lexicon()


# Names, their short forms and their spellings -----------------------------------------------------------------------

def test_a_name_in_full_an_alias_a_plural_and_a_possessive_name_the_record(lex):
    assert found(lex, "The NVIDIA H100 SXM5 80GB and the H100 SXM, H100s and H100's.") == [
        ("NVIDIA H100 SXM5 80GB", ("gpu-h100",)), ("H100 SXM", ("gpu-h100",)), ("H100s", ("gpu-h100",)), ("H100's", ("gpu-h100",))]


def test_a_name_without_its_vendor_form_factor_and_memory_names_the_record(lex):
    """ "NVIDIA H100 SXM5 80GB" -> without "NVIDIA", " 80GB" and " SXM5" (two suffixes, one after the other) -> "H100",
    which the H100 PCIe's short name also is: the H100's own alias "H100" decides."""
    assert found(lex, "An H100 here, an H100 PCIe there.") == [("H100", ("gpu-h100",)), ("H100 PCIe", ("gpu-h100-pcie",))]


def test_a_model_written_after_a_word_is_a_name_when_it_starts_with_a_letter_and_holds_a_digit(lex):
    """ "Widget WX1" -> "WX1"; "Acme Big Z80" -> "Big Z80" (all after the first word), "Z80" alone being no record's name;
    "Acme 9X" -> not "9X", which starts with a digit."""
    assert found(lex, "WX1, Big Z80, 9X and Acme 9X.") == [("WX1", ("wx-1",)), ("Big Z80", ("acme-z80",)), ("Acme 9X", ("acme-9x",))]


def test_a_name_without_its_vendor_before_a_name_without_its_first_word(lex):
    """ "KCo Kilo K9" without its vendor is "Kilo K9", which "Acme Kilo K9" (no vendor) is only without its first word."""
    assert found(lex, "Kilo K9") == [("Kilo K9", ("kco-k9",))]


def test_a_name_without_its_version_or_its_vendor(lex):
    assert found(lex, "UALink and Q7") == [("UALink", ("link-ual1",)), ("Q7", ("acme-q7",))]


def test_a_number_format_does_not_end_the_reading_of_model_numbers(lex):
    assert found(lex, "FP16 and H800") == [("H800", ())]


def test_a_name_that_ends_in_s_is_no_plural(lex):
    assert found(lex, "Acme Nexus") == [("Acme Nexus", ("acme-nexus",))]


def test_where_unheld_parts_and_model_numbers_are(lex):
    text = "GeForce RTX 4090 or H800"
    assert [(m.start, m.end) for m in lex.find(read_page(text, "text"))] == [(0, 16), (20, 24)]


def test_a_family_member_without_its_family_word(lex):
    assert found(lex, "NDR and HDR.") == [("NDR", ("ib-ndr",)), ("HDR", ("ib-hdr",))]


def test_a_name_cut_at_its_comma_and_its_family_word_names_the_record(lex):
    """ "AMD Instinct MI300X, 2023" -> "Instinct MI300X" -> without its family word, "MI300X"."""
    assert found(lex, "Instinct MI300X and MI300X.") == [("Instinct MI300X", ("amd-mi300x",)), ("MI300X", ("amd-mi300x",))]


def test_a_record_id_is_a_name_and_spaces_hyphens_and_case_may_differ(lex):
    assert found(lex, "gpu-h100, NVLink-5, NV Link 5, nvlink5 and NVLINK 5") == [
        ("gpu-h100", ("gpu-h100",)), ("NVLink-5", ("link-nv5",)), ("NV Link 5", ("link-nv5",)), ("nvlink5", ("link-nv5",)),
        ("NVLINK 5", ("link-nv5",))]


def test_a_two_letter_name_is_found(lex):
    assert found(lex, "NB is fast.") == [("NB", ("ib-ndr",))]


def test_a_name_of_one_character_or_of_digits_only_is_no_name(lex):
    assert found(lex, "7 X and 7.") == []


def test_a_name_several_records_share_is_their_family(lex):
    (nvlink, infiniband) = lex.find(read_page("NVLink over InfiniBand.", "text"))
    assert (nvlink.records, nvlink.known, nvlink.family) == (("link-nv4", "link-nv5"), True, True)
    assert (infiniband.records, infiniband.family) == (("ib-hdr", "ib-ndr"), True)
    (h100,) = lex.find(read_page("H100", "text"))
    assert (h100.known, h100.family) == (True, False)


# Versions and variants ----------------------------------------------------------------------------------------------

def test_a_version_after_a_name_is_the_record_of_that_version_or_unknown_hardware(lex):
    assert found(lex, "NVLink 6, NVLink Gen4, NVLink v5, NVLink 4.0 and NVLink 18 GPUs.") == [
        ("NVLink 6", ()), ("NVLink Gen4", ("link-nv4",)), ("NVLink v5", ("link-nv5",)), ("NVLink 4", ("link-nv4",)),
        ("NVLink", ("link-nv4", "link-nv5"))]  # "18 GPUs" is a count, not a version


def test_a_variant_none_of_the_records_names_has_is_unknown_hardware(lex):
    """NVL and 40GB are in none of the H100's names; SXM4 is the SXM form its SXM5 is; a possessive has no variant."""
    assert found(lex, "H100 NVL, H100 SXM4, H100's 80GB, H100 40GB.") == [
        ("H100 NVL", ()), ("H100", ("gpu-h100",)), ("H100's", ("gpu-h100",)), ("H100 40GB", ())]


def test_a_possessive_has_no_variant_however_its_apostrophe_is_written(lex):
    assert found(lex, "H100's NVL and H100’s NVL.") == [("H100's", ("gpu-h100",)), ("H100’s", ("gpu-h100",))]


def test_a_version_without_a_number_no_record_has_is_unknown_hardware(lex):
    assert found(lex, "InfiniBand XDR") == [("InfiniBand XDR", ())]


def test_an_sxm_form_of_any_generation_is_the_sxm_part(lex):
    assert found(lex, "B100 SXM4") == [("B100", ("gpu-b100",))]


def test_parts_no_record_is_and_model_numbers_no_record_claims(lex):
    """NDR400 is InfiniBand NDR, whose name gives 400 Gb/s; HDR100 is no record's (HDR's name gives 200)."""
    assert found(lex, "GeForce RTX 4090, NVSwitch 3.0, H800, FP8, HBM3, NDR400, HDR100, HDR200.") == [
        ("GeForce RTX 4090", ()), ("NVSwitch 3.0", ()), ("H800", ()), ("NDR400", ("ib-ndr",)), ("HDR100", ()),
        ("HDR200", ("ib-hdr",))]


def test_a_model_number_inside_a_known_name_is_not_read_again(lex):
    assert found(lex, "MI300X") == [("MI300X", ("amd-mi300x",))]


# Generations --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "InfiniBand and NVLink: its fifth-generation links.",
    "NVLink and then InfiniBand: its fifth-generation links.",  # the nearer family has no fifth generation
    "Its fifth-generation links: InfiniBand, and NVLink.",
])
def test_a_generation_is_of_the_nearest_family_that_has_it(lex, text):
    assert ("fifth-generation", ("link-nv5",)) in found(lex, text)


def test_a_generation_is_looked_for_in_its_own_paragraph_only(lex):
    assert found(lex, "NVLink.\n\nIts fifth-generation links.") == [("NVLink", ("link-nv4", "link-nv5"))]


def test_a_generation_inside_a_name_is_that_name(lex):
    assert found(lex, "NVLink and fifth-generation NVLink.") == [
        ("NVLink", ("link-nv4", "link-nv5")), ("fifth-generation NVLink", ("link-nv5",))]
    assert found(lex, "fifth-generation NVLink and NVLink.") == [
        ("fifth-generation NVLink", ("link-nv5",)), ("NVLink", ("link-nv4", "link-nv5"))]


def test_a_generation_after_one_inside_a_name_is_read(lex):
    assert found(lex, "NVLink: fifth-generation NVLink, then its fourth-generation links.") == [
        ("NVLink", ("link-nv4", "link-nv5")), ("fifth-generation NVLink", ("link-nv5",)), ("fourth-generation", ("link-nv4",))]


def test_a_generation_between_two_families_is_of_the_one_that_has_it(lex):
    assert ("fifth-generation", ("link-nv5",)) in found(lex, "InfiniBand, its fifth-generation links, and NVLink.")


@pytest.mark.parametrize("text", ["NVLink's fifth-generation links.", "NVLink’s fifth-generation links."])
def test_a_generation_of_a_family_named_in_the_possessive(lex, text):
    assert ("fifth-generation", ("link-nv5",)) in found(lex, text)


@pytest.mark.parametrize("record, before", [
    ("link-nv5", "link-nv4"), ("link-nv4", None), ("wx-2", "wx-1"), ("wx-1", None), ("wx-8", None), ("gpu-h100", None)])
def test_the_generation_before_a_record(lex, record, before):
    """NVLink 5's is NVLink 4's; no record is NVLink's third; the first has none (not the eighth); none is WX's seventh."""
    assert lex.previous_generation(record) == before


def test_names_nearest_an_offset_come_first_and_the_earlier_of_two_as_near():
    def at(start):
        return Mention(start, start + 1, "x", ("r",))
    assert [m.start for m in _nearest_first([at(0), at(5)], [at(12), at(30)], 10)] == [12, 5, 0, 30]
    assert [m.start for m in _nearest_first([at(0)], [at(20)], 10)] == [0, 20]
    assert [m.start for m in _nearest_first([at(8)], [at(20)], 10)] == [8, 20]
    assert [m.start for m in _nearest_first([], [at(20), at(30)], 10)] == [20, 30]
    assert [m.start for m in _nearest_first([at(0), at(5)], [], 10)] == [5, 0]
