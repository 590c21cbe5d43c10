"""How names are compared: a name typed or written in a compatibility form (fullwidth 'Ｂ200', the ligature 'ﬁ')
is the name it stands for (Unicode NFKC), and case never matters.

One rule for lookups (`show Ｂ200` finds B200) and for validation (an alias 'Ｂ200' on another record is a look-alike).
"""

import unicodedata


def normal(name: str) -> str:
    """The name with compatibility forms replaced by what they stand for, case kept."""
    return unicodedata.normalize("NFKC", name)


def name_key(name: str) -> str:
    """What two names that mean the same share: NFKC, case folded, and NFKC again (folding can undo normal form)."""
    return normal(normal(name).casefold())


def is_look_alike(name: str) -> bool:
    """Whether the name is written in compatibility forms, so that it only looks like the name it stands for."""
    return normal(name) != name
