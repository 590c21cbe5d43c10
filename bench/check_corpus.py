"""Precision and recall of `specdb check` on its test corpus (tests/data/check), against the verdicts written in expected.tsv.

A finding is correct when it is an expected claim (same line and text) with the expected verdict and one of
the accepted figures; precision is correct findings over all findings, recall is expected claims so found.
Pages 20 to 22 were written and annotated after the checker's rules were settled and have not been used to
change them; they are reported apart, as the fairer estimate. (Pages 16 to 19 were annotated before the
checker first ran on them and scored precision 76.7%, recall 71.9% on that run; the checker was then
improved with them in view.)

    python bench/check_corpus.py
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import specdb  # noqa: E402
from check_corpus import pages, score  # noqa: E402
from specdb.check.verdicts import Database, check_text  # noqa: E402

HELD_OUT = ("20-", "21-", "22-")


def main() -> None:
    database = Database(specdb.connect(Path(__file__).resolve().parent.parent / "specs"))
    found = {page.name: check_text(page.read_text(encoding="utf-8"), database, path=page.name) for page in pages()}
    for title, chosen in (
        ("whole corpus", found),
        ("pages never used to tune the checker", {name: f for name, f in found.items() if name.startswith(HELD_OUT)}),
    ):
        result = score(chosen)
        print(f"{title}: {len(chosen)} pages, {result['expected']} expected claims, {result['findings']} findings, "
              f"precision {result['precision']:.1%}, recall {result['recall']:.1%}")
        for row in result["missed"]:
            print(f"  missed: {row.page}:{row.line} {row.claim!r} ({row.verdict})")
        for finding in result["unexpected"]:
            print(f"  wrong:  {finding}")


if __name__ == "__main__":
    main()
