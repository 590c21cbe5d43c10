"""The figure names the code reads by name are constants, each declared in the vocabulary."""

from specdb.format import figure_names
from specdb.format.vocabulary import FIGURES


def test_every_constant_is_a_declared_figure_name_spelt_as_its_constant():
    constants = {name: value for name, value in vars(figure_names).items() if name.isupper()}
    assert len(constants) >= 18
    for name, value in constants.items():
        assert value in FIGURES, name
        assert value == name.lower(), name
