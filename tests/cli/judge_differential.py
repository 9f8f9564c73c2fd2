#!/usr/bin/env python3
"""Compares the level A verdicts of two runs' records.jsonl (verify and judge of the paths verify
wrote): per (query, algorithm, precision) the level A classes and each failure's class, triangle and
depth must be equal. Prints the counts; exit 1 on any difference."""
import json
import sys

LEVEL_A = {"penetration", "path_penetration", "tunnelling", "nonfinite", "recovery"}


def verdicts(path):
    out = {}
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            key = (r["query_id"], r["algorithm"], r["precision"])
            classes = sorted(c for c in r["classes"] if c in LEVEL_A)
            failures = sorted((x["class"], x.get("triangle"), repr(x.get("depth"))) for x in r["failures"]
                              if x["class"] in LEVEL_A)
            out[key] = (classes, failures)
    return out


def main():
    a, b = verdicts(sys.argv[1]), verdicts(sys.argv[2])
    if a.keys() != b.keys():
        print(f"different records: {len(a.keys() - b.keys())} only in the first, {len(b.keys() - a.keys())} only in the second")
        return 1
    differ = [k for k in a if a[k] != b[k]]
    failing = sum(1 for k in a if a[k][0])
    failures = sum(len(a[k][1]) for k in a)
    print(f"{len(a)} records, {failing} with a level A class, {failures} level A failures: {len(differ)} differ")
    for k in differ[:10]:
        print("  ", k, "\n     verify:", a[k], "\n     judge: ", b[k])
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
