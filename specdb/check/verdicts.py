"""Check the hardware figures in prose against the database: each claim is ok, a mismatch, stale, counted ambiguously or on mixed bases, or unmatched.

A claim is matched to a figure through the hardware named nearest to it: in
its own words, its sentence, its paragraph, the paragraph before, a figure
the page gave earlier, the record the page names most; a record named in the
sentence decides, one named further away counts only when a figure of it
agrees. A quantity that names no hardware and repeats nothing on the page is
not reported. Values agree when they differ by no more than half a unit of
the last digit written, and by at most 2.5%.
"""

from __future__ import annotations

import datetime as dt
import math
import re
import sqlite3
from bisect import bisect_left, bisect_right, insort
from dataclasses import asdict, dataclass, field, replace
from itertools import islice, pairwise
from typing import Any

from specdb.check.claims import (
    BIDIRECTIONAL,
    NUMBER_FORMATS,
    PER_DIRECTION,
    UNIT_SPELLINGS,
    Claim,
    extract,
)
from specdb.check.claims import JOINER as _JOINER
from specdb.check.mentions import Lexicon, Mention
from specdb.check.page import Page, Span, detect_format, read_page, review_date
from specdb.db.catalog import every_claim, every_figure, record_kinds, record_uses, record_vendors
from specdb.format import figure_names
from specdb.format.counting import Bandwidth, same_basis
from specdb.format.units import UNITS, decimal_counterpart

FORMATS = ("text", "json", "markdown")
# The largest page checked, in bytes: far above any page of prose (a long article is 100 kB). Checking costs time
# and memory in step with a page's length, up to about 40 us and 160 bytes a byte for text dense with figures.
MAX_PAGE_BYTES = 2 * 1024 * 1024
VERDICTS = ("ok", "mismatch", "stale", "ambiguous-basis", "mixed-basis", "unmatched")
FAILING = ("mismatch", "stale", "mixed-basis")
STRICT_FAILING = (*FAILING, "ambiguous-basis", "unmatched")
_DIRECTED = ("per-direction", "bidirectional")
_LONGEST_NAME = 200  # characters; a name ending right before a number starts no further back than this
_RATIO_TOLERANCE = 0.01
_SAME_BASIS_PREFERENCE = 0.1
_ROUNDING_CAP = 0.025
# A value this far from a figure counted either way (a factor of 1.9, in either direction) is read as another
# quantity, not a wrong value of that one: typing and rounding errors, and stale figures, stay well within it.
# A count is never so read: a wrong number of GPUs is a wrong number.
_ANOTHER_QUANTITY = math.log(1.9)
_FLOATING_POINT = 1e-6
# How far the checker looks for the words and figures a claim is read with, so that a page costs time in proportion
# to its length: the names nearest a claim on each side, the earlier figures a ratio may divide, and the values
# near a claim's that it may repeat. Far more than an ordinary page puts in one paragraph.
_NEAREST_NAMES = 32
_EARLIER_FIGURES = 200
_REPEAT_CANDIDATES = 100

_TOPICS = (
    ("memory", re.compile(r"\bHBM\w*|\bmemory\b|\bVRAM\b", re.IGNORECASE)),
    ("host", re.compile(r"\bPCIe\b|\bPCI Express\b|\bhost[\s-]link\b", re.IGNORECASE)),
    ("scale_out", re.compile(r"\bnetwork\w*|\bInfiniBand\b|\bIB\b|\bRoCE\b|\bEthernet\b|\bscale-out\b|\binter-node\b|\bbetween (?:servers|nodes)\b|\bNICs?\b|\b[HNX]DR\b|\bConnectX|\bSuperNIC\b|\d+G(?:bE)?\b", re.IGNORECASE)),
    ("scale_up", re.compile(r"\bNVLink\w*|\bscale-up\b|\bGPU-to-GPU\b|\bchip-to-chip\b|\bICI\b|\bInfinity Fabric\b|\bxGMI\b|\bUALink\b|\bNVSwitch\b", re.IGNORECASE)),
    ("compute", re.compile(r"\bFLOP\w*|\bcompute\b", re.IGNORECASE)),
    ("utilization", re.compile(r"\bMFU\b|\butili[sz]ation\b", re.IGNORECASE)),
    ("latency", re.compile(r"\blatency\b", re.IGNORECASE)),
)
# The figure that stands for a tier when the text names the tier but gives no number ("faster than HBM"), as in the tier model.
_TIER_FIGURES = {
    "memory": (figure_names.MEMORY_BANDWIDTH,),
    "scale_up": (figure_names.SCALE_UP_BANDWIDTH, figure_names.PER_ACCELERATOR_BANDWIDTH),
    "scale_out": (figure_names.SCALE_OUT_BANDWIDTH, figure_names.PORT_BANDWIDTH),
}
# Dimensions for which a named record without such a figure is reported as unmatched, rather than passed over.
_NAMED_DIMENSIONS = ("bandwidth", "compute", "power", "frequency", "transfer_rate")
# Dimensions whose figures change from one generation of a family to the next.
_GENERATIONAL = ("bandwidth", "compute")
# Kinds of figure that are a hardware's whatever the words around them (unlike sizes, counts and ratios, which are as often
# a model's, a job's or a cluster's): unmatched, not passed over, where no part the data holds can be named for them.
_UNPLACED_DIMENSIONS = ("bandwidth", "compute", "power", "time")
_FORMATS = NUMBER_FORMATS
# A format is a word of its own, or of a code name ("B200_FLOPS_FP16_TENSOR": the underscore separates words there).
_PRECISION = re.compile(rf"(?<![^\W_])({_FORMATS})(?![^\W_])", re.IGNORECASE)
# A format after a rate, or one or two words after it ("432 TFLOPS na matriz BF16", "989 TFLOPS of dense BF16"), is its own,
# unless a word joining another figure comes between ("989 TFLOPS and FP8 ...").
_FORMAT_AFTER = re.compile(rf"[ \t]*(?:(?!(?:and|or|vs|versus|while|but|than|e|y|und|et|ou|o)\b)[^\W\d_]+[ \t]+){{0,2}}?[(\[]?[ \t]*"
                           rf"(?P<format>{_FORMATS})\b", re.IGNORECASE)
_FORMAT_BEFORE = re.compile(rf"\b(?P<format>{_FORMATS})[ \t]*[:=]?[ \t]*(?:\*\*)?[ \t]*$", re.IGNORECASE)
# Sparsity, unless denied ("without sparsity", "w/o sparsity", "non-sparse", "no sparsity": the dense rate).
_FORMAT_PAIR = re.compile(rf"(?<![^\W_])({_FORMATS})[ \t]*/[ \t]*({_FORMATS})(?![^\W_])", re.IGNORECASE)
_DENIAL_REACH = 30  # characters before "sparsity" in which a denial of it is looked for
_SPARSITY_DENIED = re.compile(r"\b(?:without|w/o|excluding|excl\.|no|not\s+(?:a|an|the)?|support\s+for|supports)\b[^.;\n]*$", re.IGNORECASE)
_SPARSE = re.compile(r"(?<!\bwithout )(?<!\bw/o )(?<!\bno )(?<!\bnon-)(?<!\bnon )(?<![^\W_])(?:sparse|sparsity)(?![^\W_])", re.IGNORECASE)
# A clause that reports a run rather than a rating (a tool's report, what is "actually" seen): its figures are measurements, judged only against measured figures.
_MEASURED = re.compile(r"\bbenchmark|\bactual(?:ly)?\b|\bobserved\b|\bin practice\b|\bwe (?:got|get|see|saw)\b"
                       r"|\bnvbandwidth\b|\bbandwidthTest\b|\bbusbw\b|\balgbw\b|\bib_(?:write|read|send)_bw\b|\biperf"
                       r"|\bbus\s+bandwidth\b|\balgo(?:rithm)?\s+bandwidth\b|\b(?:all_reduce|all_gather|reduce_scatter|alltoall|sendrecv)_perf\b"
                       r"|\bnccl-tests\b", re.IGNORECASE)
# A sentence that tells of a run of the writer's own ("we run DeepEP's test", "I only achieved", "was able to achieve"):
# its figures are measurements, unless a figure's own words call it the rating.
# ("The H100 achieves 3.35 TB/s" is a vendor's rating: a run is the writer's own, or someone "able to achieve" it.)
_RUN = re.compile(r"\b(?:we|I)\s+(?:(?:only|just|then|also|am|are|was|were|have|had|could)\s+){0,2}"
                  r"(?:run|ran|running|measured|tested|benchmarked|achieved?|get|got|reached)\b"
                  r"|\bable\s+to\s+(?:achieve|get|reach)\b|\bnccl-tests\b", re.IGNORECASE)
# The words that call a figure a rating rather than a run ("out of the marketed theoretical 900GB/s", "450GB/s theoretical").
_RATED = re.compile(r"\btheoretical(?:ly)?\b|\bmarketed\b|\badvertised\b|\brated\b|\bnominal\b|\bon\s+paper\b|\bspec(?:s|ification)?\b",
                    re.IGNORECASE)
# A value the text sets aside ("has 72 GPUs, not 128 GPUs"): no claim about the hardware.
_REJECTED = re.compile(r"\bnot\s+(?:the\s+)?[~≈]?$", re.IGNORECASE)
# A part of a system a count may be of instead of the system ("36 GB200 superchips where one Grace CPU and two Blackwell GPUs").
_SUB_UNIT = re.compile(r"\b(?:superchips?|trays?|boards?|baseboards?|blades?|modules?|nodes?|servers?|each|per)\b", re.IGNORECASE)
_OUT_OF = re.compile(r"\bout\s+of\b", re.IGNORECASE)
_ROUGHLY = re.compile(r"(?:\b(?:roughly|about|around|approximately|nearly|almost|close\s+to)|[~≈])\s*(?:\*\*)?\s*$", re.IGNORECASE)
_VERSUS = re.compile(r"\d[\d.,]*\s*(?:[A-Za-z/]+\s*)?(?:vs\.?|versus)\s*$", re.IGNORECASE)
# What a run reaches or is expected to reach ("should reach", "only got", "we see", "results"): a figure below the rating in
# such words is a throughput, which no rating contradicts.
_REACHED = re.compile(r"\b(?:only|can|could|should|would|will|to|we|I|you|they|it|still)\s+(?:\w+\s+)?(?:achiev\w*|reach\w*|get|got|attain\w*"
                      r"|sustain\w*|see|saw|hit|peak(?:s|ed)?\s+at)\b|\b(?:measured|observed|tested|results?|runs?|ran|achieved|attained"
                      r"|reached|sustained|throughput|p2p|bandwidthTest|nvbandwidth|nccl-tests|busbw|algbw|bus\s*bw)\b", re.IGNORECASE)
# A count bounded, not stated ("scaling beyond 10,000 GPUs", "more than 256 GPUs", "thousands of GPUs"): no count any record
# holds. ("Up to 576 GPUs" is a domain's largest size, which records hold.)
_BOUND = re.compile(r"(?:\b(?:beyond|over|above|more\s+than|at\s+least|exceeding|past|scal(?:e|es|ed|ing)\s+to"
                    r"|(?:tens|hundreds|thousands)\s+of)|[>≥])\s*[~≈]?\s*$", re.IGNORECASE)
# What a multiple of performance compares, not a multiple of a figure ("5X faster in certain operations", "3x faster LLM
# training"): no ratio of held figures.
_SPEED = re.compile(r"\s*(?:\*\*)?\s*(?:faster|slower|quicker|speed-?ups?|better|(?:higher\s+|more\s+)?performance)\b", re.IGNORECASE)
_WORKLOAD = re.compile(r"\b(?:training|inference|operations?|workloads?|performance|tokens?|latency|speed-?ups?|jobs?|models?"
                       r"|applications?|tasks?|queries|requests|users|price|costs?|efficiency|power|energy)\b", re.IGNORECASE)
