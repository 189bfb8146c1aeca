#!/usr/bin/env python3
"""Converts the tables of apiextensions-apiserver's `values_test.go` into JSON.

Usage: convert_values.py <apiextensions-apiserver checkout> <output file>

Evaluates the table literals of `TestEquality` and `TestLister` in
`pkg/apiserver/schema/cel/values_test.go` with the Go-literal evaluator of
`../engine_rules_data/convert_go_tables.py`, after the file's package-level schema
variables. `UnstructuredToVal(value, &schema)` becomes `{"value": ..., "schema": ...}`
(schemas as `JSONSchemaProps` JSON). The output is
`{"equality": [...], "lister": [...]}`; the conversion is mechanical.
"""

import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "engine_rules_data"))
import convert_go_tables as c  # noqa: E402


def package_vars(src):
    """The `var (...)` block at the top of the file, evaluated in order."""
    block = src[src.index("var (") + len("var (") :]
    block = block[: block.index("\n)\n")]
    env = c.base_env()
    values = {}
    # Each declaration starts at the beginning of a line with `name = `.
    decls = re.split(r"\n\t(?=\w+\s*=)", "\n" + block)
    for d in decls:
        d = d.strip()
        if not d:
            continue
        name, expr = d.split("=", 1)
        name = name.strip()
        v = c.Evaluator(c.tokenize(expr.strip()), env).expr()
        env[name] = v
        values[name] = v
    return values


def main():
    root, out = sys.argv[1], sys.argv[2]
    src = open(root + "/pkg/apiserver/schema/cel/values_test.go").read()
    pre = package_vars(src)
    pre["UnstructuredToVal"] = c.Func(
        "UnstructuredToVal", lambda v, s: {"value": c.to_json(v), "schema": c.to_schema(s)}
    )
    result = {}
    for key, func in [("equality", "TestEquality"), ("lister", "TestLister")]:
        rows = c.table(src, func, pre)
        for r in rows:
            for k in ("schema", "itemSchema"):
                if k in r and r[k] is not None and not isinstance(r[k], dict):
                    r[k] = c.to_schema(r[k])
        result[key] = rows
    with open(out, "w") as f:
        json.dump(result, f, ensure_ascii=False, sort_keys=True, indent=1)
        f.write("\n")
    print({k: len(v) for k, v in result.items()})


if __name__ == "__main__":
    main()
