"""How names are compared: a name typed or written in a compatibility form (fullwidth 'Ｂ200', the ligature 'ﬁ')
is the name it stands for (Unicode NFKC), and case never matters.

One rule for lookups (`show Ｂ200` finds B200) and for validation (an alias 'Ｂ200' on another record is a look-alike).
"""

import re
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


def loose_key(name: str) -> str:
    """The name's letters and digits only, case folded: spacing, `-`, `_` and other punctuation never tell two names apart."""
    return "".join(char for char in name_key(name) if char.isalnum())


def words(name: str) -> tuple[str, ...]:
    """The name's words, case folded, split at anything but a letter or digit ('NVIDIA A100-SXM4-80GB': nvidia, a100, sxm4, 80gb)."""
    return tuple(re.findall(r"[^\W_]+", name_key(name)))


def model_numbers(name: str) -> set[str]:
    """The words that hold a digit ('h200', 'sxm4', '80gb'): what tells one part from its neighbours (H20 and H200, 40 GB and 80 GB)."""
    return {word for word in words(name) if any(char.isdigit() for char in word)}


_ELLIPSIS = re.compile(r"(?:\.\.\.|…)\s*$")


def truncated(name: str) -> str | None:
    """The start of a name a tool cut short with an ellipsis ('NVIDIA A100-SXM...', as older nvidia-smi tables print it), else None."""
    match = _ELLIPSIS.search(name)
    return name[:match.start()] if match and match.start() > 0 else None


_PCI_PAIR = re.compile(r"^(?:0x)?([0-9a-f]{4})[:\s]+(?:0x)?([0-9a-f]{4})$")
_PCI_NVSMI = re.compile(r"^0x([0-9a-f]{4})([0-9a-f]{4})$")


def pci_id(name: str) -> str | None:
    """A PCI id as vendor:device ('10de:2335') from the forms tools print it in: lspci's '10de:2335' and nvidia-smi's
    device-then-vendor '0x233510DE'; None for anything else."""
    text = name_key(name).strip()
    match = _PCI_PAIR.match(text)
    if match:
        return f"{match[1]}:{match[2]}"
    match = _PCI_NVSMI.match(text)
    return f"{match[2]}:{match[1]}" if match else None


# What tools print around a name: nvidia-smi -L's "GPU 0: ... (UUID: GPU-...)", PyTorch collect_env's
# "AMD Instinct MI300X (gfx942:sramecc+:xnack-)", and the feature flags of a ROCm gcnArchName ("gfx942:sramecc+:xnack-").
_DECORATIONS = (
    re.compile(r"^\s*GPU \d+:\s*"),
    re.compile(r"\s*\(UUID: [^)]*\)\s*$"),
    re.compile(r"\s*\(gfx[0-9a-f]+(?::[\w-]+[+-])*\)\s*$", re.IGNORECASE),
    re.compile(r"(?<=^gfx[0-9a-f]{3})(?::[\w-]+[+-])+\s*$", re.IGNORECASE),
)


def undecorated(name: str) -> str:
    """The name without what a tool prints around it (device index, UUID, a ROCm target in parentheses, target features)."""
    for decoration in _DECORATIONS:
        name = decoration.sub("", name)
    return name


_VARIANT = re.compile(r"nvl\d*|pcie|sxm\d?|oam|\d+gb")


def variant_words(name: str) -> set[str]:
    """The words that name a form factor or memory size ('nvl', 'pcie', 'sxm5', 'oam', '40gb'): a part's variant, which
    is another part when a record's names lack it (an H100 NVL is not the H100 SXM)."""
    return {word for word in words(name) if _VARIANT.fullmatch(word)}