# Kinds of figure that no record holds, named by the words of a claim.
_EFFECTIVE = "an effective or achieved throughput"
_PIN_RATE = "a memory pin rate"
_TOTAL = re.compile(r"\btotal\b", re.IGNORECASE)
_LONGEST_LATENCY = 1e-3  # seconds
_PIN_WORDS = re.compile(r"\bper[\s-]pin\b|\bpin\s+(?:speed|rate)\b|/pin\b", re.IGNORECASE)
_MEMORY_WORDS = re.compile(r"\bHBM\w*|\bGDDR\w*|\bmemory\b|\bDRAM\b|显存|記憶體|メモリ|메모리", re.IGNORECASE)
_UNHELD_KINDS = (
    ("a cache or on-chip memory", re.compile(r"\bcache\b|\bL[123]\b|\bSRAM\b|\bSMEM\b|\bshared memory\b|\bregister", re.IGNORECASE)),
    (_EFFECTIVE, re.compile(r"\beffective\b|\bachievable\b|\bachieved\b|\busable\b|\breal-world\b|\bgoodput\b"
                            r"|有效带宽|有效帶寬|实际带宽|實際頻寬|実効帯域|実効バンド幅|실효\s?대역폭|\beffektive[nr]?\b|\befectivo\b|\beffectif\b",
                            re.IGNORECASE)),
    (_PIN_RATE, re.compile(rf"{_PIN_WORDS.pattern}|\bdata\s+rate\b", re.IGNORECASE)),
    ("an in-network reduction bandwidth", re.compile(r"\breduction\s+bandwidth\b", re.IGNORECASE)),
    # B200's two dies joined at 10 TB/s (NV-HBI), Grace and Blackwell over NVLink-C2C: links inside a package or a board.
    ("a die-to-die or chip-to-chip link", re.compile(r"\bdie[\s-]to[\s-]die\b|\bNV-?HBI\b|\bdual[\s-]die\b|\binter-?die\b|\bchip[\s-]to[\s-]chip\b",
                                                     re.IGNORECASE)),
)
# A bisection bandwidth is held by no record; pages also call a system's aggregate so ("130 TB/s of aggregate bisection
# bandwidth"), so the word makes unmatched only a figure that does not agree.
_PRODUCT_COUNT = re.compile(r"[A-Z][A-Za-z]*\d")  # "8× H100", "two B200s": a count of a named part
_COUNTING_KINDS = ("system", "cluster")
_BISECTION = re.compile(r"\bbisection\b", re.IGNORECASE)
_NOT_HARDWARE_SIZE = re.compile(r"\bmessages?\b|\bbuffers?\b|\bpayloads?\b|\bchunks?\b|\btensors?\b(?![\s-]+cores?\b)|\bgradients?\b|\bweights\b|\bKV\b|\bcheckpoints?\b", re.IGNORECASE)
# What a percentage may be a share of, for it to be judged: a utilisation or an efficiency.
_SHARE_OF = re.compile(r"\bMFU\b|\butili[sz]ation\b|\befficien|\bencoding\b|\boverhead\b|\bof\s+(?:peak|the\s+peak)\b", re.IGNORECASE)
# "6.25 x 8 = 50GBps": the result of the text's own arithmetic on bare numbers.
_PRODUCT_OF = re.compile(r"\d(?:[\d.,]*)\s*[x×*/÷]\s*\d[\d.,]*\s*[=≈]\s*[~≈]?\s*$")
_RESULT = re.compile(r"\s*[=≈]\s*[~≈]?\s*$")
_PREDECESSOR = re.compile(r"\b(?:previous|prior|preceding|last)\s+generation\b|\bpredecessor\b", re.IGNORECASE)
_PREDECESSOR_REACH = 80  # characters after a ratio in which its comparison with the generation before is looked for
# "2.3× the FP8 compute of H100": a ratio to a named part's figure of a named kind.
_OF_PART = re.compile(r"\s+the\s+(?:(?P<precision>FP8|BF16|FP16|FP4|INT8)\s+)?(?P<kind>compute|memory bandwidth|bandwidth|memory)\s+of\s+(?:the\s+)?",
                      re.IGNORECASE)
_DOMAIN = re.compile(r"\bdomains?\b", re.IGNORECASE)
_REDUCTION = re.compile(r"\b(?:SHARP|NVLS|reductions?)\b", re.IGNORECASE)
_CHANGED_TO = re.compile(r"(?<!up )\bto\s*[~≈]?\s*$")
_CHANGED_FROM = re.compile(r"\bfrom\s*[~≈]?\s*$")
_COMPARISON = re.compile(r"\b(?:than|against|versus|vs\.?|compared (?:to|with))\b", re.IGNORECASE)
# The words that introduce what a sentence compares its part against ("versus the MI300X's", "than H100", "an upgrade to the
# MI300X"), and where that phrase ends: a part named in it is the other side, not the part of a figure outside it.
_COMPARAND = re.compile(r"\b(?:than|versus|vs\.?|compared\s+(?:to|with)|relative\s+to|(?:upgrade|successor|step\s+up)\s+(?:to|from|over)"
                        r"|(?:evolution|derivative|refresh)\s+of|same\s+(?:[\w-]+\s+){0,4}?as"
                        r"|(?:increase|improvement|gain|jump|boost|uplift)\s+(?:over|from|on)"
                        # "(double the memory capacity of H100)", "succeeds the Gaudi 2", Portuguese and Spanish "sucede ao Gaudi 2"
                        r"|(?:double|twice|triple|half)\s+(?:the\s+)?(?:[\w-]+\s+){0,3}?(?:of|that\s+of)|succeeds|successor\s+(?:to|of)"
                        r"|sucede\s+(?:ao?|al)|sucesor\s+de[l]?)\b"
                        # Chinese, Japanese and Korean write "than" inside words: 比上一代 H100 快, H100 より, H100 대비.
                        r"|相比|相较|对比|比较|比(?![如例率])|較|较|より|と比べ|대비|보다", re.IGNORECASE)
# The kind of figure a percentage increase names: "76% more memory", "43% higher bandwidth", "a 33% increase in VRAM".
_PERCENT_OF = re.compile(r"\s+(?:more|higher|greater|larger|bigger|increase|gain|jump|uplift|boost|improvement)\s+(?:(?:in|of)\s+)?"
                         r"(?:(?:HBM|memory|VRAM)\s+)?(?P<kind>memory|capacity|VRAM|bandwidth)\b", re.IGNORECASE)
# What a row of such a table puts between its figures: spaces, a pipe, a word of a unit or kind ("HBM3E", "(estimated)").
_BETWEEN_FIGURES = re.compile(r"[\s|]*(?:[^\s|.,;:]{1,12}[\s|]*)?")
_BETWEEN_NAMES = re.compile(r"[\s|/,]*(?:(?:vs\.?|and)[\s|/,]*)?", re.IGNORECASE)
_RATIO_OF = re.compile(r"\s+(?:that\s+of\s+)?(?:the\s+)?")
_BRACKETED = re.compile(r"\s*\([^()]{0,80}\)")
_COMPARAND_REACH = 200  # characters: a phrase naming what is compared against is short
_COMPARAND_END = re.compile(r"[,;:()\[\]—–\n，；：（）。、]|\s-\s")


@dataclass(frozen=True)
class Figure:
    id: int
    record_id: str
    kind: str
    name: str
    value: float
    value_text: str
    dimension: str
    direction: str | None
    scope: str | None
    precision: str | None
    as_of: str
    timeline: tuple[tuple[float, str, str], ...]  # (value, value as written, as_of), oldest first, the current value last
    alternatives: tuple[tuple[float, str, str], ...]  # (value, value as written, reason)

    @property
    def label(self) -> str:
        return f"{self.record_id}.{self.name}"


@dataclass
class Finding:
    """One claim and its verdict; `expected` is the figure's value as stored, `suggestion` a correction in the text's own unit and basis."""

    path: str
    line: int
    column: int
    claim: str
    verdict: str
    record_id: str | None
    figure: str | None
    expected: str | None
    basis: str | None
    note: str
    suggestion: str | None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def __str__(self) -> str:
        held = f" = {self.expected}" if self.expected else ""
        target = f" → {self.record_id + '.' if self.record_id else ''}{self.figure}{held}" if self.figure else ""
        basis = f" ({self.basis})" if self.basis else ""
        hint = "; ".join(part for part in (self.note, f"write {self.suggestion}" if self.suggestion else "") if part)
        return f"{self.path}:{self.line}:{self.column}: {self.verdict}: \"{self.claim}\"{target}{basis}{f' [{hint}]' if hint else ''}"


@dataclass
class _Operand:
    """One side of a ratio: as the text counts it, and counted one way."""

    quoted: float
    one_way: float
    direction: str | None
    label: str
    dimension: str


@dataclass
class _Resolved:
    """A claim matched to a figure, and what it contributes to a ratio."""

    figure: Figure
    operand: _Operand


class _Marks:
    """Where patterns match on the whole page, found once and then looked up in any stretch of it by bisection."""

    def __init__(self, marks: list[tuple[int, str, int]]):  # (start, what matched, end)
        self.marks = sorted(marks)
        self.starts = [mark[0] for mark in self.marks]

    def within(self, start: int, end: int) -> list[tuple[int, str, int]]:
        """The marks inside [start, end), in reading order."""
        return [mark for mark in self.marks[bisect_left(self.starts, start):bisect_left(self.starts, end)] if mark[2] <= end]

    def last(self, start: int, end: int, before: int) -> tuple[int, str, int] | None:
        """The last mark inside [start, end) that starts before an offset."""
        at = bisect_left(self.starts, before) - 1
        while at >= 0 and self.starts[at] >= start:
            if self.marks[at][2] <= end:
                return self.marks[at]
            at -= 1
        return None

    def first(self, start: int, end: int) -> tuple[int, str, int] | None:
        """The first mark inside [start, end)."""
        at = bisect_left(self.starts, start)
        while at < len(self.marks) and self.starts[at] < end:
            if self.marks[at][2] <= end:
                return self.marks[at]
            at += 1
        return None


def _marks(text: str, patterns, stretches: list[tuple[int, int]]) -> _Marks:
    """Matches of (label, pattern) pairs inside the stretches; a label of None marks a match with its own text, casefolded."""
    return _Marks([(match.start(), label or match.group().casefold(), match.end())
                   for start, end in stretches for label, pattern in patterns for match in pattern.finditer(text, start, end)])


def _read_around(page: Page, claims: list[Claim]) -> list[tuple[int, int]]:
    """The stretches a claim's words are looked for in, merged: its paragraph and the one before, and the header, row
    label and caption of its table cell. A page of prose with few figures is read for words only there."""
    spans: list[tuple[int, int]] = []
    for claim in claims:
        number = page.paragraph_of(claim.start)
        spans.append((page.paragraphs[max(number - 2, 0)].start, page.paragraphs[number].end))
        spans += [(span.start, span.end) for span in _inherited(page, claim)]
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


class _Stretches:
    """Stretches of text, merged, so that whether one covers an offset is a bisection."""

    def __init__(self, spans: list[tuple[int, int]]):
        self.starts: list[int] = []
        self.ends: list[int] = []
        for start, end in sorted(span for span in spans if span[0] < span[1]):
            if self.ends and start <= self.ends[-1]:
                self.ends[-1] = max(self.ends[-1], end)
            else:
                self.starts.append(start)
                self.ends.append(end)

    def cover(self, offset: int) -> bool:
        at = bisect_right(self.starts, offset) - 1
        return at >= 0 and offset < self.ends[at]


_NOTHING = _Stretches([])


class _Repeats:
    """The figures matched so far, by dimension and value, so that a claim repeating one is found without reading them all."""

    def __init__(self) -> None:
        self.values: dict[str, list[float]] = {}
        self.first: dict[str, dict[float, tuple[int, Figure]]] = {}  # value -> (order of first match, figure)

    def add(self, dimension: str, value: float, figure: Figure) -> None:
        figures = self.first.setdefault(dimension, {})
        if value not in figures:
            figures[value] = (len(figures), figure)
            insort(self.values.setdefault(dimension, []), value)

    def find(self, claim: Claim) -> Figure | None:
        """The figure first matched to an earlier value the claim's value agrees with; such values lie within 2.5% of it."""
        values = self.values.get(claim.dimension)
        if not values:
            return None
        low = bisect_left(values, claim.value / (1 + _ROUNDING_CAP + 2 * _FLOATING_POINT))
        high = bisect_right(values, claim.value / (1 - _ROUNDING_CAP - 2 * _FLOATING_POINT))
        figures = self.first[claim.dimension]
        agreeing = [figures[value] for value in values[low:min(high, low + _REPEAT_CANDIDATES)] if _agrees(claim, value)]
        return min(agreeing, key=lambda entry: entry[0])[1] if agreeing else None


