#!/usr/bin/env python3
"""Converts apiextensions-apiserver's `TestCelCostStability` table into JSON.

Usage: convert_cost_stability.py <apiextensions-apiserver checkout> <output file>

Reads `pkg/apiserver/schema/cel/celcoststability_test.go` and evaluates the table
literal of `TestCelCostStability` with the Go-literal evaluator of
`../engine_rules_data/convert_go_tables.py` (which knows the helper functions of
`validation_test.go`: `objs`, `schemas`, `listType`, `ValsEqualThemselvesAndDataLiteral`,
...). Each case becomes `{name, schema (JSONSchemaProps JSON), obj, expectCost}`.
The conversion is mechanical; rerun it to check the JSON against the Go sources.
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "engine_rules_data"))
import convert_go_tables as c  # noqa: E402


def main():
    root, out = sys.argv[1], sys.argv[2]
    src = open(root + "/pkg/apiserver/schema/cel/celcoststability_test.go").read()
    pre = {"buildLargeArray": c.Func("buildLargeArray", lambda n: list(range(n)))}
    rows = c.table(src, "TestCelCostStability", pre)
    with open(out, "w") as f:
        f.write("[\n")
        f.write(",\n".join(json.dumps(r, ensure_ascii=False, sort_keys=True) for r in rows))
        f.write("\n]\n")
    print(len(rows), sum(len(r["expectCost"]) for r in rows))


if __name__ == "__main__":
    main()
