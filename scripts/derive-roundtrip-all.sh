#!/usr/bin/env bash
# The derive round trip over the whole corpus (issue 12): for every project of
# ../shared/crds, each CRD file -> `crdgen generate --derive` -> compiled ->
# `Kind::crd()` (versions merged) must equal the input, and the derived types'
# admission must agree with the reference engine.
#
#   scripts/derive-roundtrip-all.sh [PROJECT...]      # all projects when none given
#
# Environment: CRD_DIFF_OBJECTS (objects per CRD version, default 1000). One project
# per build keeps memory low.
set -euo pipefail
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
  echo "== $p"
  if ! CRD_DERIVE_PROJECTS=$p cargo test -q --manifest-path "$root/Cargo.toml" \
      -p crd-tests --test derive_roundtrip -- --nocapture 2>&1 | grep -Ev '^$|^test .* ok$'; then
    failed+=("$p")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "failed: ${failed[*]}" >&2
  exit 1
fi