@dataclass
class _PageState:
    page: Page
    claims: list[Claim]
    mentions: list[Mention]
    reviewed: dt.date | None
    resolved: dict[int, _Resolved] = field(default_factory=dict)

    def __post_init__(self) -> None:
        text = self.page.text
        self.mention_starts = [mention.start for mention in self.mentions]
        self.names = {family: [mention for mention in self.mentions if mention.family == family] for family in (False, True)}
        self.name_starts = {family: [mention.start for mention in names] for family, names in self.names.items()}
        self.claim_starts = [claim.start for claim in self.claims]
        around = _read_around(self.page, self.claims)
        self.joiners = _marks(text, ((None, _JOINER),), around)
        self.precisions = _marks(text, ((None, _PRECISION),), around)
        self.topics = _marks(text, _TOPICS, around)
        self.comparison_words = _marks(text, ((None, _COMPARISON),), around)
        self.comparisons = _comparison_spans(self)
        self.comparands = _comparand_phrases(self, _marks(text, ((None, _COMPARAND),), around))
        self.comparand_starts = [start for start, _ in self.comparands]
        self.subject = _page_subject([mention for mention in self.mentions if not self.compared(mention)])
        self.column_parts = _column_parts(self)
        self.resolved_order: list[int] = []
        self.repeats = _Repeats()
        self.topic_records: dict[str, tuple[list[int], list[str]]] = {}  # topic -> (offsets, record ids), in reading order
        self.own_phrases: dict[int, tuple[int, int]] = {}
        self.phrases_within: dict[tuple[int, int], _Stretches] = {}
        self.sentence_words: dict[int, tuple[bool, bool]] = {}
        self.clause_words: dict[int, bool] = {}
        self.page_measures = _MEASURED.search(text) is not None or _REDUCTION.search(text) is not None
        self.against_comparand: set[int] = set()  # claims matched only to the other side of a comparison
        self.rows: dict[int, list[Span]] | None = None  # row label's start -> the row's other cells, built when first asked
        self.unheld: set[int] = set()  # claims matched to a figure but judged another quantity than any held (unmatched)
        self.sentence_counting: dict[int, str | None] = {}
        self.counted: dict[tuple[int, str], str] = {}  # (figure, value as written) -> the counting the page stated for it
        self.counted_in_line: dict[tuple[int, str, str], str] = {}  # (line start, record, value as written) -> the counting stated there

    def named_records(self, claim: Claim) -> list[tuple[str, ...]]:
        """The parts (not families) the page names, nearest to a claim first."""
        nearest: dict[tuple[str, ...], int] = {}
        for mention in self.names[False]:
            if mention.known:
                distance = abs(mention.start - claim.start)
                nearest[mention.records] = min(distance, nearest.get(mention.records, distance))
        return sorted(nearest, key=nearest.__getitem__)

    def mentions_in(self, start: int, end: int) -> list[Mention]:
        return self.mentions[bisect_left(self.mention_starts, start):bisect_left(self.mention_starts, end)]

    def names_near(self, start: int, end: int, claim: Claim, family: bool) -> list[Mention]:
        """Names (of families, or not) in [start, end): the nearest before the claim and after it, and those over it."""
        starts = self.name_starts[family]
        low, high = bisect_left(starts, start), bisect_left(starts, end)
        first = max(low, bisect_left(starts, claim.start) - _NEAREST_NAMES)
        last = min(high, bisect_left(starts, claim.end) + _NEAREST_NAMES)
        return self.names[family][first:last]

    def compared(self, mention: Mention) -> tuple[int, int] | None:
        """The phrase of comparison a name stands in ("versus the MI300X's 192GB"), if any."""
        at = bisect_right(self.comparand_starts, mention.start) - 1
        return self.comparands[at] if at >= 0 and mention.start < self.comparands[at][1] else None

    def compared_apart(self, mention: Mention, claim: Claim) -> bool:
        """Whether a name stands in a phrase of comparison that the claim is outside of."""
        phrase = self.compared(mention)
        return phrase is not None and not phrase[0] <= claim.start < phrase[1]

    def row_cells(self, claim: Claim) -> list[Span]:
        """The cells of a claim's table row other than its first (the label) and the claim's own."""
        cell = self.page.cell_of(claim.start)
        if cell is None or cell.label is None:
            return []
        if self.rows is None:
            self.rows = {}
            for other in self.page.cells:
                if other.label is not None:
                    self.rows.setdefault(other.label.start, []).append(Span(other.start, other.end))
        return [span for span in self.rows.get(cell.label.start, []) if span.start != cell.start]

    def claims_in(self, start: int, end: int) -> range:
        return range(bisect_left(self.claim_starts, start), bisect_left(self.claim_starts, end))

    def resolve(self, index: int, resolved: _Resolved, topic: str | None = None) -> None:
        """Record the figure a claim was matched to (claims are matched in reading order)."""
        self.resolved[index] = resolved
        self.resolved_order.append(index)
        claim = self.claims[index]
        if claim.kind == "quantity":
            self.repeats.add(claim.dimension, claim.value, resolved.figure)
            if claim.basis and self.page.cell_of(claim.start) is not None:
                self.counted.setdefault((resolved.figure.id, f"{claim.value:.4g}"), claim.basis)
            elif claim.basis or self.sentence_counts(claim):
                self.counted_in_line.setdefault(self._line_key(resolved.figure, claim), claim.basis or self.sentence_counts(claim))
        if topic:
            offsets, records = self.topic_records.setdefault(topic, ([], []))
            offsets.append(claim.start)
            records.append(resolved.figure.record_id)

    def counted_before(self, figure: Figure, claim: Claim) -> str | None:
        """How the page's table counted the same value of the same figure ("63" under "Uni-dir.", then "the 63GBps row
        above"), or the same paragraph the same value of the same part: a table is where a page sets out its figures,
        and its prose repeats them."""
        return self.counted.get((figure.id, f"{claim.value:.4g}")) or self.counted_in_line.get(self._line_key(figure, claim))

    def _line_key(self, figure: Figure, claim: Claim) -> tuple[int, str, str]:
        """A value of a part in one paragraph (a line of prose): "NVLink4 unidirectional bandwidth is 450 GB/s, ... comparable
        to 450GB/s" repeats the value counted as first said, whichever of the part's figures each is matched to."""
        return self.page.text.rfind("\n", 0, claim.start), figure.record_id, f"{claim.value:.4g}"

    def resolved_before(self, index: int) -> list[int]:
        """The claims matched before a claim, nearest first, as far back as the checker looks."""
        end = bisect_left(self.resolved_order, index)
        return self.resolved_order[max(0, end - _EARLIER_FIGURES):end][::-1]

    def topic_record(self, topic: str, before: int) -> str | None:
        """The record last matched for a topic before an offset."""
        offsets, records = self.topic_records.get(topic, ((), ()))
        at = bisect_left(offsets, before)
        return records[at - 1] if at else None

    def part_measures(self, claim: Claim) -> bool:
        """Whether the part of its clause a claim stands in, between commas, reports a run ("nvbandwidth reports",
        "so the actual throughput is"): a rated figure in another part of the sentence stays rated."""
        text, clause = self.page.text, self.page.clause_of(claim.start)
        start = text.rfind(",", clause.start, claim.start) + 1 or clause.start
        end = text.find(",", claim.end, clause.end)
        said = self.clause_words.get(start)
        if said is None:
            said = self.clause_words[start] = _MEASURED.search(text, start, clause.end if end < 0 else end) is not None
        return said

    def rated(self, claim: Claim) -> bool:
        """Whether a claim's own words, between it and the claims beside it, call it a rating ("the marketed theoretical
        900GB/s", "450GB/s theoretical", "out of 450GB/s"): it is then no measurement, whatever its sentence runs."""
        text, clause = self.page.text, self.page.clause_of(claim.start)
        start, end = clause.start, clause.end
        at = bisect_left(self.claim_starts, claim.start)
        before = max(start, self.claims[at - 1].end if at else start)
        after = min(end, self.claims[at + 1].start if at + 1 < len(self.claims) else end)
        out_of = _OUT_OF.search(text, claim.end, after)  # "749GB/s out of the marketed 900GB/s": the words after are the next's
        return (_RATED.search(text, before, claim.start) or _OUT_OF.search(text, before, claim.start)
                or _RATED.search(text, claim.end, out_of.start() if out_of else after)) is not None

    def sentence_counts(self, claim: Claim) -> str | None:
        """The counting a claim's sentence states, when it states one only ("bidirectional" and no "per direction")."""
        sentence = self.page.sentence_of(claim.start)
        if sentence.start not in self.sentence_counting:
            words = self.page.text[sentence.start:sentence.end]
            both, one = BIDIRECTIONAL.search(words) is not None, PER_DIRECTION.search(words) is not None
            self.sentence_counting[sentence.start] = None if both == one else "bidirectional" if both else "per-direction"
        return self.sentence_counting[sentence.start]

    def sentence_says(self, sentence: Span) -> tuple[bool, bool]:
        """Whether a sentence speaks of a measurement, and of sparsity."""
        said = self.sentence_words.get(sentence.start)
        if said is None:
            text = self.page.text
            said = ("measur" in text[sentence.start:sentence.end].casefold() or _RUN.search(text, sentence.start, sentence.end) is not None,
                    _says_sparse(text, sentence.start, sentence.end))
            self.sentence_words[sentence.start] = said
        return said


class Database:
    """The figures, their history and alternatives, and how records use each other, read once per check."""

    def __init__(self, connection: sqlite3.Connection, as_of: dt.date | None = None):
        self.lexicon = Lexicon(connection)
        self.as_of = as_of.isoformat() if as_of else None
        kinds = self.kinds = record_kinds(connection)
        self.vendors = record_vendors(connection)
        self.uses: dict[str, set[str]] = {}
        self.used_by: dict[str, set[str]] = {}
        for record_id, target in record_uses(connection):
            self.uses.setdefault(record_id, set()).add(target)
            self.used_by.setdefault(target, set()).add(record_id)
        history: dict[int, list[tuple[float, str, str]]] = {}
        alternatives: dict[int, list[tuple[float, str, str]]] = {}
        for figure_id, claim_kind, value, value_text, as_of, reason in every_claim(connection):
            if claim_kind == "history":
                history.setdefault(figure_id, []).append((value, value_text, as_of))
            else:
                alternatives.setdefault(figure_id, []).append((value, value_text, reason or ""))
        self.figures: dict[str, list[Figure]] = {}
        for row in every_figure(connection):
            figure_id, record_id, name, value, value_text, dimension, direction, scope, precision, as_of = row
            timeline = tuple(sorted(history.get(figure_id, []), key=lambda entry: entry[2] or "")) + ((value, value_text, as_of),)
            self.figures.setdefault(record_id, []).append(Figure(
                figure_id, record_id, kinds[record_id], name, value, value_text, dimension, direction, scope, precision, as_of,
                timeline, tuple(alternatives.get(figure_id, [])),
            ))

    def effective(self, figure: Figure) -> int:
        """Index in the timeline of the value in force on the --as-of date (the current one without it; the earliest known before any)."""
        if self.as_of is None:
            return len(figure.timeline) - 1
        known = [index for index, entry in enumerate(figure.timeline) if (entry[2] or "") <= self.as_of]
        return known[-1] if known else 0

    def previous_generation(self, figure: Figure) -> Figure | None:
        """The same figure of the generation before the figure's record in its family (NVLink 4's for NVLink 5's), if held."""
        before = self.lexicon.previous_generation(figure.record_id)
        return next((other for other in self.figures.get(before, []) if other.name == figure.name), None) if before else None

    def sibling(self, figure: Figure) -> Figure | None:
        """The same quantity counted the other way in the same record ("128 GB/s" both ways beside "63 GB/s" one way)."""
        for other in self.figures.get(figure.record_id, []):
            if (other.id != figure.id and other.dimension == figure.dimension and other.scope == figure.scope
                    and {other.direction, figure.direction} == set(_DIRECTED)
                    and abs(math.log(max(other.value, figure.value) / min(other.value, figure.value) / 2)) < 0.05):
                return other
        return None


def check_text(
    text: str,
    connection: sqlite3.Connection | Database,
    *,
    path: str = "-",
    fmt: str | None = None,
    as_of: dt.date | None = None,
    reviewed: dt.date | None = None,
) -> list[Finding]:
    """Every hardware figure claim in `text`, in reading order, with its verdict against the database.

    `fmt` is "text", "markdown" or "html" (guessed from `path` and the text
    when None); `as_of` checks against the values in force on that date (the
    figures' history); `reviewed` is the page's own review date (read from the
    text, "last reviewed in July 2026", when None). Pass a `Database` to check
    many texts without reading the figures again.
    """
    database = connection if isinstance(connection, Database) else Database(connection, as_of)
    page = read_page(text, fmt or detect_format(text, path))
    state = _PageState(page, extract(page), database.lexicon.find(page), reviewed or review_date(page.text))
    findings: dict[int, Finding] = {}
    for index, claim in enumerate(state.claims):
        if claim.kind == "quantity":
            finding = _check_quantity(database, state, index)
        elif claim.kind == "time":
            finding = _check_time(database, state, index)
        else:
            continue
        if finding is not None:
            findings[index] = _located(finding, page, claim, path)
    for index, claim in enumerate(state.claims):
        if claim.kind == "ratio":
            finding = _check_ratio(database, state, index)
            if finding is not None:
                findings[index] = _located(finding, page, claim, path)
    return [findings[index] for index in sorted(findings)]


def failing(findings: list[Finding], strict: bool = False) -> bool:
    """Whether the findings fail a check: mismatch, stale or mixed-basis; with strict, ambiguous-basis and unmatched too."""
    return any(finding.verdict in (STRICT_FAILING if strict else FAILING) for finding in findings)


def _located(finding: Finding, page: Page, claim: Claim, path: str) -> Finding:
    finding.path = path
    finding.line, finding.column = page.position(claim.start)
    finding.claim = " ".join(claim.text.split())  # markup blanked inside a claim leaves runs of spaces
    return finding


def _finding(verdict: str, figure: Figure | None = None, expected: str | None = None, basis: str | None = None,
             note: str = "", suggestion: str | None = None, label: str | None = None) -> Finding:
    return Finding("", 0, 0, "", verdict, figure.record_id if figure else None, figure.name if figure else label,
                   expected, basis, note, suggestion)


# Quantities -----------------------------------------------------------------

