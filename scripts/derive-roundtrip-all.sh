#!/usr/bin/env bash
# The derive round trip over the whole corpus (issue 12): for every project of
# ../shared/crds, each CRD file -> `crdgen generate --derive` -> compiled ->
# `Kind::crd()` (versions merged) must equal the input, and the derived types'
# admission must agree with the reference engine.
#
#   scripts/derive-roundtrip-all.sh [PROJECT...]      # all projects when none given
#
# Environment: CRD_DIFF_OBJECTS (objects per CRD version, default 1000). The loop is
# differential-all.sh's, one project per build.
exec env CORPUS_TEST=derive_roundtrip "$(dirname "$0")/differential-all.sh" "$@"
