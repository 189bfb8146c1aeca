#!/usr/bin/env bash
# What users pay for generated code, ours beside kopium's, per corpus project.
#
# For every project directory of the CRD corpus (../shared/crds), in one run:
#   - ours: `crdgen generate <project>` into one crate that depends on crd-runtime;
#   - derive: `crdgen generate --derive FILE` for every CRD file of the project, each
#     in its own module of one crate that depends on crd-runtime, crd-derive and serde
#     (the source a user checks in, expanded by the derive at compile time);
#   - kopium's: `kopium -f FILE --api-version V` for every CRD version (what a kopium
#     user runs to get every version), each in its own module of one crate that
#     depends on kube (derive), k8s-openapi, serde and serde_json.
# Each crate is checked (`cargo check`) and built (debug `cargo build`) with warnings
# denied (kopium's own warnings allowed), in the given edition, from clean (the crate's
# artifacts removed first); the table gives lines, generation seconds, and seconds and
# peak memory (of the largest process, i.e. rustc) for both.
#
#   scripts/corpus-compile.sh [PROJECT...]      # all projects when none given
#
# Environment:
#   EDITION  edition of the generated crates (default 2021; 2018 and 2024 work too)
#   KOPIUM   the kopium binary (default: `kopium` on PATH; `cargo install kopium`),
#            or `none` to measure only ours
#   CHECK    `check` (default) or `clippy` (clippy -D warnings instead of check/build)
#   SIDES    which crates to measure (default "ours derive kopium")
#   BUILD    0 to skip the debug builds (only `cargo check`)
#   CORPUS   default ../shared/crds;  WORK  default target/corpus-crates
# Needs python3 with PyYAML (`pip install pyyaml`) to list kopium's CRD versions.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${CORPUS:-$root/../shared/crds}
work=${WORK:-$root/target/corpus-crates}
edition=${EDITION:-2021}
check=${CHECK:-check}
kopium=${KOPIUM:-kopium}
[ -d "$corpus" ] || { echo "corpus not found at $corpus" >&2; exit 2; }
if [ "$kopium" != none ] && ! command -v "$kopium" > /dev/null; then
  echo "kopium not found (cargo install kopium), or set KOPIUM=none" >&2; exit 2
fi
mkdir -p "$work"

cargo build -q --release -p crd-codegen --features cli --bin crdgen --manifest-path "$root/Cargo.toml"
crdgen=${CARGO_TARGET_DIR:-$root/target}/release/crdgen