def _check_quantity(database: Database, state: _PageState, index: int) -> Finding | None:
    claim = state.claims[index]
    topic = _topic(state, index)
    words = _claim_words(state, index)
    if claim.dimension == "size" and (_part_of_name(state, claim) or _NOT_HARDWARE_SIZE.search(words)
                                      or (topic != "memory" and not _names_hardware(state, claim))):
        return None  # sizes of gradients, weights, messages and buffers are not hardware figures
    if claim.unit == "%" and not _SHARE_OF.search(words):
        return None  # a percentage is judged only when its words say what it is a share of
    if claim.dimension == "time" and claim.value >= _LONGEST_LATENCY:
        return None  # milliseconds are a transfer's or a step's duration, not a hardware latency (those are in µs and ns)
    if _REJECTED.search(state.page.text, max(0, claim.start - 16), claim.start):
        return None
    lookup = _lookup(database, state, index, topic)
    if lookup is None and topic is not None:
        # "NVLink ... GPU Networking enabling 900 GB/s": a tier word nearer the figure than the part it names, where that part
        # holds no figure of the tier, yields to a figure of the part that agrees.
        untopical = _lookup(database, state, index, None)
        if isinstance(untopical, Figure) and _verdict(database, state, claim, untopical)[1].verdict == "ok":
            lookup, topic = untopical, None
    if lookup is None:
        if claim.dimension in _UNPLACED_DIMENSIONS:
            # A rate, a power or a latency is a hardware figure whatever the page calls its part; one the checker cannot tie
            # to a part the data holds is reported, so that the reader sees it was read and not judged.
            return _finding("unmatched", note=f"names no part the database holds a {_kind_of(state, claim)} figure for")
        return None
    missing = _unheld_kind(claim, f"{words} {_caption(state.page, claim)}", lookup, state.rated(claim))
    if missing:
        return _finding("unmatched", note=missing)
    if isinstance(lookup, Mention):
        if claim.dimension == "count":
            return None  # a count of a part the data lacks (its links, ports, chips) is no figure any record could hold
        if lookup.family:
            return _finding("unmatched", note=f"names {lookup.text} but not which of {', '.join(lookup.records)}, and none of their"
                                              f" {_kind_of(state, claim)} figures agrees")
        if lookup.known:
            return _finding("unmatched", note=f"the database holds no {_kind_of(state, claim)} figure for {', '.join(lookup.records)}")
        return _finding("unmatched", note=f"names {lookup.text}, which the database does not hold")
    figure = lookup
    figure, finding, direction = _verdict(database, state, claim, figure)
    if finding.verdict in FAILING and _changed_from(state, index, figure):
        # "lifting memory from 192 GB to 256 GB and bandwidth to ~6 TB/s": the new values are the page's part's, not the old part's.
        figure, finding, direction = _new_part(database, state, claim, figure, topic)
    elif finding.verdict in FAILING and _versus_same_part(state, index, figure):
        figure, finding, direction = _other_side(database, state, claim, figure, topic)
    elif finding.verdict != "ok" and _BISECTION.search(_claim_words(state, index, within_line=True)):
        finding = _finding("unmatched", note=f"a bisection bandwidth; the database holds none (for {figure.record_id} or any part)")
    elif finding.verdict in FAILING and claim.dimension == "count" and _counts_a_unit(state, claim, figure):
        return None  # the GPUs of a superchip, a tray or a node of the system: a count no record holds
    elif finding.verdict == "mismatch" and _changed_to_later(state, index):
        # "The MI325X lifts memory from 192 GB to 256 GB": the value before "to" is what the part replaced, not its figure.
        finding = _finding("unmatched", figure, finding.expected, finding.basis,
                           f"the value the text says {figure.record_id}'s figure changed from; the data holds {finding.expected}")
    elif finding.verdict in FAILING and index in state.against_comparand:
        finding = _finding("unmatched", figure, finding.expected, finding.basis,
                           f"the text compares with {figure.record_id}, and names no other part holding such a figure")
    if finding.verdict in (*FAILING, "ambiguous-basis") and index and _computed(claim, state.claims[index - 1], state.page.text):
        finding = _finding("unmatched", figure, finding.expected, finding.basis,
                           f"a value the text computes from {state.claims[index - 1].text}, which agrees with no figure")
    elif finding.verdict in (*FAILING, "ambiguous-basis") and _PRODUCT_OF.search(state.page.text, max(0, claim.start - 40), claim.start):
        finding = _finding("unmatched", figure, finding.expected, finding.basis,
                           "a value the text computes (a product of numbers), which agrees with no figure as written")
    if finding.verdict in (*FAILING, "ambiguous-basis"):
        doubted = _doubted(database, state, index, (figure, finding, direction), topic)
        if doubted is None:
            return None
        figure, finding, direction = doubted
    one_way = Bandwidth(claim.value, direction, figure.record_id, figure.name).on("per-direction") if direction else claim.value
    state.resolve(index, _Resolved(figure, _Operand(claim.value, one_way, direction, figure.label, claim.dimension)), topic)
    if finding.verdict == "unmatched":
        state.unheld.add(index)
    return finding


def _doubted(database: Database, state: _PageState, index: int, judged: tuple[Figure, Finding, str | None],
             topic: str | None) -> tuple[Figure, Finding, str | None] | None:
    """An alarm raised only where the page gives no reason to doubt it: else the verdict that reason gives (None: no claim).

    Pages name several parts and quote each one's figures; a figure matched to the wrong one of them is the checker's error,
    not the page's. So before a value is called wrong for one part, the other parts the page names are asked whether it is
    theirs, and a value that a run reached, or a count that bounds rather than states, is not held against a rating.
    """
    claim = state.claims[index]
    figure, finding, _ = judged
    if claim.low is not None and finding.verdict == "ambiguous-basis":
        # "300-900 GB/s depending on the generation": a range spans values, and says nothing of how any one is counted.
        return figure, _finding("ok", figure, finding.expected, figure.direction,
                                "the range holds the figure as it is counted; a range states no counting"), figure.direction
    if claim.dimension == "count":
        if _BOUND.search(state.page.text, max(0, claim.start - 24), claim.start):
            return None
        # "between two H100s": a number of parts is never a link's or a fabric's figure.
        # A number of parts counts a system's GPUs only where the sentence or the table names that system.
        if _PRODUCT_COUNT.search(claim.text) and (database.kinds.get(figure.record_id) not in _COUNTING_KINDS or not (
                _names_record(state, claim, figure.record_id) or _labelled(state, index, figure))):
            return None
        return judged
    named = _named_in_sentence(database, state, claim, figure)
    if claim.unit == "%" and not _names_record(state, claim, figure.record_id):
        # "The L4 ... up to 99% better efficiency than CPU-only solutions": a share is a link's encoding efficiency only where
        # the sentence names the link itself, not a part that uses it.
        return None
    lacking = None if named else _sentence_part_lacking(database, state, claim, topic)
    if lacking is not None:
        # "The scale-up bandwidth of each Gaudi 2 is ... 525 GB/s": the sentence's part holds no such figure, so the figure
        # of a part found further off (the page's Gaudi 3) is not what the text gives.
        return figure, _finding("unmatched", note=f"names {lacking.text}, for which the database holds no {_kind_of(state, claim)} figure"), None
    if finding.verdict in ("mismatch", "stale") and not _alternative_agrees(claim, figure) and not _labelled(state, index, figure) and not named:
        for records in state.named_records(claim):
            other, agrees, _ = _best(database, claim, topic, records, state) if figure.record_id not in records else (None, False, 0.0)
            theirs = _agreeing(database, state, claim, other) if agrees and other.record_id in records else None
            if theirs is not None:
                theirs[1].note = f"the value of {other.record_id}, which the page names; not {figure.record_id}'s"
                return theirs
    if (finding.verdict == "mismatch" and claim.dimension == "bandwidth" and not figure.name.startswith("measured_")
            and state.page_measures):
        # "How does 480GBps come from?" in a thread on NVLS runs: on a page that speaks of runs, a value a held run of the
        # part, or of a system built of it, measured is that run's, though its own sentence does not say so.
        systems = {figure.record_id} | database.used_by.get(figure.record_id, set())
        runs = (measured for record_id in sorted(systems) for measured in database.figures.get(record_id, [])
                if measured.name.startswith("measured_") and measured.dimension == claim.dimension)
        theirs = next((agreeing for agreeing in (_agreeing(database, state, claim, run) for run in runs) if agreeing), None)
        if theirs is not None:
            return theirs
    if (finding.verdict == "mismatch" and claim.dimension in ("bandwidth", "compute") and not figure.name.startswith("measured_")
            and not state.rated(claim)):
        clause = state.page.clause_of(claim.start)
        value = figure.timeline[database.effective(figure)][0]
        peaks = (value, _on_basis(value, figure.direction, _other(figure.direction))) if figure.direction in _DIRECTED else (value,)
        if claim.value < max(peaks) and _REACHED.search(state.page.text, clause.start, clause.end):
            return figure, _finding("unmatched", figure, finding.expected, finding.basis,
                                    f"a throughput reached or expected in a run, below {figure.label}; the data holds no such run"), finding.basis
    return judged


def _sentence_part_lacking(database: Database, state: _PageState, claim: Claim, topic: str | None) -> Mention | None:
    """An accelerator the claim's sentence names, not compared with, holding no figure of the claim's kind."""
    sentence = state.page.sentence_of(claim.start)
    for mention in state.mentions_in(sentence.start, sentence.end):
        if (mention.known and not mention.family and database.kinds.get(mention.records[0]) == "accelerator"
                and not state.compared_apart(mention, claim) and _best(database, claim, topic, mention.records, state)[0] is None):
            return mention
    return None


def _names_record(state: _PageState, claim: Claim, record_id: str) -> bool:
    sentence = state.page.sentence_of(claim.start)
    return any(not mention.family and record_id in mention.records for mention in state.mentions_in(sentence.start, sentence.end))


def _named_in_sentence(database: Database, state: _PageState, claim: Claim, figure: Figure) -> bool:
    """Whether the claim's sentence names the figure's part, or a part using it or used by it (not a family)."""
    sentence = state.page.sentence_of(claim.start)
    kin = {figure.record_id} | database.uses.get(figure.record_id, set()) | database.used_by.get(figure.record_id, set())
    return any(not mention.family and kin.intersection(mention.records) for mention in state.mentions_in(sentence.start, sentence.end))


def _labelled(state: _PageState, index: int, figure: Figure) -> bool:
    """Whether a table names the figure's part for the claim's cell: in its row label, its column header or above its column."""
    claim = state.claims[index]
    column = state.column_parts.get(index)
    if column is not None and figure.record_id in column.records:
        return True
    cell = state.page.cell_of(claim.start)
    return cell is not None and any(figure.record_id in mention.records for span in (cell.label, cell.header) if span is not None
                                    for mention in state.mentions_in(span.start, span.end))


def _counts_a_unit(state: _PageState, claim: Claim, figure: Figure) -> bool:
    """Whether a count's clause names a part of the system ("superchips", "each node") between the system and the count."""
    clause = state.page.clause_of(claim.start)
    named = [mention for mention in state.mentions_in(clause.start, claim.start) if figure.record_id in mention.records]
    return _SUB_UNIT.search(state.page.text, named[-1].end if named else clause.start, claim.start) is not None


def _computed(claim: Claim, before: Claim, text: str) -> bool:
    """"18 links at 53.125GBps = 956.25GBps": the text's own arithmetic on its own figures; where it agrees with no figure it
    is no wrong rating of a part. The same value in another unit ("400 Gbps = 50 GB/s") is the figure restated."""
    if claim.dimension == "count" or not _RESULT.match(text, before.end, claim.start):
        return False
    return before.dimension != claim.dimension or abs(math.log(claim.value / before.value)) > _ROUNDING_CAP


def _changed_to_later(state: _PageState, index: int) -> bool:
    """Whether the claim follows "from" and a later claim of its sentence, of the same dimension, follows "to"."""
    page, claim = state.page, state.claims[index]
    if not _CHANGED_FROM.search(page.text, max(0, claim.start - 6), claim.start):
        return False
    sentence = page.sentence_of(claim.start)
    return any(state.claims[i].dimension == claim.dimension
               and _CHANGED_TO.search(page.text, max(0, state.claims[i].start - 8), state.claims[i].start)
               for i in state.claims_in(claim.end, sentence.end))


def _changed_from(state: _PageState, index: int, figure: Figure) -> bool:
    """Whether the claim is the value a figure was changed to ("to 256 GB", "to ~6 TB/s") in a sentence that gives the part's
    old value after "from" (which the figure's record is)."""
    page, claim = state.page, state.claims[index]
    if not _CHANGED_TO.search(page.text, max(0, claim.start - 8), claim.start):
        return False
    sentence = page.sentence_of(claim.start)
    return any(
        _CHANGED_FROM.search(page.text, max(0, state.claims[i].start - 6), state.claims[i].start)
        and i in state.resolved and state.resolved[i].figure.record_id == figure.record_id
        for i in state.claims_in(sentence.start, claim.start)
    )


def _versus_same_part(state: _PageState, index: int, figure: Figure) -> bool:
    """Whether the claim is the second value of a pair ("15 vs 9 PFLOPS", "279 vs 180 GB") whose first value was matched to
    the same part: a pair sets two parts side by side, so the second is the other part's."""
    claim = state.claims[index]
    pair = _VERSUS.search(state.page.text, max(0, claim.start - 40), claim.start)
    if pair is None:
        return False
    if not index or state.claims[index - 1].end <= pair.start():
        return True  # a bare number before "vs" is of the part the claim was matched to
    before = state.resolved.get(index - 1)
    return before is not None and before.figure.record_id == figure.record_id


def _agreeing(database: Database, state: _PageState, claim: Claim, figure: Figure | None) -> tuple[Figure, Finding, str | None] | None:
    """The claim judged against a figure, where it agrees with it (ok); else None."""
    judged = _verdict(database, state, claim, figure) if figure is not None else None
    return judged if judged is not None and judged[1].verdict == "ok" else None


def _other_side(database: Database, state: _PageState, claim: Claim, old: Figure, topic: str | None) -> tuple[Figure, Finding, str | None]:
    """"GB300 and B200 ... GB300 ... (15 vs 9 PFLOPS)": the second value of a pair is of the other part named nearest
    before it in the paragraph or the one before (a heading), when its figure agrees; else unmatched."""
    number = state.page.paragraph_of(claim.start)
    start = state.page.paragraphs[number - 1 if number else number].start
    for mention in reversed(state.mentions_in(start, claim.start)):
        if mention.known and not mention.family and old.record_id not in mention.records:
            judged = _agreeing(database, state, claim, _best(database, claim, topic, mention.records, state)[0])
            if judged is not None:
                return judged
            break
    return old, _finding("unmatched", old, note=f"the other side of a pair with {old.record_id}, of a part the text does not name"), None


def _new_part(database: Database, state: _PageState, claim: Claim, old: Figure, topic: str | None) -> tuple[Figure, Finding, str | None]:
    """The figure of the part the page names most after the old one (of the old one's family first), when it agrees;
    else unmatched."""
    kin = {record for mention in state.mentions if mention.family and old.record_id in mention.records for record in mention.records}
    named: dict[tuple[str, ...], int] = {}
    for mention in state.mentions:
        if mention.known and old.record_id not in mention.records:
            named[mention.records] = named.get(mention.records, 0) + 1
    # A part of the old one's family the page names (the MI325X beside the MI300X) before any other part it names as often.
    subject = max(named, key=lambda records: (bool(kin.intersection(records)), named[records])) if named else None
    judged = _agreeing(database, state, claim, _best(database, claim, topic, subject, state)[0] if subject else None)
    if judged is not None:
        return judged
    return old, _finding("unmatched", old, note=f"the value {old.label} was changed to, of a part the text does not name"), None


