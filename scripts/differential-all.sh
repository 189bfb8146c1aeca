#!/usr/bin/env bash
# The full differential run of issue 3/4: for every project of the CRD corpus
# (../shared/crds), random objects through the generated code and the reference
# engine (create, mutated create, update) must give identical admissions: admitted
# object, pruned paths, errors, warnings and the CEL cost of the rules.
#
#   scripts/differential-all.sh [PROJECT...]      # all projects when none given
#
# Environment: CRD_DIFF_OBJECTS (objects per CRD version, default 1000). One project
# per build keeps memory low: the test crate compiles that project's generated code.
# CORPUS_TEST=derive_roundtrip runs the derive round trip instead (what
# scripts/derive-roundtrip-all.sh does).
set -euo pipefail
test=${CORPUS_TEST:-differential}
case $test in
  differential) projects_var=CRD_DIFF_PROJECTS ;;
  derive_roundtrip) projects_var=CRD_DERIVE_PROJECTS ;;
  *) echo "CORPUS_TEST is differential or derive_roundtrip" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${CORPUS:-$root/../shared/crds}
[ -d "$corpus" ] || { echo "corpus not found at $corpus" >&2; exit 2; }
export CRD_DIFF_OBJECTS=${CRD_DIFF_OBJECTS:-1000}

projects=("$@")
if [ ${#projects[@]} -eq 0 ]; then
  mapfile -t projects < <(find "$corpus" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort)
fi
failed=()
for p in "${projects[@]}"; do
  echo "== $p ($CRD_DIFF_OBJECTS objects per CRD version)"
  if ! env "$projects_var=$p" cargo test -q --manifest-path "$root/Cargo.toml" \
      -p crd-tests --test "$test" -- --nocapture 2>&1 | grep -Ev '^$|^test .* ok$'; then
    failed+=("$p")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "failed: ${failed[*]}" >&2
  exit 1
fi
echo "all projects agree"
