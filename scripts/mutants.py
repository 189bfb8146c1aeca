#!/usr/bin/env python3
"""Hand-made mutants of generated code, for scripts/mutation-score.sh.

usage: mutants.py DIR N_ORIGINALS PER_OPERATOR

Reads DIR/original_<i>.rs (crdgen's output for one CRD each) and writes
DIR/mutant_<k>.rs, each the original with one line changed by one operator that
breaks a generated check (a bound, an enum, a required field, a pattern, a type,
pruning, a compiled CEL rule), and DIR/mutants.rs listing them. Every mutant still
compiles; whether it is caught is for the differential harness to say.
"""
import re
import sys

def bound(m):
    name, n = m.group(1), int(m.group(2))
    n = n - 1 if name.startswith("max") else n + 1
    return f"{name}: Some({n}i64)"

# (operator, pattern, replacement): applied to the first match on a line.
OPERATORS = [
    ("bound", re.compile(r"\b((?:max|min)_(?:items|length|properties)): Some\((\d+)i64\)"), bound),
    ("enum", re.compile(r'matches!\(s, ("[^"]*") \| '), lambda m: "matches!(s, "),
    ("enum-message", re.compile(r'^(\s*)rt::openapi::Lit::Str\("[^"]*"\),$'), lambda m: m.group(1)),
    ("required", re.compile(r'rt::openapi::required\(map, &\[("[^"]*"), ?'), lambda m: "rt::openapi::required(map, &["),
    ("required-fast", re.compile(r"\bseen == (\d+)usize"), lambda m: f"seen == {int(m.group(1)) - 1}usize"),
    ("pattern", re.compile(r"pattern: Some\(&PATTERN_\d+\),"), lambda m: "pattern: None,"),
    ("type", re.compile(r"&rt::Node::(STRING|INTEGER|BOOLEAN|NUMBER|ARRAY)\b"), lambda m: "&rt::Node::EMPTY"),
    ("prune", re.compile(r"^(\s*)rt::schema::record_pruned\(pruned, \w+, key\);$"), lambda m: m.group(1)),
    ("cel-cost", re.compile(r"\bcost \+= 1;"), lambda m: "cost += 2;"),
    ("cel-accumulator", re.compile(r"rt::cel::Result::Ok\(true\)"), lambda m: "rt::cel::Result::Ok(false)"),
]

def sites(lines):
    out = {name: [] for name, _, _ in OPERATORS}
    for i, line in enumerate(lines):
        if 'r#"{' in line or line.lstrip().startswith("///"):
            continue
        for name, pattern, replace in OPERATORS:
            m = pattern.search(line)
            if m:
                if name == "required-fast" and m.group(1) == "0":
                    continue
                # The root's `apiVersion`, `kind` and `metadata` are read before
                # validation (a request without them is refused earlier): changing
                # their generated checks changes nothing a request can show.
                if name == "required" and m.group(1) == '"metadata"':
                    continue
                if name == "type" and any('"apiVersion" | "kind"' in l for l in lines[max(0, i - 8):i]):
                    continue
                new = line[: m.start()] + replace(m) + line[m.end():]
                if new != line:
                    out[name].append((i, new))
    return out

def spread(items, k):
    """k items spread evenly over the list."""
    if len(items) <= k:
        return items
    step = len(items) / k
    return [items[int(j * step)] for j in range(k)]

def main():
    directory, originals, per_operator = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    table = []
    k = 0
    for o in range(originals):
        lines = open(f"{directory}/original_{o}.rs").read().split("\n")
        for name, found in sites(lines).items():
            for i, new in spread(found, per_operator):
                mutated = list(lines)
                mutated[i] = new
                open(f"{directory}/mutant_{k}.rs", "w").write("\n".join(mutated))
                what = f"{name} at line {i + 1}: {lines[i].strip()} -> {new.strip()}"
                table.append((k, o, what))
                k += 1
    with open(f"{directory}/mutants.rs", "w") as f:
        for o in range(originals):
            f.write(f'#[allow(dead_code)]\npub mod original_{o} {{ include!("original_{o}.rs"); }}\n')
        for k, o, what in table:
            f.write(f'#[allow(dead_code)]\npub mod mutant_{k} {{ include!("mutant_{k}.rs"); }}\n')
        f.write("/// (original index, description, the mutant's kinds)\n")
        f.write("pub const MUTANTS: &[(usize, &str, &[::crd_runtime::schema::Resource])] = &[\n")
        for k, o, what in table:
            f.write(f"    ({o}, {rust_str(what)}, mutant_{k}::RESOURCES),\n")
        f.write("];\n")
        f.write("pub const ORIGINALS: &[&[::crd_runtime::schema::Resource]] = &[")
        f.write(", ".join(f"original_{o}::RESOURCES" for o in range(originals)))
        f.write("];\n")
    print(f"{k} mutants")

def rust_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'

main()
