"""Precision and recall of `specdb audit` on its fixtures (tests/data/audit), against the alarms written by hand in
expected/<file>.yaml before the tool first ran on each file.

The data is the specs of this checkout, with their git history, as `specdb audit` run here reads them. An alarm is
any verdict but ok and unmatched. A raised alarm is right when that field (line and key) is an expected
alarm; precision is right alarms over raised alarms, recall is expected alarms raised; both are also given by line
alone (the issue's measure: an error flagged on its line), since a key can be spelled more than one way. Whether the verdict itself is
one of those accepted is counted apart. The tuning files were used to write the rules; the held-out files were
measured once, after the rules were settled, and are the fairer estimate. Synthetic snippets written for one class of
error each are not real files and are left out of both. Files are counted as read (no error) and as giving a field (a
file read without an error may still hold no shape the readers know).

    python bench/audit_fixtures.py [SET...]   (a MANIFEST set: tuning, held-out, synthetic; tuning when none is named)

A held-out set is named only for its one measurement, so it is never run by default.
"""

import sys
from pathlib import Path

import yaml

import specdb
from specdb.audit.formats import read, read_text
from specdb.audit.judge import PASSING, Data, judge
from specdb.errors import UsageError

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "data" / "audit"


def score(data: Data, names: list[str]) -> dict:
    raised = right = expected_total = found = labelled = 0
    lines_raised = lines_right = lines_expected = lines_found = 0
    wrong, missed, unread, fieldless = [], [], [], []
    for name in names:
        path = str(FIXTURES / name)
        expected = {(alarm["line"], alarm["key"]): alarm["verdict"]
                    for alarm in yaml.safe_load((FIXTURES / "expected" / f"{name}.yaml").read_text())["alarms"]}
        try:
            _, fields = read(path, read_text(path))
        except UsageError as error:
            # A file not read finds none of its alarms.
            unread.append(str(error))
            fields = []
        if not fields:
            fieldless.append(name)  # read without an error, yet nothing understood in it
        findings = judge(fields, data, name)
        alarms = {(finding.line, finding.key): finding for finding in findings if finding.verdict not in PASSING}
        raised += len(alarms)
        expected_total += len(expected)
        for where, finding in alarms.items():
            if where in expected:
                right += 1
                labelled += finding.verdict in expected[where]
            else:
                wrong.append(f"{name}:{where[0]} {where[1]}: {finding.verdict} ({finding.written} vs {finding.holds})")
        found += sum(1 for where in expected if where in alarms)
        # By line alone: a key can be spelled more than one way (a dotted path, a device and a number format).
        expected_lines, alarm_lines = {line for line, _ in expected}, {line for line, _ in alarms}
        lines_raised, lines_right = lines_raised + len(alarm_lines), lines_right + len(alarm_lines & expected_lines)
        lines_expected, lines_found = lines_expected + len(expected_lines), lines_found + len(expected_lines & alarm_lines)
        missed += [f"{name}:{where[0]} {where[1]}" for where in expected if where not in alarms]
    return {"files": len(names), "alarms raised": raised, "right": right, "expected": expected_total, "found": found,
            "precision": right / raised if raised else 1.0, "recall": found / expected_total if expected_total else 1.0,
            "verdict as expected": labelled, "false alarms": wrong, "missed": missed, "not read": unread, "no field": fieldless,
            "line precision": lines_right / lines_raised if lines_raised else 1.0,
            "line recall": lines_found / lines_expected if lines_expected else 1.0, "lines": (lines_right, lines_raised, lines_found, lines_expected)}


def main() -> None:
    listed = yaml.safe_load((FIXTURES / "MANIFEST.yaml").read_text())
    manifest = {**listed["files"], **listed["synthetic"]}
    data = Data(specdb.connect(ROOT / "specs"), ROOT / "specs")
    for chosen in sys.argv[1:] or ["tuning"]:
        result = score(data, sorted(name for name, entry in manifest.items() if entry["set"] == chosen))
        print(f"{chosen}: {result['files']} files, {result['alarms raised']} alarms raised, {result['right']} right, "
              f"{result['found']} of {result['expected']} expected found; precision {result['precision']:.1%}, "
              f"recall {result['recall']:.1%}; verdict as expected on {result['verdict as expected']} of {result['right']}; "
              f"{result['files'] - len(result['not read'])} of {result['files']} files read, "
              f"{result['files'] - len(result['not read']) - len(result['no field'])} giving a field")
        right_lines, raised_lines, found_lines, expected_lines = result["lines"]
        print(f"  by line: {right_lines} of {raised_lines} lines with an alarm expected (precision {result['line precision']:.1%}), "
              f"{found_lines} of {expected_lines} expected lines flagged (recall {result['line recall']:.1%})")
        for line in result["not read"]:
            print(f"  not read: {line}")
        for line in result["false alarms"]:
            print(f"  false alarm: {line}")
        for line in result["missed"]:
            print(f"  missed: {line}")


if __name__ == "__main__":
    main()
