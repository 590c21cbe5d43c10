"""How a quote is found in a page, what a fingerprint ignores, where an address is read, and how a YAML value is set in place."""

from pathlib import Path

import pytest

from specdb.sources.fetch import is_folder_address, readable_address
from specdb.sources.text import (
    UnreadablePdf,
    contains_quote,
    fingerprint,
    html_text,
    normalise,
    pdf_text,
)
from specdb.format.yamledit import Edit, EditError, edited

PDF = Path(__file__).parent / "data" / "sources" / "datasheet.pdf"


@pytest.mark.parametrize(("page", "quote"), [
    ("NVLink \u2014 up to 900\u00a0GB/s", "NVLink - up to 900 GB/s"),  # em dash and no-break space
    ("the \u201cSXM5\u201d module", 'the "SXM5" module'),  # curly double quotes
    ("NVIDIA\u2019s H100", "NVIDIA's H100"),  # curly apostrophe
    ("Memory   Bandwidth\n\t3.35TB/s", "memory bandwidth 3.35TB/s"),  # runs of whitespace, case
    ("| 8G                   | 478.87            |", "| 8G | 478.87 |"),  # a Markdown table row, padded
    ("**BF16** Tensor Core 1,979 teraFLOPS*", "BF16 Tensor Core 1,979 teraFLOPS*"),  # emphasis around a word
    ("\uff13.35 TB/s", "3.35 TB/s"),  # a fullwidth digit (NFKC)
])
def test_a_quote_is_found_across_typography_spacing_and_case(page, quote):
    assert contains_quote(normalise(page), quote)


@pytest.mark.parametrize(("page", "quote"), [
    ("up to 900 GB/s", "up to 1800 GB/s"),
    ("3.35 TB/s", "3.36 TB/s"),
    ("anything", "  **  "),  # a quote of markup alone is found nowhere
])
def test_a_quote_with_other_words_or_numbers_is_not_found(page, quote):
    assert not contains_quote(normalise(page), quote)


def test_html_is_read_as_its_visible_text_without_scripts_or_styles():
    text = html_text("<head><script>var a = 'hidden words';</script><style>p {}</style></head><p>Peak&nbsp;memory</p><td>3.35</td><td>TB/s</td>")
    assert "hidden" not in text and "p {}" not in text
    assert normalise(text) == "peak memory 3.35 tb/s"


def test_the_fingerprint_changes_with_the_words_only():
    assert fingerprint("Up to 900 GB/s\n") == fingerprint("up  to\u00a0900 GB/s")
    assert fingerprint("Up to 900 GB/s") != fingerprint("Up to 1800 GB/s")
    assert fingerprint("").startswith("sha256:") and len(fingerprint("")) == len("sha256:") + 64


def test_a_pdf_is_read_as_its_text_and_a_damaged_one_is_refused():
    assert "Peak memory bandwidth 3.35 TB/s per accelerator" in pdf_text(PDF.read_bytes())
    with pytest.raises(UnreadablePdf):
        pdf_text(b"%PDF-1.4\nnot a PDF at all")


def test_a_file_github_shows_is_read_raw_and_a_folder_is_known_as_one():
    blob = "https://github.com/aws-neuron/aws-neuron-sdk/blob/1db4d74/about-neuron/arch/neuron-hardware/trainium.rst"
    assert readable_address(blob) == "https://raw.githubusercontent.com/aws-neuron/aws-neuron-sdk/1db4d74/about-neuron/arch/neuron-hardware/trainium.rst"
    assert readable_address(blob + "#L10") == readable_address(blob)
    assert readable_address("https://github.com/NVIDIA/nccl-tests/issues/212") == "https://github.com/NVIDIA/nccl-tests/issues/212"
    assert is_folder_address("https://github.com/mlcommons/inference_results_v4.1/tree/main/closed/NVIDIA/systems")
    assert not is_folder_address(blob)


RECORD = """\
schema: 1   # version
id: probe
figures:
  memory_bandwidth:
    reviewed: 2026-07-15    # by hand
    note: >-
      Folded text
      over two lines.

    sources:
      - ref: a-source
        quote: 'single-quoted'
      - {ref: b-source, quote: "flow"}
"""


def test_a_value_is_replaced_in_place_keeping_its_comment():
    after = edited(RECORD, [Edit(("figures", "memory_bandwidth", "reviewed"), "2026-12-02")])
    assert after == RECORD.replace("reviewed: 2026-07-15    # by hand", "reviewed: 2026-12-02    # by hand")


def test_a_folded_value_is_replaced_and_the_blank_line_after_it_kept():
    after = edited(RECORD, [Edit(("figures", "memory_bandwidth", "note"), "One line.")])
    assert after == RECORD.replace(">-\n      Folded text\n      over two lines.\n", '"One line."\n')


def test_a_new_key_goes_after_its_sibling_at_its_indentation():
    after = edited(RECORD, [Edit(("figures", "memory_bandwidth", "sources", 0, "note"), "checked: yes", after=("quote", "ref"))])
    assert after == RECORD.replace("        quote: 'single-quoted'\n", "        quote: 'single-quoted'\n        note: \"checked: yes\"\n")


def test_words_yaml_would_read_as_another_type_are_quoted():
    after = edited(RECORD, [Edit(("figures", "memory_bandwidth", "reviewed"), "null")])
    assert 'reviewed: "null"' in after


def test_an_edit_the_layout_does_not_allow_is_refused():
    with pytest.raises(EditError, match="written on one line"):
        edited(RECORD, [Edit(("figures", "memory_bandwidth", "sources", 1, "note"), "x", after=("ref",))])
    with pytest.raises(EditError, match="no figures.peak_power"):
        edited(RECORD, [Edit(("figures", "peak_power", "reviewed"), "2026-12-02")])
    with pytest.raises(EditError, match="no place for 'accessed'"):
        edited(RECORD, [Edit(("accessed",), "2026-12-02", after=("url",))])