def _claim_words(state: _PageState, index: int, within_line: bool = False) -> str:
    """The words that say what a claim measures: its own phrase (within its line, if asked: a table with no punctuation
    is one long clause) and, in a table cell, its column's header."""
    page, claim = state.page, state.claims[index]
    start, end = _own_phrase(state, index)
    if within_line:
        start = max(start, page.text.rfind("\n", start, claim.start) + 1)
        line_end = page.text.find("\n", claim.end, end)
        end = end if line_end < 0 else line_end
    cell = page.cell_of(claim.start)
    header = page.text[cell.header.start:cell.header.end] if cell is not None and cell.header is not None else ""
    return f"{page.text[start:end]} {header}"


_TITLE_WORDS = 8


def _not_a_pin(claim: Claim, words: str) -> bool:
    return _is_bytes(claim) or (_PIN_WORDS.search(words) is None and _MEMORY_WORDS.search(words) is None)


def _caption(page: Page, claim: Claim) -> str:
    """The title over a claim's table ("Effective bandwidth:"), which says what kind of figure every cell is; not a
    sentence introducing the table, which may speak of one column."""
    cell = page.cell_of(claim.start)
    title = page.text[cell.caption.start:cell.caption.end] if cell is not None and cell.caption is not None else ""
    short = len(title.split()) <= _TITLE_WORDS and len(title) <= 8 * _TITLE_WORDS
    return title if short and not title.strip(" \t*_").endswith((".", "。")) else ""


def _unheld_kind(claim: Claim, words: str, lookup: Figure | Mention, rated: bool) -> str | None:
    """What the claim measures when the data holds no such kind of figure for any part (a cache, an effective
    throughput, a memory pin rate, a hardware latency): the note of an unmatched verdict. A figure its own words call
    the rating is no effective throughput, whatever its phrase says was achieved."""
    held = lookup.record_id if isinstance(lookup, Figure) else ", ".join(lookup.records) or lookup.text
    for kind, pattern in _UNHELD_KINDS:
        # (a pin's rate is in bits: "a data rate of 25 GByte/s" is a link's, and so is a port's or lane's "data rate" away
        # from any memory word: "High Data Rate" InfiniBand's 200 Gb/s)
        if pattern.search(words) and not (rated and kind == _EFFECTIVE) and not (kind == _PIN_RATE and _not_a_pin(claim, words)):
            return f"{kind} figure; the database holds none (for {held} or any part)"
    if claim.dimension == "time":
        example = f" ({lookup.label} is a library's modelled step latency)" if isinstance(lookup, Figure) else ""
        return f"a hardware latency; the database holds none{example}"
    return None


def _names_hardware(state: _PageState, claim: Claim) -> bool:
    """Whether a part is named in the claim's sentence or, in a table cell, in its row's label or column's header (a
    cell's sentence can be cut short by a "?" or "N/A." in a cell before it). A caption names the table's subject, not
    what each row sizes ("7 MIGs @ 16.5GB each" under an H200 heading)."""
    spans = [state.page.sentence_of(claim.start)]
    cell = state.page.cell_of(claim.start)
    if cell is not None:
        spans += [span for span in (cell.label, cell.header) if span is not None]
    return any(mention.known and not mention.family for span in spans for mention in state.mentions_in(span.start, span.end))


def _part_of_name(state: _PageState, claim: Claim) -> bool:
    """A size written in or right after a product name is the variant's name ("A100 80GB", "H100 94GB"), not a claim."""
    return any((mention.known or claim.end <= mention.end) and claim.start - mention.end <= 1 and mention.start < claim.start and not state.page.text[mention.end:claim.start].strip()
               and not mention.text.endswith(("'s", "’s")) for mention in state.mentions_in(claim.start - _LONGEST_NAME, claim.start))


def _verdict(database: Database, state: _PageState, claim: Claim, figure: Figure) -> tuple[Figure, Finding, str | None]:
    """The figure checked (the record's own figure counted as the text says, when there is one), the finding, and how the text's value is counted."""
    sibling = database.sibling(figure)
    if claim.basis and sibling is not None and sibling.direction == claim.basis:
        figure = sibling  # the record's own figure counted the way the text says, not a conversion
    current = database.effective(figure)
    value, value_text, _ = figure.timeline[current]
    expected = value_text
    stated = claim.basis
    directed = figure.direction in _DIRECTED and claim.dimension == "bandwidth"
    counted = stated if (stated and directed) else figure.direction
    target = _on_basis(value, figure.direction, counted)
    as_vendors_write = decimal_counterpart(value, value_text) if claim.dimension == "size" else None
    if as_vendors_write is not None and not _agrees(claim, target) and _agrees(claim, as_vendors_write):
        return figure, _finding("ok", figure, expected, None,
                                f"the part holds {value_text}; vendors write the same number in GB"), counted
    if _agrees(claim, target):
        sibling = database.sibling(figure) if directed and stated is None and _is_bytes(claim) else None
        if sibling is not None and state.counted_before(figure, claim) != figure.direction:
            other = sibling.timeline[database.effective(sibling)][0]
            suggestion = f"{_in_unit(claim, target)} {figure.direction} ({_in_unit(claim, other)} {sibling.direction})"
            return figure, _finding("ambiguous-basis", figure, expected, figure.direction,
                                                f"the text does not say how it is counted; {sibling.label} counts it {sibling.direction}",
                                                suggestion), figure.direction
        return figure, _finding("ok", figure, expected, counted), counted
    if directed and stated is None:
        other_direction = _other(figure.direction)
        other = _on_basis(value, figure.direction, other_direction)
        sibling = database.sibling(figure)
        if _agrees(claim, other) and sibling is not None and sibling.direction == other_direction:
            # "64 GB/s" for PCIe 5.0 x16: half the 128 GB/s both ways, but the record holds one way as its own figure (63.0
            # GB/s, after encoding), and that is what a one-way value is judged against.
            return _verdict(database, state, claim, sibling)
        if _agrees(claim, other) and (state.sentence_counts(claim) == other_direction or state.counted_before(figure, claim) == other_direction
                                      or other_direction == "per-direction" and not _is_bytes(claim)
                                      or other_direction == "bidirectional" and _TOTAL.search(_lead_in(state, claim))):
            # "1.8 TB/s of aggregate bandwidth (bidirectional) ... 18 links of 100 GB/s each": the sentence counts one way
            # throughout; "1600 Gbps" of a link held as 400 GB/s both ways: a rate in bits is a line rate, one way; "the
            # total data rate for a link is 50 GByte/s": a link's total is its two directions added.
            return figure, _finding("ok", figure, expected, other_direction), other_direction
        if _agrees(claim, other) and (other_direction == "per-direction" or _is_bytes(claim)):
            # (a rate in bits that agrees only counted both ways is not this figure: a line rate is one way)
            return figure, _finding("ambiguous-basis", figure, expected, figure.direction,
                                                f"agrees only counted {other_direction}, which the text does not say",
                                                f"{_in_unit(claim, other)} {other_direction}"), other_direction
    suggestion = value_text if as_vendors_write is not None else f"{_in_unit(claim, target)}{' ' + counted if stated and directed else ''}"
    for earlier_value, earlier_text, earlier_as_of in figure.timeline[:current]:
        if _agrees(claim, _on_basis(earlier_value, figure.direction, counted)):
            return figure, _finding("stale", figure, expected, counted,
                                     f"{earlier_text} as of {earlier_as_of}; now {value_text} as of {figure.timeline[current][2]}",
                                     suggestion), counted
    changed = figure.timeline[current][2]
    if state.reviewed and current > 0 and changed and changed > state.reviewed.isoformat():
        return figure, _finding("stale", figure, expected, counted,
                                 f"the page was reviewed {state.reviewed.isoformat()}, before the figure changed to {value_text} ({changed})",
                                 suggestion), counted
    if figure.name.startswith("measured_"):
        # Two measurements differ as their machines, sizes and software do: another run is no error in the text.
        return figure, _finding("unmatched", figure, expected, counted,
                                f"a measurement of the text's own; the data holds another: {figure.record_id}.{figure.name} = {value_text}"), counted
    note = next((f"{text} is an alternative value, not the canonical one: {reason}"
                 for alternative, text, reason in figure.alternatives if _agrees_with_any(claim, _readings(claim, alternative, text, figure.direction, counted))), "")
    if stated and directed and stated != figure.direction and _agrees(claim, value):
        note = f"{value_text} counts {figure.direction}, not {stated}"
    readings = (target, _on_basis(value, figure.direction, _other(counted))) if directed else (target,)
    if directed and not stated and not _is_bytes(claim):
        readings = (_on_basis(value, figure.direction, "per-direction"),)  # a rate in bits, unsaid, is one way
    if not note and claim.dimension != "count" and min(abs(math.log(claim.value / reading)) for reading in readings) > _ANOTHER_QUANTITY:
        # Far off every reading of the figure: a total over many parts, a part of a link, a cache, a sparse rate...
        return figure, _finding("unmatched", figure, expected, counted,
                                f"{_number_text(claim.value / target, 2)} times {figure.label}: another quantity than the one the database holds"), counted
    return figure, _finding("mismatch", figure, expected, counted, note, suggestion), counted


def _readings(claim: Claim, value: float, text: str, direction: str, counted: str) -> list[float]:
    """A held value as the text may write it: counted its way and, for a capacity held in GiB, in the vendors' GB."""
    readings = [_on_basis(value, direction, counted)]
    as_vendors_write = decimal_counterpart(value, text) if claim.dimension == "size" else None
    return readings if as_vendors_write is None else [*readings, as_vendors_write]


def _agrees_with_any(claim: Claim, readings: list[float]) -> bool:
    return any(_agrees(claim, reading) for reading in readings)


def _count_clause(page: Page, claim: Claim) -> Span:
    """The words a count is of: its clause, with the label before a colon ("NVLink 4: 18 links", "GPUs per node: 8")."""
    clause = page.clause_of(claim.start)
    label_end = len(page.text[:clause.start].rstrip())
    if label_end and page.text[label_end - 1] in ":：" and page.sentence_of(label_end - 1) == page.sentence_of(claim.start):
        return Span(page.clause_of(label_end - 1).start, clause.end)
    return clause