projects=("$@")
if [ ${#projects[@]} -eq 0 ]; then
  mapfile -t projects < <(find "$corpus" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort)
fi

crate_name() { echo "$1-$(echo "$2" | tr '[:upper:]_' '[:lower:]-')"; }

read -r -a sides <<< "${SIDES:-ours derive kopium}"
if [ "$kopium" = none ]; then
  filtered=(); for side in "${sides[@]}"; do [ "$side" = kopium ] || filtered+=("$side"); done
  sides=("${filtered[@]}")
fi

# One workspace, one target directory: dependencies are built once, before measuring.
members=""
for p in "${projects[@]}"; do
  for side in "${sides[@]}"; do members+="\"$side/$p\", "; done
done
cat > "$work/Cargo.toml" <<TOML
[workspace]
resolver = "2"
members = [${members%, }]
TOML

for p in "${projects[@]}"; do
  mkdir -p "$work/ours/$p/src" "$work/kopium/$p/src" "$work/derive/$p/src"
  touch "$work/ours/$p/src/lib.rs" "$work/kopium/$p/src/lib.rs" "$work/derive/$p/src/lib.rs"
  cat > "$work/derive/$p/Cargo.toml" <<TOML
[package]
name = "$(crate_name derive "$p")"
version = "0.0.0"
edition = "$edition"
publish = false

[dependencies]
crd-runtime = { path = "$root/crd-runtime" }
crd-derive = { path = "$root/crd-derive" }
serde = { version = "1", features = ["derive"] }
TOML
  cat > "$work/ours/$p/Cargo.toml" <<TOML
[package]
name = "$(crate_name ours "$p")"
version = "0.0.0"
edition = "$edition"
publish = false

[dependencies]
crd-runtime = { path = "$root/crd-runtime" }
TOML
  cat > "$work/kopium/$p/Cargo.toml" <<TOML
[package]
name = "$(crate_name kopium "$p")"
version = "0.0.0"
edition = "$edition"
publish = false

[dependencies]
kube = { version = "5", default-features = false, features = ["derive"] }
k8s-openapi = { version = "0.29", features = ["latest"] }
serde = { version = "1", features = ["derive"] }
serde_json = "1"
TOML
done

# Dependencies first, with the features each side's crates resolve to (an empty crate of
# each side), so that the measurements cover only the generated code.
for side in "${sides[@]}"; do
  : > "$work/$side/${projects[0]}/src/lib.rs"
  crate=$(crate_name "$side" "${projects[0]}")
  (cd "$work" && for cmd in check build; do RUSTFLAGS="-D warnings" cargo $cmd -q -p "$crate"; done)
done

# kopium reads one CRD per file: every CRD document of a project, split into its own
# file, with its versions. Prints `FILE<TAB>VERSION` lines.
kopium_inputs() {
  python3 - "$1" "$2" <<'PY'
import os, sys, yaml
src, out = sys.argv[1], sys.argv[2]
# prometheus-operator has a bare `=` enum item: YAML 1.1's "value" tag; a string in YAML 1.2.
yaml.SafeLoader.add_constructor("tag:yaml.org,2002:value", lambda l, n: l.construct_scalar(n))
loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
if loader is not yaml.SafeLoader:
    loader.add_constructor("tag:yaml.org,2002:value", lambda l, n: l.construct_scalar(n))
n = 0
for dirpath, _, files in sorted(os.walk(src)):
    for f in sorted(files):
        if not f.endswith((".yaml", ".yml", ".json")):
            continue
        with open(os.path.join(dirpath, f)) as fh:
            for doc in yaml.load_all(fh, Loader=loader):
                if not isinstance(doc, dict) or doc.get("kind") != "CustomResourceDefinition":
                    continue
                n += 1
                path = os.path.join(out, f"crd{n}.yaml")
                with open(path, "w") as o:
                    yaml.safe_dump(doc, o)
                spec = doc.get("spec", {})
                versions = [v["name"] for v in spec.get("versions") or []] or [spec.get("version")]
                for v in versions:
                    print(f"{path}\t{v}")
PY
}

# Seconds and peak MB of one cargo command on one crate, or "failed".
measure() {
  local dir=$1 crate=$2 log=$3; shift 3
  # A clean build of the crate, as on a user's first build (touching the file would
  # let incremental compilation reuse earlier work).
  (cd "$work" && cargo clean -q -p "$crate")
  if (cd "$work" && RUSTFLAGS="-D warnings" /usr/bin/time -f '%e %M' -o "$dir/time.log" cargo "$@" -q -p "$crate" 2> "$log"); then
    read -r secs kb < "$dir/time.log"
    echo "$secs $((kb / 1024))"
    # Debug builds are incremental (as a user's are); their incremental data, GBs for
    # the large projects, is not needed again: it filled the disk in a full run.
    rm -rf "$work/target/debug/incremental/${crate//-/_}"-*
  else
    echo "$crate: cargo $* failed:" >&2; head -40 "$log" >&2
    echo "failed failed"
  fi
}

now() { date +%s.%N; }

printf '%-36s %-6s %8s %8s %8s %8s %8s %8s\n' project side lines gen_s check_s check_MB build_s build_MB
failed=0
for p in "${projects[@]}"; do
  for side in "${sides[@]}"; do
    dir=$work/$side/$p
    start=$(now)
    if [ "$side" = ours ]; then
      "$crdgen" generate "$corpus/$p" -o "$dir/src/lib.rs" 2> "$dir/generate.log" || {
        echo "$p: generate failed:" >&2; cat "$dir/generate.log" >&2; failed=1; continue; }
    elif [ "$side" = derive ]; then
      # One module per file: feature-set variants of one kind live in separate files.
      : > "$dir/src/lib.rs"
      i=0
      while IFS= read -r file; do
        i=$((i + 1))
        { echo "pub mod f$i {"; "$crdgen" generate --derive "$file"; echo "}"; } >> "$dir/src/lib.rs" 2>> "$dir/generate.log" || {
          echo "$p: generate --derive failed on $file" >&2; cat "$dir/generate.log" >&2; failed=1; }
      done < <(find "$corpus/$p" -name '*.yaml' -o -name '*.yml' -o -name '*.json' | sort)
    else
      rm -rf "$dir/crds" && mkdir -p "$dir/crds"
      mapfile -t inputs < <(kopium_inputs "$corpus/$p" "$dir/crds")
      start=$(now)  # kopium's time, without the splitting
      # kopium's output has warnings of its own (unused imports): allowed, not denied.
      echo '#![allow(warnings)]' > "$dir/src/lib.rs"
      i=0
      for line in "${inputs[@]}"; do
        file=${line%%$'\t'*}; version=${line#*$'\t'}; i=$((i + 1))
        { echo "pub mod m$i {"; "$kopium" -f "$file" --api-version "$version"; echo "}"; } >> "$dir/src/lib.rs" 2>> "$dir/generate.log" || {
          echo "$p: kopium failed on $file $version" >&2; failed=1; }
      done
    fi
    gen_s=$(echo "$(now) - $start" | bc)
    crate=$(crate_name "$side" "$p")
    if [ "$check" = clippy ]; then
      read -r check_s check_mb < <(measure "$dir" "$crate" "$dir/check.log" clippy)
      build_s=-; build_mb=-
    else
      read -r check_s check_mb < <(measure "$dir" "$crate" "$dir/check.log" check)
      if [ "${BUILD:-1}" = 0 ]; then
        build_s=-; build_mb=-
      else
        read -r build_s build_mb < <(measure "$dir" "$crate" "$dir/build.log" build)
      fi
    fi
    [ "$check_s" = failed ] || [ "$build_s" = failed ] && failed=1
    printf '%-36s %-6s %8d %8.2f %8s %8s %8s %8s\n' "$p" "$side" "$(wc -l < "$dir/src/lib.rs")" "$gen_s" \
      "$check_s" "$check_mb" "$build_s" "$build_mb"
  done
done
exit $failed
