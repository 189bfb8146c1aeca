#!/usr/bin/env bash
# Generates Rust for every project directory of the CRD corpus (../shared/crds) and
# compiles each as its own crate with warnings denied, reporting `cargo check` time
# and peak memory per project.
#
#   scripts/corpus-compile.sh [PROJECT...]      # all projects when none given
#
# Environment: CORPUS (default ../shared/crds), WORK (default target/corpus-crates),
# CHECK (default "check"; set to "clippy" to run clippy with -D warnings instead).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${CORPUS:-$root/../shared/crds}
work=${WORK:-$root/target/corpus-crates}
check=${CHECK:-check}
[ -d "$corpus" ] || { echo "corpus not found at $corpus" >&2; exit 2; }
mkdir -p "$work"

cargo build -q --release -p crd-codegen --bin crdgen --manifest-path "$root/Cargo.toml"
crdgen=${CARGO_TARGET_DIR:-$root/target}/release/crdgen

projects=("$@")
if [ ${#projects[@]} -eq 0 ]; then
  mapfile -t projects < <(find "$corpus" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort)
fi

# One workspace holding one crate per project, sharing a target directory, so that
# crd-runtime and its dependencies are built once.
members=""
for p in "${projects[@]}"; do members+="\"$p\", "; done
cat > "$work/Cargo.toml" <<TOML
[workspace]
resolver = "3"
members = [${members%, }]
TOML

crate_name() { echo "corpus-$(echo "$1" | tr '[:upper:]_' '[:lower:]-')"; }
for p in "${projects[@]}"; do
  crate=$work/$p
  mkdir -p "$crate/src"
  touch "$crate/src/lib.rs"
  cat > "$crate/Cargo.toml" <<TOML
[package]
name = "$(crate_name "$p")"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
crd-runtime = { path = "$root/crd-runtime" }
TOML
done
# Dependencies first, so that the measurements cover only the generated crates.
(cd "$work" && RUSTFLAGS="-D warnings" cargo "$check" -q -p crd-runtime)

printf '%-36s %8s %10s %10s %12s\n' project lines check_s peak_MB generate_s
failed=0
for p in "${projects[@]}"; do
  crate=$work/$p
  name=$(crate_name "$p")
  gen_start=$(date +%s.%N)
  if ! "$crdgen" generate "$corpus/$p" -o "$crate/src/lib.rs" 2> "$crate/generate.log"; then
    echo "$p: generate failed:" >&2; cat "$crate/generate.log" >&2; failed=1; continue
  fi
  gen_s=$(echo "$(date +%s.%N) - $gen_start" | bc)
  if [ "$check" = clippy ]; then
    cmd=(cargo clippy -q -p "$name" -- -D warnings)
  else
    cmd=(cargo check -q -p "$name")
  fi
  if ! (cd "$work" && RUSTFLAGS="-D warnings" /usr/bin/time -f '%e %M' -o "$crate/time.log" "${cmd[@]}" 2> "$crate/check.log"); then
    echo "$p: $check failed:" >&2; head -50 "$crate/check.log" >&2; failed=1; continue
  fi
  read -r secs kb < "$crate/time.log"
  printf '%-36s %8d %10s %10d %12.2f\n' "$p" "$(wc -l < "$crate/src/lib.rs")" "$secs" "$((kb / 1024))" "$gen_s"
done
exit $failed