def _lookup(database: Database, state: _PageState, index: int, topic: str | None) -> Figure | Mention | None:
    """The figure a claim is about; else the hardware it names that the database does not hold, or holds no such figure for; else None.

    A record named in the claim's sentence (its clause, for a count) decides,
    even when its figure disagrees; one named further away, or remembered
    from earlier on the page, is taken only when a figure of it agrees, and
    otherwise only when nothing closer was found.
    """
    page, claim = state.page, state.claims[index]
    within = _count_clause(page, claim) if claim.dimension == "count" else page.sentence_of(claim.start)
    number = page.paragraph_of(claim.start)
    paragraph = page.paragraphs[number]
    previous = page.paragraphs[number - 1] if number else paragraph

    # Every claim's own words in the stretch; the claim's own are no other's, as a name after them is outside them.
    others = state.phrases_within.get((within.start, within.end))
    if others is None:
        others = _Stretches([_own_phrase(state, other) for other in state.claims_in(within.start, within.end)])
        state.phrases_within[(within.start, within.end)] = others
    best: dict[tuple[str, ...], tuple[Figure | None, bool, float]] = {}
    own = _own_phrase(state, index)

    def nearest(start: int, end: int, family: bool) -> list[Mention | Figure]:
        return _names_nearest(state, claim, own, others, start, end, family)

    # How each tier of names is trusted: a name in the sentence decides; one in the paragraph is taken when a
    # figure of it agrees, or as a last resort; one further away only when a figure of it agrees.
    # A part named as the other side of a comparison the claim is outside of ("256GB versus the MI300X's 192GB") decides
    # nothing for the claim: it is taken only when a figure of it agrees.
    compared: list[Mention] = []

    def apart(mentions: list[Mention]) -> list[Mention]:
        compared.extend(mention for mention in mentions if state.compared_apart(mention, claim))
        return [mention for mention in mentions if not state.compared_apart(mention, claim)]

    column = state.column_parts.get(index)
    tiers = [([column], "labels")] if column is not None else []
    tiers.append((apart(nearest(*own, False)), "decides"))
    # A name of several variants of a part in the claim's own words ("and the A100 2 TB/s") is the part meant before another
    # part further off in the sentence: a variant's figure that agrees is taken, and where none agrees, no one part is named.
    if claim.dimension != "count" and any(mention.known and not mention.family and not own[0] <= mention.start < own[1]
                                          and database.kinds.get(mention.records[0]) == "accelerator"
                                          for mention in state.mentions_in(within.start, within.end)):
        tiers.append((apart(nearest(*own, True)), "variants"))
    cell = page.cell_of(claim.start)
    tiers += [(nearest(span.start, span.end, False), "labels") for span in _inherited(page, claim) if span is not cell.caption]
    row = [mention for span in state.row_cells(claim) for family in (False, True) for mention in nearest(span.start, span.end, family)]
    if row:
        # "| Leaf | 256 | 8 | IB | 50 |": a part named in another cell of the row than its first ("Switch Type" IB) is the
        # row's, before any the paragraph above the table names.
        tiers.append((row, "row"))
    if cell is not None and cell.caption is not None:
        tiers.append((nearest(cell.caption.start, cell.caption.end, False), "labels"))
    tiers.append((apart(nearest(within.start, within.end, False)), "decides"))
    sentence_tiers = len(tiers)  # a part the data lacks, named in the sentence, yields only to a held part named there too
    if claim.dimension != "count":
        tiers += [(nearest(paragraph.start, within.start, False), "nearby"), (nearest(previous.start, paragraph.start, False), "agrees")]
    tiers += [(nearest(span.start, span.end, True), "variant labels") for span in _inherited(page, claim)]
    tiers.append((nearest(within.start, within.end, True), "decides"))
    if claim.dimension != "count":
        tiers += [(_repeated(state, index), "agrees"), (nearest(paragraph.start, within.start, True), "nearby"),
                  (nearest(previous.start, paragraph.start, True), "agrees"), (state.subject, "subject")]
    tiers.append((compared, "compared"))
    fallback: Figure | None = None
    comparand: Figure | None = None
    named: Mention | None = None
    undecided: Mention | None = None
    lacking: Mention | None = None
    subject_lacking: Mention | None = None
    unheld: Mention | None = None
    for number, (mentions, trust) in enumerate(tiers):
        # A table's header, row label or caption decides for its cells as a name in the sentence does; a part it names
        # that holds no figure of the claim's kind makes the cell unmatched (the L40S row's memory is not the L4's).
        # A part named in the row's other cells that holds no figure of the kind makes the cell unmatched, as a label does,
        # family or not (the IB row's rate is no NVLink figure remembered from before the table).
        labels, in_row = trust in ("labels", "row"), trust == "row"
        # A header naming a family's variant ("A100 (80GB)") none of whose members holds the kind makes its cells unmatched too.
        variants_lack = trust == "variant labels"
        trust = "decides" if labels or variants_lack else trust
        # Within a tier: a record whose own figure agrees, then any that agrees, then (where names decide) the nearest.
        choices = []
        for order, mention in enumerate(mentions):
            if isinstance(mention, Figure):
                return mention
            if not mention.known:
                if trust == "decides" and not choices:
                    unheld = unheld or mention
                continue
            if mention.records not in best:
                best[mention.records] = _best(database, claim, topic, mention.records, state)
            figure, agrees, distance = best[mention.records]
            if named is None and not mention.family and trust not in ("subject", "compared"):
                # the page's subject, and the other side of a comparison, are no part this claim names
                named = mention
            if figure is None:
                if labels and (in_row or not mention.family) or variants_lack:
                    lacking = lacking or mention
                elif trust == "subject" and not mention.family and database.kinds.get(mention.records[0]) in ("accelerator", "system"):
                    subject_lacking = mention
                continue
            direct = figure.record_id in mention.records
            if in_row and not direct:
                lacking = lacking or mention  # only the row's part's own figures, not those of parts using it
                continue
            if trust == "variants":
                if not direct or figure.kind != "accelerator":
                    continue  # a family of links or fabrics ("NVLink", "InfiniBand") names a generation only by agreeing, as below
                if not agrees:
                    undecided = undecided or mention
                    continue
            if trust == "decides" and mention.family and not agrees and (
                    claim.dimension == "count" or claim.dimension in _GENERATIONAL and distance <= _ANOTHER_QUANTITY
                    or any(_best(database, claim, topic, (record,), state)[0] is None for record in mention.records)):
                # A family with no generation named ("NVLink", "InfiniBand") says which rate only by agreeing with one: a value
                # near one generation's is no mismatch of that generation (one far from all is another quantity, as below);
                # a count a family names ("2 Blackwell GPUs" of a superchip) is of no member unless one holds it; nor is a
                # figure that some of its members hold none of ("A100 80GB ... 400W": the SXM's power, which is not held).
                undecided = undecided or mention
                continue
            alternative = direct and _alternative_agrees(claim, figure)
            if agrees or alternative or (trust == "decides" and direct):
                # Where none agrees, the figure nearest in value is the one the text most likely meant.
                # A named part's own figure whose listed alternative the text gives ("B200 ... 8 TB/s") is the one meant, before a
                # figure of another part that agrees (the GB200's 8 TB/s, reached through the NVLink 5 they share), wherever
                # on the page the part is named.
                agrees = agrees or alternative
                choices.append((not (agrees and direct), not agrees, 0.0 if agrees else distance, order, figure))
            elif trust == "nearby":
                fallback = fallback or figure
            elif trust == "compared":
                comparand = comparand or figure
        chosen = min(choices, key=lambda choice: choice[:4]) if choices else None
        if unheld is not None and labels:
            return unheld  # a table's label or column naming a part the data lacks decides for its cells
        if chosen is not None and (unheld is None or _verdict(database, state, claim, chosen[4])[1].verdict == "ok"):
            # A part the data lacks named beside one it holds ("the MI355X and MI350X ... 288 GB", "GB200 v6 ... 130TB/s")
            # yields to the held part only where that part's figure agrees as the text counts it.
            return chosen[4]
        if unheld is not None and (chosen is not None or number + 1 >= sentence_tiers):
            return unheld
        if undecided is not None:
            return undecided
        if lacking is not None and claim.dimension != "count":
            return lacking
    if claim.dimension == "count":
        return None
    remembered = state.topic_record(topic, claim.start) if topic else None
    if remembered:
        figure, agrees, _ = _best(database, claim, topic, (remembered,), state)
        if agrees:
            return figure
    if fallback is not None:
        return fallback
    if comparand is not None:
        state.against_comparand.add(index)
        return comparand
    if named is None and claim.dimension == "compute":
        # "This GPU reaches 60 TFLOPS FP32" on a page about the H100: a rate of a kind the page's part holds none of.
        return subject_lacking
    return named if claim.dimension in _NAMED_DIMENSIONS else None


def _alternative_agrees(claim: Claim, figure: Figure) -> bool:
    return any(_agrees(claim, _on_basis(value, figure.direction, claim.basis or figure.direction)) for value, _, _ in figure.alternatives)


def _names_nearest(state: _PageState, claim: Claim, own: tuple[int, int], others: _Stretches, start: int, end: int,
                   family: bool) -> list[Mention]:
    """Names in a stretch of text: in the claim, then before it nearest first, then after it (unless they belong to
    another claim's words: past the claim's own phrase, a name in another claim's words is that claim's)."""
    mentions = state.names_near(start, end, claim, family)
    inside = [m for m in mentions if m.start < claim.end and claim.start < m.end]
    before = sorted((m for m in mentions if m.end <= claim.start), key=lambda m: -m.start)
    after = sorted((m for m in mentions if m.start >= claim.end and (m.start < own[1] or not others.cover(m.start))), key=lambda m: m.start)
    return inside + before + after


def _repeated(state: _PageState, index: int) -> list[Figure]:
    """The figure of an earlier claim with the same value: a page repeats its figures without naming them again."""
    repeated = state.repeats.find(state.claims[index])
    return [repeated] if repeated else []


def _page_subject(mentions: list[Mention]) -> list[Mention]:
    """The record the page names most often (outside comparisons): what a figure with no name nearby is most likely about."""
    counts: dict[tuple[str, ...], list[Mention]] = {}
    for mention in mentions:
        if mention.known and not mention.family:
            counts.setdefault(mention.records, []).append(mention)
    return [max(counts.values(), key=len)[0]] if counts else []


def _best(database: Database, claim: Claim, topic: str | None, records: tuple[str, ...], state: _PageState) -> tuple[Figure | None, bool, float]:
    """Among the named records and the records they use or are used by, the figure of the claim's kind that fits its value best, whether it agrees, and how far off it is.

    Records used by or using a named one count only with the scope the text states.
    """
    direct = set(records)
    nearby = set(direct)
    for record_id in records:
        nearby |= database.uses.get(record_id, set()) | database.used_by.get(record_id, set())
    measured, sparse = _claim_says(state, claim)
    measured = measured and claim.dimension != "count"  # the GPUs a run used are the machine's count, not a result
    precision = _precision(state, claim)
    if claim.dimension == "compute" and sparse:
        return None, False, math.inf  # the database holds dense figures only
    if measured:
        # A measurement is of the machine named, never of a part it uses; a run "on H100" is a run on a machine built of
        # them, so the machines using a named part are where its measurements are held, when the part holds none.
        nearby = direct
        if not any(figure.name.startswith("measured_") and figure.dimension == claim.dimension
                   for record_id in direct for figure in database.figures.get(record_id, [])):
            nearby = direct.union(*(
                {system for system in database.used_by.get(record_id, set()) if database.kinds.get(system) == "system"}
                for record_id in records if database.kinds.get(record_id) == "accelerator"))
    candidates = [
        figure for record_id in sorted(nearby) for figure in database.figures.get(record_id, [])
        if figure.dimension == claim.dimension and _about(figure, topic, claim) and figure.name.startswith("measured_") == measured
        and (claim.dimension != "compute" or precision is None or figure.precision == precision)
    ]
    if claim.dimension == "count" and claim.noun == "accelerators" and _DOMAIN.search(
            state.page.text, state.page.clause_of(claim.start).start, state.page.clause_of(claim.start).end):
        # "the NVLink domain is 8 GPUs" counts the GPUs one switch fabric joins, not those in the box (the same 8 or 72,
        # but another figure).
        clause = state.page.clause_of(claim.start)
        domains = [figure for figure in candidates if "domain" in figure.name]
        if not _REDUCTION.search(state.page.text, clause.start, clause.end):
            # Unless the words are of in-switch reduction (SHARP), the domain meant is the one the links join.
            domains = [figure for figure in domains if "reduction" not in figure.name] or domains
        candidates = domains or candidates
    if claim.scope and claim.dimension == "bandwidth":
        # A lane, link or port is a part of its own: a named record's figure of another scope is another quantity
        # ("per lane" is not the x16 link's); "in total" or "per GPU" may sum what the record holds per accelerator.
        strict = claim.scope in ("per-lane", "per-link", "per-port")
        candidates = [figure for figure in candidates if figure.scope == claim.scope
                      or (figure.record_id in direct and (not strict or figure.scope is None))]
    if not candidates:
        return None, False, math.inf

    vendors = {database.vendors.get(record_id) for record_id in direct}

    def fit(figure: Figure) -> tuple[int, int, int, int, float, int]:
        values = [entry[0] for entry in figure.timeline]
        recounted = []
        if figure.direction in _DIRECTED and claim.basis is None:
            recounted = [_on_basis(entry[0], figure.direction, _other(figure.direction)) for entry in figure.timeline]
        elif claim.basis and figure.direction in _DIRECTED:
            values = [_on_basis(entry[0], figure.direction, claim.basis) for entry in figure.timeline]
        distance = min(abs(math.log(claim.value / value)) for value in values + recounted if value > 0)
        # Counted as the text says: preferred over a figure converted to that basis when about as close.
        if claim.basis and claim.basis == figure.direction:
            distance -= _SAME_BASIS_PREFERENCE
        as_held = any(_agrees(claim, value) for value in values)
        # Of the named records' figures, one that agrees as it is counted before one that agrees only counted the other way
        # ("50 GB/s" of IB is NDR's port one way, not HDR's both ways).
        return (
            0 if as_held or any(_agrees(claim, value) for value in recounted) else 1,
            0 if figure.record_id in direct else 1,
            0 if as_held else 1,
            0 if claim.scope in (None, figure.scope) else 1,
            distance,
            # Of systems equally close, the part's own vendor's (the HGX H100 that "8 GPUs" of an H100 node are) before a cloud's.
            0 if database.vendors.get(figure.record_id) in vendors else 1,
        )

    fits = [fit(figure) for figure in candidates]
    best_fit = min(fits)
    tied = [figure for figure, fitted in zip(candidates, fits, strict=True) if fitted == best_fit]
    best = tied[0]
    if len(tied) > 1:
        # Systems alike in all else ("8 GPUs" of an HGX A100, H100 or H200): the one built of the accelerator the page names
        # nearest, then of any part it names nearest (the NVLink 4 an HGX H100 and an HGX H200 share says less).
        named = state.named_records(claim)

        def nearness(figure: Figure) -> tuple[int, int]:
            built_of = {figure.record_id} | database.uses.get(figure.record_id, set())
            built = [at for at, records in enumerate(named) if built_of.intersection(records)]
            accelerators = [at for at in built if database.kinds.get(named[at][0]) == "accelerator"]
            return (accelerators or [len(named)])[0], (built or [len(named)])[0]
        best = min(tied, key=nearness)
    agrees, _, _, _, distance, _ = best_fit
    return best, agrees == 0, distance


def _kind_of(state: _PageState, claim: Claim) -> str:
    """What the text gives, in words for a note: "fp8 compute", "sparse compute", "power"."""
    if claim.dimension != "compute":
        return claim.dimension.replace("_", " ")
    precision = _precision(state, claim)
    sparse = "sparse " if _claim_says(state, claim)[1] else ""
    return f"{sparse}{precision + ' ' if precision else ''}compute"


def _precision(state: _PageState, claim: Claim) -> str | None:
    """The number format a compute figure is given in (bf16, fp8...): named nearest before it in its sentence (its cell,
    then its header and row label, in a table), else its paragraph."""
    page = state.page
    # "197 TFLOPS bf16 393 TOPS INT8": a format written right after a figure, or right before it, is its own.
    inside = _PRECISION.search(page.text, claim.start, claim.end)
    if inside:
        return _format_name(inside[1])
    own = _FORMAT_AFTER.match(page.text, claim.end) or _FORMAT_BEFORE.search(page.text, max(0, claim.start - 16), claim.start)
    if own:
        return _format_name(own["format"])
    if UNIT_SPELLINGS.get(claim.unit, "").endswith("FLOPS") and claim.unit.upper().endswith("OPS") and "FLOP" not in claim.unit.upper():
        return "int8"  # operations per second, not floating-point: integer
    cell = page.cell_of(claim.start)
    sentence = page.sentence_of(claim.start)
    paragraph = page.paragraphs[page.paragraph_of(claim.start)]
    stretches = [(cell.start, cell.end), *((span.start, span.end) for span in _inherited(page, claim))] if cell else []
    for start, end in (*stretches, (sentence.start, sentence.end), (paragraph.start, claim.start)):
        named = state.precisions.last(start, end, claim.start) or state.precisions.first(start, end)
        if named:
            return _paired(page.text, named) or _format_name(named[1])
    return None


