#!/usr/bin/env bash
# Coverage-guided fuzzing of every input path (libFuzzer through `cargo fuzz`, which
# needs the nightly toolchain for its instrumentation; docs/TESTING.md, "Fuzzing").
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# Writes the seed corpora from ../shared and the fixtures (fuzz/corpus/<target>), then
# fuzzes each target (default: all) for SECONDS (default 60) on one core, and prints per
# target the executions, the coverage reached and whether it crashed. A crash leaves its
# input in fuzz/artifacts/<target>/; `cargo +nightly fuzz run -O -a -s none TARGET FILE`
# replays it (or the binary in fuzz/target/x86_64-unknown-linux-gnu/release/ with FILE).
# RUNS=N stops each target after N executions instead.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(manifests cel admission differential conversion_review crd_pipeline)
fi

cargo run -q -p crd-tests --example fuzz_seeds -- fuzz/corpus
cd fuzz
# Optimised, with debug assertions and overflow checks (an arithmetic overflow that
# input can reach is a bug), without AddressSanitizer: the project has no `unsafe`,
# and ASan makes every allocation ten times slower.
FLAGS="-O -a -s none"
cargo +nightly fuzz build $FLAGS
mkdir -p logs

dict_for() {
    case "$1" in
        cel) echo dicts/cel.dict ;;
        crd_pipeline | manifests) echo dicts/yaml.dict ;;
        *) echo dicts/json.dict ;;
    esac
}

# Options of one target: the pipeline generates a whole CRD per input, so its inputs
# stay small (its seeds are the corpus CRDs of at most 16 KiB).
options_for() {
    case "$1" in
        crd_pipeline) echo -max_len=16384 ;;
    esac
}

status=0
printf '| target | executions | seconds | coverage (edges) | features | crashes |\n|---|---|---|---|---|---|\n' > logs/summary.md
for t in "${targets[@]}"; do
    limit=(-max_total_time="$seconds")
    if [ -n "${RUNS:-}" ]; then limit=(-runs="$RUNS"); fi
    start=$(date +%s)
    # The binary is run directly, so that edits to the project while it runs do not
    # make cargo rebuild it. -rss_limit_mb: a run using more memory than this is a crash
    # (bounded memory); -timeout: one input taking longer is a crash (bounded time).
    mkdir -p "artifacts/$t"
    if "target/x86_64-unknown-linux-gnu/release/$t" "corpus/$t" "${limit[@]}" -dict="$(dict_for "$t")" $(options_for "$t") \
        -artifact_prefix="artifacts/$t/" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
        > "logs/$t.log" 2>&1; then
        crashed=0
    else
        crashed=1
        status=1
    fi
    elapsed=$(( $(date +%s) - start ))
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "logs/$t.log" | grep -o '[0-9]*$' || echo "?")
    cov=$(grep -o 'cov: [0-9]*' "logs/$t.log" | tail -1 | grep -o '[0-9]*' || echo "?")
    ft=$(grep -o 'ft: [0-9]*' "logs/$t.log" | tail -1 | grep -o '[0-9]*' || echo "?")
    printf '| %s | %s | %s | %s | %s | %s |\n' "$t" "$runs" "$elapsed" "$cov" "$ft" "$crashed" | tee -a logs/summary.md
done
cat logs/summary.md
exit $status
