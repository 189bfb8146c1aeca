#!/usr/bin/env bash
# kube-derive's own tests and kube-rs's CRD examples, run against our derive.
#
#   scripts/kube-derive-peer.sh DIR
#
# DIR holds `tests/` from kube-derive 5.0.0's crate package (cargo downloads it:
# ~/.cargo/registry/src/*/kube-derive-5.0.0/tests) and optionally `examples/` with
# kube-rs's `examples/crd_*.rs`. A scratch crate is made in a temporary directory
# (nothing is copied into this repository): each file goes in with only its `use` lines
# changed, so that `CustomResource`, `KubeSchema` and `Resource` (the derive) come from
# `crd_derive`. Then, per file: whether it compiles, and how many of its tests pass.
# Examples that need a cluster are only compiled; the others also run their `main`.
# The trybuild cases (`tests/ui/*.rs`) must fail to compile with ours too: per case,
# whether it does and whether our first error is on the line kube-derive's is.
set -euo pipefail

dir=$(realpath "${1:?usage: $0 DIR (holding kube-derive 5.0.0s tests/, optionally kube-rs examples/)}")
repo=$(cd "$(dirname "$0")/.." && pwd)
# PEER_DIR keeps the scratch crate (and its builds) for another run.
if [ -n "${PEER_DIR:-}" ]; then
    work=$PEER_DIR
    rm -rf "$work/peer"
else
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
fi
crate="$work/peer"
mkdir -p "$crate/src" "$crate/tests" "$crate/examples" "$crate/ui"
touch "$crate/src/lib.rs"

cat > "$crate/Cargo.toml" <<EOF
[package]
name = "peer"
version = "0.0.0"
edition = "2024"
publish = false
autotests = false
autoexamples = false

[dev-dependencies]
crd-derive = { path = "$repo/crd-derive" }
crd-runtime = { path = "$repo/crd-runtime", features = ["kube"] }
kube = { version = "5", default-features = false, features = ["client", "runtime", "rustls-tls", "ring"] }
k8s-openapi = { version = "0.29", default-features = false, features = ["latest", "schemars"] }
schemars = { version = "1", features = ["jiff02"] }
serde = { version = "1", features = ["derive"] }
serde_json = "1"
serde-saphyr = "2"
assert-json-diff = "2"
jiff = { version = "0.2", default-features = false, features = ["std"] }
static_assertions = "1"
tokio = { version = "1", features = ["full"] }
anyhow = "1"
futures = "0.3"
tracing = "0.1"
tracing-subscriber = "0.3"
garde = { version = "0.23", default-features = false, features = ["derive"] }
either = "1"
EOF

# The `use` lines, rewritten (see the header).
rewrite() {
    python3 - "$1" "$2" <<'PY'
import re, sys
src, dst = sys.argv[1], sys.argv[2]
text = open(src).read()
derives = {"CustomResource", "KubeSchema"}

def split_top(s):
    items, depth, cur = [], 0, ""
    for ch in s:
        if ch == "{": depth += 1
        if ch == "}": depth -= 1
        if ch == "," and depth == 0:
            items.append(cur.strip()); cur = ""
        else:
            cur += ch
    if cur.strip(): items.append(cur.strip())
    return items

def fix(m):
    crate, rest = m.group(1), m.group(2)
    if crate == "kube_derive":
        return "use crd_derive" + rest + ";"
    body = rest[2:]  # after "::"
    if body.startswith("{") and body.endswith("}"):
        items = split_top(body[1:-1])
    else:
        items = [body]
    moved = [i for i in items if i in derives]
    kept = [i for i in items if i not in derives]
    if not moved:
        return m.group(0)
    out = []
    if kept:
        out.append("use kube::" + (kept[0] if len(kept) == 1 and "::" not in kept[0] and "{" not in kept[0] and len(items) == 1 else "{" + ", ".join(kept) + "}") + ";")
    if moved:
        out.append("use crd_derive::{" + ", ".join(moved) + "};")
    return "\n".join(out)

text = re.sub(r"use\s+(kube|kube_derive)(::[^;]*?)\s*;", fix, text, flags=re.S)
open(dst, "w").write(text)
PY
}