def _paired(text: str, named: tuple[int, str, int]) -> str | None:
    """The format meant where a format is written as one of a pair ("BF16/FP16", "FP16 / BF16", "FP8/INT8"): the rate is
    both formats', and the figures hold it under BF16, or FP8."""
    pair = _FORMAT_PAIR.search(text, max(0, named[0] - 12), named[2] + 12)
    if pair is None or not pair.start() <= named[0] < pair.end():
        return None
    both = {_format_name(pair[1]), _format_name(pair[2])}
    return "bf16" if "bf16" in both else "fp8" if "fp8" in both else None


def _format_name(written: str) -> str:
    """A number format as the figures name it: "BFLOAT16" is bf16."""
    written = written.casefold()
    return "bf16" if written == "bfloat16" else written


def _about(figure: Figure, topic: str | None, claim: Claim) -> bool:
    """Whether a figure is about the topic the text names (HBM, NVLink, PCIe, the network...) and counts what the claim counts."""
    name = figure.name
    if claim.dimension == "count":
        wanted = {"accelerators": ("accelerators", "domain", "slice"), "links": ("links",), "lanes": ("lanes",),
                  "ports": ("ports",), "nics": ("nics",)}[claim.noun or "accelerators"]
        return any(word in name for word in wanted) and not name.endswith("_per_server")
    if name == "driver_memory_total" and not claim.unit.endswith("iB"):
        # What nvidia-smi reports (275040 MiB): a page giving a capacity in the vendors' GB speaks of the memory, not of it.
        return False
    if topic is None:
        return True
    if topic == "memory":
        return "memory" in name or "hbm" in name
    if topic == "host":
        return figure.kind == "link" and any(word in name for word in ("x16", "lane", "encoding")) or "host" in name
    # A collective's bus bandwidth measured within one box crosses its scale-up links; across nodes or racks, the network.
    across_boxes = "busbw" in name and any(word in name for word in ("node", "rack"))
    if topic == "scale_out":
        return figure.kind == "fabric" or "scale_out" in name or "roce" in name or across_boxes
    if topic == "scale_up":
        return ((figure.kind == "link" and not any(word in name for word in ("x16", "lane_rate", "encoding"))) or "scale_up" in name
                or ("busbw" in name and not across_boxes))
    if topic == "compute":
        return "flops" in name
    if topic == "utilization":
        return "mfu" in name
    return topic in name


def _topic(state: _PageState, index: int) -> str | None:
    """The tier or kind of figure named in the claim's own phrase, else (in a table cell) in its column's header, its
    row's label or the table's caption, else nearest before it in its clause or sentence; only a kind a figure of the
    claim's dimension can be (no "HBM" for a FLOPS figure)."""
    page, claim = state.page, state.claims[index]
    clause, sentence = page.clause_of(claim.start), page.sentence_of(claim.start)
    own_start, own_end = _own_phrase(state, index)
    named = [state.topics.last(own_start, own_end, claim.start), state.topics.first(own_start, own_end)]
    named += [state.topics.first(span.start, span.end) for span in _inherited(page, claim)]
    named += [state.topics.last(start, end, claim.start) for start, end in ((clause.start, clause.end), (sentence.start, sentence.end))]
    return next((mark[1] for mark in named if mark is not None and _fits(mark[1], claim) and not _in_name(state, mark[0])), None)


def _in_name(state: _PageState, offset: int) -> bool:
    """Whether an offset lies inside a part's name: "PCIe" in "H100 PCIe" names the variant, not the host link."""
    at = bisect_right(state.mention_starts, offset) - 1
    return at >= 0 and state.mentions[at].known and offset < state.mentions[at].end and state.mentions[at].start < offset


def _fits(topic: str, claim: Claim) -> bool:
    if claim.dimension == "compute":
        return topic == "compute"
    if claim.dimension == "power":
        return False  # a part's power is its own, whatever tier the sentence names ("96 GB of HBM and draws 600 W")
    if claim.dimension == "time":
        return topic == "latency"
    if claim.dimension == "bandwidth":
        return topic not in ("compute", "utilization", "latency")
    return True


def _says_sparse(text: str, start: int, end: int) -> bool:
    """Whether a stretch gives a sparse rate: it names sparsity, and not as what the rate is without ("in dense mode, without
    2:4 structured sparsity"), as a feature ("support for 4:1 sparsity") or as an error ruled out ("not a sparsity mixup")."""
    return any(_SPARSITY_DENIED.search(text, max(start, found.start() - _DENIAL_REACH), found.start()) is None
               for found in _SPARSE.finditer(text, start, end))


def _claim_says(state: _PageState, claim: Claim) -> tuple[bool, bool]:
    """Whether the claim's sentence (or its part of it, by the words of a run), or the header and row label of its table cell,
    speak of a measurement, and of sparsity."""
    measured, sparse = state.sentence_says(state.page.sentence_of(claim.start))
    measured = measured or state.part_measures(claim)
    for span in _inherited(state.page, claim):
        in_span = state.sentence_says(span)
        measured, sparse = measured or in_span[0], sparse or in_span[1]
    return measured and not state.rated(claim), sparse


def _inherited(page: Page, claim: Claim) -> list[Span]:
    """What a claim in a table cell inherits its words from: its column's header, its row's label, the table's caption."""
    cell = page.cell_of(claim.start)
    return [span for span in (cell.header, cell.label, cell.caption) if span is not None] if cell is not None else []


def _lead_in(state: _PageState, claim: Claim) -> str:
    """The words of a claim's own phrase before it ("the total data rate for a link is")."""
    index = bisect_left(state.claim_starts, claim.start)
    start = max(_own_phrase(state, index)[0], state.claims[index - 1].end if index else 0)
    return state.page.text[start:claim.start]


def _own_phrase(state: _PageState, index: int) -> tuple[int, int]:
    """The words around a claim up to the nearest joining word or comma on each side, within its clause and its table cell."""
    phrase = state.own_phrases.get(index)
    if phrase is None:
        claim = state.claims[index]
        clause = state.page.clause_of(claim.start)
        joiner = state.joiners.last(clause.start, claim.start, claim.start)
        following = state.joiners.first(claim.end, clause.end)
        phrase = (joiner[2] if joiner else clause.start), (following[0] if following else clause.end)
        cell = state.page.cell_of(claim.start)
        if cell is not None:
            # A cell's own words end with it: a table row with no closing pipe runs on into the next row's label.
            phrase = max(phrase[0], cell.start), min(phrase[1], cell.end)
        state.own_phrases[index] = phrase
    return phrase


# Times derived from a bandwidth -----------------------------------------------

def _check_time(database: Database, state: _PageState, index: int) -> Finding | None:
    claim = state.claims[index]
    source = state.resolved.get(claim.derived_bandwidth)
    bandwidth_claim = state.claims[claim.derived_bandwidth]
    if source is None or claim.derived_size is None:
        return None
    direction = source.operand.direction
    as_written = claim.derived_size / bandwidth_claim.value
    one_way = claim.derived_size / source.operand.one_way
    label = f"({_number_text(claim.derived_size / 1e9)} GB ÷ {source.figure.label})"
    operand = _Operand(claim.value, one_way, direction, label, "time")
    state.resolve(index, _Resolved(source.figure, operand))
    expected = _in_unit(claim, as_written)
    if _agrees(claim, one_way):
        return _finding("ok", expected=expected, basis=direction, label=label)
    one_way_text = f"{_in_unit(claim, one_way)} ({_number_text(claim.derived_size / 1e9)} GB ÷ {_in_unit(bandwidth_claim, source.operand.one_way)} per direction)"
    if direction == "bidirectional" and _agrees(claim, as_written):
        return _finding("mixed-basis", expected=expected, basis=direction, label=label,
                        note=f"{bandwidth_claim.text} counts both directions, and each byte crosses one way",
                        suggestion=one_way_text)
    return _finding("mismatch", expected=_in_unit(claim, one_way), basis="per-direction", label=label, suggestion=one_way_text)


# Ratios -----------------------------------------------------------------------

def _check_ratio(database: Database, state: _PageState, index: int) -> Finding | None:
    claim = state.claims[index]
    operands = _ratio_operands(database, state, index)
    if operands is None:
        return None
    first, second = operands
    if first.label == second.label or "count" in (first.dimension, second.dimension):
        return None  # a figure divided by itself, or a ratio of counts, is no ratio a text states
    if first.dimension != second.dimension or abs(math.log(first.one_way / second.one_way)) < _RATIO_TOLERANCE:
        # "22x higher" sets like beside like, and differs: a bandwidth over a capacity, or a part's figure over the same
        # value held for the link it uses, are sides picked wrongly, not what the text divides.
        return None
    high, low = (first, second) if first.quoted >= second.quoted else (second, first)
    quoted = high.quoted / low.quoted
    one_way = high.one_way / low.one_way
    mixed = not same_basis(high.direction or "total", low.direction or "total")
    label = f"{high.label} ÷ {low.label}"
    expected = _number_text(quoted, 3)
    basis = f"{high.direction or 'count'} ÷ {low.direction or 'count'}"
    one_way_text = f"{_number_text(one_way, 2)} times counted one way"
    if _ratio_agrees(claim, one_way):
        return _finding("ok", expected=_number_text(one_way, 3), basis=basis, label=label)
    if _ROUGHLY.search(state.page.text, max(0, claim.start - 16), claim.start):
        # "Roughly 55×" of 56.25: a ratio its words call rough is rounded more than its digits say, up to the rounding cap.
        claim = replace(claim, half_unit=max(claim.half_unit, _ROUNDING_CAP * claim.value))
        if _ratio_agrees(claim, one_way):
            return _finding("ok", expected=_number_text(one_way, 3), basis=basis, label=label)
    clause = state.page.clause_of(claim.start)
    if (_SPEED.match(state.page.text, claim.end)
            and _WORKLOAD.search(state.page.text, clause.start, max(clause.end, _own_phrase(state, index)[1]))):
        return None  # "5X faster in certain operations": a multiple of performance, which divides no figures held
    if mixed and _ratio_agrees(claim, quoted):
        return _finding("mixed-basis", expected=expected, basis=basis, label=label,
                        note="divides figures counted differently", suggestion=one_way_text)
    if claim.unit == "%":
        return _finding("mismatch", expected=f"{_number_text((one_way - 1) * 100, 2)}%", basis=basis, label=label,
                        suggestion=f"{_number_text((one_way - 1) * 100, 2)}% more")
    return _finding("mismatch", expected=_number_text(one_way, 3), basis=basis, label=label,
                    suggestion=one_way_text if mixed else f"{_number_text(quoted, 2)} times")


def _ratio_operands(database: Database, state: _PageState, index: int) -> tuple[_Operand, _Operand] | None:
    """What a ratio divides: the figure it is compared against ("than HBM", "against NVLink's 900 GB/s") and the figure it speaks of."""
    page, claim = state.page, state.claims[index]
    sentence = page.sentence_of(claim.start)
    comparisons = state.comparison_words.within(sentence.start, sentence.end)
    against = next((word for word in reversed(comparisons) if word[2] <= claim.start and word[1] != "than"), None)
    than = next((word for word in comparisons if word[0] >= claim.end and word[1] == "than"), None)
    excluded = state.comparisons
    earlier = [i for i in state.resolved_before(index) if not excluded.cover(state.claims[i].start)]
    if _PREDECESSOR.search(page.text, claim.end, min(sentence.end, claim.end + _PREDECESSOR_REACH)):
        # "2X more bandwidth than the previous generation": the figure last given in the paragraph, against its family's
        # generation before; with no such generation held, not judged.
        paragraph = page.paragraphs[page.paragraph_of(claim.start)]
        latest = next((i for i in earlier if state.claims[i].start >= paragraph.start and state.claims[i].dimension != "count"), None)
        if latest is None:
            return None
        before = database.previous_generation(state.resolved[latest].figure)
        return (state.resolved[latest].operand, _figure_operand(database, before)) if before is not None else None
    if claim.unit == "%":
        return _percent_operands(database, state, index, state.resolved_before(index))
    part = _multiplied_part(state, claim)
    if part is not None and part.known and than is None and against is None:
        # "1,640 GB/s — exactly 2× v5e": the figure given last before the ratio in its sentence, against the same figure of
        # the part it multiplies; not judged when that part holds no such figure.
        latest = next((i for i in earlier if state.claims[i].start >= sentence.start and state.claims[i].dimension != "count"), None)
        if latest is None:
            return None
        subject = state.resolved[latest].figure
        named = state.topics.first(*_own_phrase(state, index))
        if named is not None and not _named_kind(named[1], subject):
            return None  # "8 TB/s of HBM, 2.5× H100's compute": the ratio is not of the figure before it
        other = next((f for record in part.records for f in database.figures.get(record, []) if f.name == subject.name), None)
        return (state.resolved[latest].operand, _figure_operand(database, other)) if other is not None else None
    of_part = _OF_PART.match(page.text, claim.end, sentence.end) if than is None and against is None else None
    if of_part is not None:
        return _parts_compared(database, state, index, of_part)
    if than is not None:
        span = (than[2], _phrase_end(page, than[2], sentence.end))
    elif against is not None:
        span = (against[2], claim.start)
    else:
        # With nothing named to compare against, the two figures last given, in this paragraph or the two before; not in
        # a table, whose cells are no sentence, and only figures of the kind the ratio's own words name (compute for "2.3× the
        # FP8 compute", not two memory bandwidths).
        if page.cell_of(claim.start) is not None:
            return None
        number = page.paragraph_of(claim.start)
        since = page.paragraphs[max(number - 2, 0)].start
        named = state.topics.first(*_own_phrase(state, index))
        # The figures last given are the page's, matched or not: where the nearest is one no record holds ("1.31
        # petaflops at FP16", "90 GB/s of ICI per axis"), the ratio divides it, and is not judged on figures further back.
        unheld = next((i for i in reversed(range(index)) if state.claims[i].start >= since and state.claims[i].kind == "quantity"
                       and state.claims[i].dimension != "count" and (i not in state.resolved or i in state.unheld)), -1)
        recent = [i for i in earlier[:6] if state.claims[i].start >= since and state.claims[i].dimension != "count"
                  and i > unheld and (named is None or _named_kind(named[1], state.resolved[i].figure))]
        for newest in recent:
            partner = next((i for i in recent if i != newest and state.claims[i].dimension == state.claims[newest].dimension), None)
            if partner is not None:
                return state.resolved[newest].operand, state.resolved[partner].operand
        return None
    subject = _operand_in(database, state, _subject_span(state, index, against), index, excluded) or next(
        (state.resolved[i].operand for i in earlier if state.claims[i].dimension != "count"), None)
    if subject is None:
        return None
    comparison = _operand_in(database, state, span, index, dimension=subject.dimension)
    return (subject, comparison) if comparison is not None else None


