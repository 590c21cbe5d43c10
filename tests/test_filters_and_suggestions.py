"""A filter or a choice the data does not know is refused with the closest words, one suggestion each."""

import json

import pytest

from specdb.suggest import closest


@pytest.mark.parametrize("args, expected", [
    (("query", "figures", "--vendor", "Test Vendr"), "--vendor 'Test Vendr' matches nothing in the data; did you mean 'Test Vendor'?"),
    (("query", "figures", "--name", "memory_bandwith"), "--name 'memory_bandwith' matches nothing in the data; did you mean 'memory_bandwidth'"),
    (("query", "ratios", "--vendor", "Test Vendr"), "did you mean 'Test Vendor'?"),
])
def test_a_misspelled_filter_is_a_usage_error_with_a_suggestion(cli, args, expected):
    result = cli(*args)
    assert result.exit_code == 2 and result.stdout == ""
    assert expected in result.stderr
    assert result.stderr.count("did you mean") == 1


def test_a_declared_name_the_data_lacks_is_an_empty_answer_not_an_error(cli):
    result = cli("query", "figures", "--name", "dense_fp4_flops", "-f", "json")
    assert result.exit_code == 0 and json.loads(result.stdout) == []


def test_a_wildcard_that_matches_nothing_is_refused_too(cli):
    result = cli("query", "figures", "--name", "%latency_zz")
    assert result.exit_code == 2 and "matches nothing in the data" in result.stderr


def test_a_misspelled_choice_names_the_closest_word(cli):
    result = cli("query", "figures", "--kind", "acelerator")
    assert result.exit_code == 2
    assert "did you mean 'accelerator'?" in result.stderr
    assert cli("query", "ratios", "--basis", "as-quotd").stderr.count("did you mean 'as-quoted'?") == 1


def test_suggestions_rank_a_name_that_starts_with_the_word_first():
    # "h100": "H100 SXM" starts with it, "HGX H100" contains it, "HGX A100" is only spelled alike.
    assert closest("h100", ["HGX A100", "HGX H100", "H100 SXM"]) == ["H100 SXM", "HGX H100", "HGX A100"]
    assert closest("zzzz", ["HGX A100", "H100 SXM"]) == []


def test_an_unknown_record_is_named_once_with_one_suggestion_per_record(cli):
    result = cli("show", "test gpu 80")
    assert result.exit_code == 2
    assert result.stderr.count("did you mean") == 1
    # The GPU's name and an alias both start with "testgpu80"; the GPU is suggested once, by the closer of the two,
    # and no record without the model number 80 is offered.
    assert "did you mean 'Test GPU 80GB'?" in result.stderr
    assert "HBM3" not in result.stderr


@pytest.mark.parametrize("args, suggestion", [(["lst"], "'list'"), (["query", "ratio"], "'ratios'"), (["plot", "ratio"], "'ratios'")])
def test_a_misspelled_command_gets_one_suggestion(cli, args, suggestion):
    result = cli(*args, data=False)
    assert result.exit_code == 2
    assert result.stderr.count("Did you mean") == 1 and f"Did you mean {suggestion}?" in result.stderr