examples_cluster="crd_api crd_apply crd_derive_multi crd_derive_schema crd_reflector"
tests=()
for f in "$dir"/tests/*.rs; do
    name=$(basename "$f" .rs)
    [ "$name" = test_ui ] && continue
    rewrite "$f" "$crate/tests/$name.rs"
    printf '\n[[test]]\nname = "%s"\npath = "tests/%s.rs"\n' "$name" "$name" >> "$crate/Cargo.toml"
    tests+=("$name")
done
examples=()
if [ -d "$dir/examples" ]; then
    for f in "$dir"/examples/crd_*.rs; do
        name=$(basename "$f" .rs)
        rewrite "$f" "$crate/examples/$name.rs"
        printf '\n[[example]]\nname = "%s"\npath = "examples/%s.rs"\ntest = true\n' "$name" "$name" >> "$crate/Cargo.toml"
        examples+=("$name")
    done
fi
ui=()
for f in "$dir"/tests/ui/*.rs; do
    name=$(basename "$f" .rs)
    rewrite "$f" "$crate/ui/$name.rs"
    cp "${f%.rs}.stderr" "$crate/ui/$name.expected"
    printf '\n[[example]]\nname = "ui_%s"\npath = "ui/%s.rs"\n' "$name" "$name" >> "$crate/Cargo.toml"
    ui+=("$name")
done

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$work/target}"
cd "$crate"
echo "building the scratch crate's dependencies ..." >&2
cargo fetch -q

# Tests passed of total, from libtest's summary lines.
count() {
    awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed;/) p += $i; if ($(i+1) ~ /^failed;/) f += $i } }
         END { printf "%d/%d", p, p + f }' "$1"
}

printf '%-32s %-10s %s\n' "file" "compiles" "tests passed"
all_ok=1
for t in "${tests[@]}"; do
    if cargo test -q --test "$t" --no-run >"$work/$t.build" 2>&1; then
        cargo test -q --test "$t" >"$work/$t.out" 2>&1 || true
        result=$(count "$work/$t.out")
        printf '%-32s %-10s %s\n' "tests/$t.rs" yes "$result"
        [ "${result%/*}" = "${result#*/}" ] || all_ok=0
    else
        printf '%-32s %-10s %s\n' "tests/$t.rs" NO "-"
        all_ok=0
        sed -n '1,40p' "$work/$t.build" >&2
    fi
done
for e in "${examples[@]}"; do
    if cargo test -q --example "$e" --no-run >"$work/$e.build" 2>&1; then
        if [[ " $examples_cluster " == *" $e "* ]]; then
            cargo test -q --example "$e" >"$work/$e.out" 2>&1 || true
            result="$(count "$work/$e.out") (needs a cluster: main not run)"
        else
            cargo test -q --example "$e" >"$work/$e.out" 2>&1 || true
            tests_result=$(count "$work/$e.out")
            if cargo run -q --example "$e" >"$work/$e.run" 2>&1; then main=1; else main=0; fi
            p=${tests_result%/*}; n=${tests_result#*/}
            result="$((p + main))/$((n + 1)) (main included)"
            [ "$((p + main))" = "$((n + 1))" ] || all_ok=0
        fi
        printf '%-32s %-10s %s\n' "examples/$e.rs" yes "$result"
    else
        printf '%-32s %-10s %s\n' "examples/$e.rs" NO "-"
        all_ok=0
        sed -n '1,40p' "$work/$e.build" >&2
    fi
done

printf '\n%-32s %-14s %s\n' "trybuild case" "fails to build" "first error on kube-derive's line"
for u in "${ui[@]}"; do
    if cargo build -q --example "ui_$u" >"$work/ui_$u.out" 2>&1; then
        printf '%-32s %-14s %s\n' "tests/ui/$u.rs" NO "-"
        all_ok=0
        continue
    fi
    expected=$(grep -m1 -E '^ *--> ' "$crate/ui/$u.expected" | sed -E 's/.*:([0-9]+):[0-9]+$/\1/')
    ours=$(grep -m1 -E '^ *--> ui/' "$work/ui_$u.out" | sed -E 's/.*:([0-9]+):[0-9]+$/\1/')
    same=no; [ "$expected" = "$ours" ] && same=yes
    [ "$same" = yes ] || all_ok=0
    printf '%-32s %-14s %s\n' "tests/ui/$u.rs" yes "$same (line $ours; kube-derive $expected)"
    grep -m1 -E '^error' "$work/ui_$u.out" | sed 's/^/    ours: /'
done
[ "$all_ok" = 1 ] && echo "all compile, all tests pass, every trybuild case fails at kube-derive's line" || exit 1