def _percent_operands(database: Database, state: _PageState, index: int, earlier: list[int]) -> tuple[_Operand, _Operand] | None:
    """What "76% more memory" or "(33% more than MI300X)" compares: the figure its words name ("memory", "bandwidth") or,
    with none named, the figure given just before it in its sentence, of the part the sentence speaks of and of the part
    it is compared with ("as H100", "than MI300X"); else the two last figures of that kind in the sentence. Not judged
    when the words name no kind of figure the data holds, or no two parts hold it."""
    page, claim = state.page, state.claims[index]
    sentence = page.sentence_of(claim.start)
    kind_word = _PERCENT_OF.match(page.text, claim.end)
    words = page.text[sentence.start:sentence.end]
    kind = None
    if kind_word is not None:
        named = kind_word["kind"].casefold()
        kind = (figure_names.MEMORY_BANDWIDTH if _TOPICS[0][1].search(words) else None) if named == "bandwidth" \
            else figure_names.MEMORY_CAPACITY
    before = [i for i in earlier if state.claims[i].start >= sentence.start and state.claims[i].dimension != "count"]
    if kind is None:
        if kind_word is not None or not before:
            return None
        kind = state.resolved[before[0]].figure.name
    mentions = [m for m in state.mentions_in(sentence.start, sentence.end) if m.known and not m.family]
    compared = [m for m in mentions if state.compared(m) is not None]
    subjects = [m for m in mentions if state.compared(m) is None and m.start < claim.start] or state.subject
    if compared and subjects and compared[0].records != subjects[-1].records:
        sides = [next((f for record in m.records for f in database.figures.get(record, []) if f.name == kind), None)
                 for m in (subjects[-1], compared[0])]
        return (_figure_operand(database, sides[0]), _figure_operand(database, sides[1])) if None not in sides else None
    given = [state.resolved[i] for i in before if state.resolved[i].figure.name == kind]
    others = [other for other in given[1:] if other.figure.record_id != given[0].figure.record_id]
    return (given[0].operand, others[0].operand) if given and others else None


def _named_kind(topic: str, figure: Figure) -> bool:
    """Whether a figure is of the kind a ratio's words name: compute ("2.3× the FP8 compute") or a bandwidth or size of a tier."""
    return (topic == "compute") == (figure.dimension == "compute")


def _parts_compared(database: Database, state: _PageState, index: int, of_part: re.Match) -> tuple[_Operand, _Operand] | None:
    """"B200 ... 2.3× the FP8 compute of H100": the figure the words name, of the part named last before the ratio in its
    sentence and of the part after "of"; not judged when either part is not named or holds no such figure."""
    page, claim = state.page, state.claims[index]
    sentence = page.sentence_of(claim.start)
    before = [m for m in state.mentions_in(sentence.start, claim.start) if m.known and not m.family]
    after = [m for m in state.mentions_in(of_part.end(), of_part.end() + 1) if m.known and not m.family]
    if not before or not after or before[-1].records == after[0].records:
        return None
    precision = (of_part["precision"] or "bf16").casefold()
    wanted = {"compute": f"dense_{precision}_flops", "memory bandwidth": figure_names.MEMORY_BANDWIDTH,
              "bandwidth": figure_names.MEMORY_BANDWIDTH, "memory": figure_names.MEMORY_CAPACITY}[of_part["kind"].casefold()]
    sides = [next((f for f in database.figures.get(m.records[0], []) if f.name == wanted), None) for m in (before[-1], after[0])]
    if None in sides:
        return None
    return _figure_operand(database, sides[0]), _figure_operand(database, sides[1])


def _subject_span(state: _PageState, index: int, against: tuple[int, str, int] | None) -> tuple[int, int]:
    """The words before a ratio that say what it speaks of ("so HBM is about"): back to the last comma or "and" in its clause."""
    page, claim = state.page, state.claims[index]
    clause = page.clause_of(claim.start)
    end = against[0] if against is not None and against[0] >= clause.start else claim.start
    cuts = [match.end() for match in re.finditer(r",|\band\b|\bso\b", page.text[clause.start:end])]
    return (clause.start + cuts[-1] if cuts else clause.start), end


def _comparison_spans(state: _PageState) -> _Stretches:
    """The stretches of text that name what a ratio is compared against ("than ...", and from "against" or "versus" to the ratio); a figure inside one is not the ratio's subject."""
    page, spans = state.page, []
    for claim in state.claims:
        if claim.kind != "ratio":
            continue
        sentence = page.sentence_of(claim.start)
        words = state.comparison_words.within(sentence.start, sentence.end)
        against = next((word for word in words if word[1] != "than" and word[2] <= claim.start), None)
        if against is not None:
            spans.append((against[2], claim.start))
        than = next((word for word in words if word[1] == "than" and word[0] >= claim.end), None)
        if than is not None:
            spans.append((than[2], _phrase_end(page, than[2], sentence.end)))
    return _Stretches(spans)


def _column_parts(state: _PageState) -> dict[int, Mention]:
    """The part each figure of a plain-text table stands under, where the table has no separators: a line of a label and
    two or more part names ("Feature GB300 GB200 B300 B200", "Specification  v5e  v6e"), then, up to a blank line, rows
    of a label and one figure per part, in the parts' order. A row with another number of figures, or with words between
    them, is read as prose."""
    text, claims, parts = state.page.text, state.claims, {}
    header: list[Mention] = []
    start = 0
    while start <= len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        names = state.mentions_in(start, end)
        row = [index for index in state.claims_in(start, end) if claims[index].kind == "quantity"]
        gaps = zip((mention.end for mention in names), [mention.start for mention in names[1:]] + [end])
        if not text[start:end].strip():
            header = []
        elif len(names) >= 2 and not row and all(_BETWEEN_NAMES.fullmatch(text, gap_start, gap_end) for gap_start, gap_end in gaps):
            header = names
        elif (header and row and state.page.cell_of(claims[row[0]].start) is None and len(row) == len(header)
              and all(_BETWEEN_FIGURES.fullmatch(text, claims[before].end, claims[after].start) for before, after in pairwise(row))
              and _BETWEEN_FIGURES.fullmatch(text, claims[row[-1]].end, end)):
            parts.update(zip(row, header))
        start = end + 1
    return parts


def _comparand_phrases(state: _PageState, words: _Marks) -> list[tuple[int, int]]:
    """The phrases that name what a sentence compares against: from a comparing word to the next comma, bracket or dash.
    A part's name right before the word ("H100 vs H200", "DGX H100 vs GB200 NVL72") sets two parts side by side, and
    neither is the other's comparand."""
    page, phrases = state.page, []
    for claim in state.claims:
        # "4.66× v5e's 197 TFLOPS", "2× the H100": the part a ratio multiplies is its comparand, and so is a figure in
        # brackets right after it ("3.2 times that of IB (50 GB/s)").
        part = _multiplied_part(state, claim) if claim.kind == "ratio" else None
        if part is not None:
            brackets = _BRACKETED.match(page.text, part.end)
            phrases.append((claim.end, brackets.end() if brackets else part.end))
    for word_start, _, start in words.marks:
        named_before = state.mentions_in(word_start - _LONGEST_NAME, word_start)
        if named_before and not page.text[named_before[-1].end:word_start].strip(" \t)*_'’s"):
            continue
        limit = min(page.sentence_of(start).end, start + _COMPARAND_REACH)
        end = _COMPARAND_END.search(page.text, start, limit)
        phrases.append((start, end.start() if end else limit))
    return sorted(phrases)


def _multiplied_part(state: _PageState, claim: Claim) -> Mention | None:
    """The part named right after a ratio ("2× v5e", "4.66× v5e's", "3.2 times that of IB"), if any."""
    words = _RATIO_OF.match(state.page.text, claim.end)
    at = bisect_left(state.mention_starts, words.end()) if words else len(state.mentions)
    return state.mentions[at] if at < len(state.mentions) and state.mentions[at].start == words.end() else None


def _phrase_end(page: Page, start: int, limit: int) -> int:
    dash = re.compile(r"—|–|\s-\s|\(").search(page.text, start, limit)
    return dash.start() if dash else limit


def _operand_in(database: Database, state: _PageState, span: tuple[int, int], ratio_index: int,
                excluded: _Stretches = _NOTHING, dimension: str | None = None) -> _Operand | None:
    """A figure claimed inside the span (of the other side's dimension), else the figure of the tier the span names."""
    if span[0] >= span[1]:
        return None
    for index in state.claims_in(*span):
        resolved = state.resolved.get(index)
        if resolved is not None and not excluded.cover(state.claims[index].start) and dimension in (None, resolved.operand.dimension):
            return resolved.operand
    words = state.page.text[span[0]:span[1]]
    topic = next((name for name, pattern in _TOPICS if pattern.search(words)), None)
    if topic is None:
        return None
    named = [m for m in state.mentions_in(*span) if m.known and not m.family]
    paragraph = state.page.paragraphs[state.page.paragraph_of(span[0])]
    context = named or list(islice((m for m in reversed(state.mentions_in(paragraph.start, span[0])) if m.known and not m.family),
                                   _NEAREST_NAMES))
    records = [m.records[0] for m in context]
    remembered = state.topic_record(topic, span[0])
    if remembered:
        records.append(remembered)
    for record_id in records:
        figures = [f for f in database.figures.get(record_id, []) if f.dimension == "bandwidth" and _about(f, topic, state.claims[ratio_index])
                   and not f.name.startswith("measured_")]
        figures = [f for f in figures if f.name in _TIER_FIGURES.get(topic, ())] or figures
        if len(figures) == 1:
            return _figure_operand(database, figures[0])
    return None


def _figure_operand(database: Database, figure: Figure) -> _Operand:
    value = figure.timeline[database.effective(figure)][0]
    one_way = Bandwidth(value, figure.direction, figure.record_id, figure.name).on("per-direction") if figure.dimension == "bandwidth" else value
    return _Operand(value, one_way, figure.direction, figure.label, figure.dimension)


def _ratio_agrees(claim: Claim, value: float) -> bool:
    if claim.high is not None:
        return claim.value * (1 - _RATIO_TOLERANCE) <= value <= claim.high * (1 + _RATIO_TOLERANCE)
    return _agrees(claim, value)


# Numbers ----------------------------------------------------------------------

def _agrees(claim: Claim, expected: float) -> bool:
    """Within half a unit of the claim's last digit ("16,000" for 16,384), but never more than 2.5% off; for a range, within it so widened."""
    tolerance = min(claim.half_unit, _ROUNDING_CAP * abs(expected)) + _FLOATING_POINT * abs(expected)
    if claim.low is not None:
        return claim.low - tolerance <= expected <= claim.value + tolerance
    return abs(claim.value - expected) <= tolerance


def _on_basis(value: float, direction: str | None, basis: str | None) -> float:
    if direction == "bidirectional" and basis == "per-direction":
        return value / 2
    if direction == "per-direction" and basis == "bidirectional":
        return value * 2
    return value


def _other(direction: str | None) -> str:
    return "per-direction" if direction == "bidirectional" else "bidirectional"


def _is_bytes(claim: Claim) -> bool:
    return "B" in UNIT_SPELLINGS.get(claim.unit, "")


def _in_unit(claim: Claim, value: float) -> str:
    """A canonical value written in the claim's own unit ("63 GB/s", "71.1 ms")."""
    if claim.dimension == "count":
        return _number_text(value)
    factor = UNITS[UNIT_SPELLINGS[claim.unit]][1]  # the unit's own factor: "1 B/s" is below any plausible bandwidth
    return f"{_number_text(value / factor)}{'' if claim.unit == '%' else ' '}{claim.unit}"


def _number_text(value: float, digits: int = 3) -> str:
    if abs(value) >= 10 ** digits and abs(value - round(value)) < 0.5:
        return f"{round(value):,}"
    return f"{value:.{digits}g}"
