#!/usr/bin/env bash
# A clean `cargo build` of the same one-CRD operator crate written for kube-derive,
# once on kube-derive and once on our derive (only its `use` line changed), each with a
# fresh target directory: wall time, peak memory, crates compiled.
#
#   scripts/derive-build-time.sh [RUNS]
#
# The crate is what kube-derive users write: a spec with `#[kube(...)]`, a status and a
# nested type deriving schemars' `JsonSchema`, `#[serde(default)]` fields, a CEL rule,
# and a `main` printing the CRD.
set -euo pipefail

runs=${1:-1}
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

source_rs() {
    cat <<EOF
use $1;
use kube::CustomResourceExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A CronTab runs an image on a schedule.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, JsonSchema)]
#[kube(group = "stable.example.com", version = "v1", kind = "CronTab", namespaced,
       status = "CronTabStatus", shortname = "ct", validation = "self.spec.replicas <= 10")]
#[serde(rename_all = "camelCase")]
pub struct CronTabSpec {
    /// When to run, in cron's syntax.
    pub cron_spec: String,
    pub image: String,
    #[serde(default = "one")]
    pub replicas: i32,
    #[serde(default)]
    pub suspend: bool,
    pub resources: Option<Resources>,
}

fn one() -> i32 {
    1
}

/// What a run may use.
#[derive(Serialize, Deserialize, Clone, Debug, JsonSchema)]
pub struct Resources {
    pub cpu: Option<String>,
    pub memory: Option<String>,
}

#[derive(Serialize, Deserialize, Clone, Debug, Default, JsonSchema)]
pub struct CronTabStatus {
    pub last_schedule_time: Option<String>,
}

fn main() {
    println!("{}", serde_json::to_string_pretty(&CronTab::crd()).unwrap());
}
EOF
}

make_crate() {
    local dir=$1 deps=$2 use_line=$3
    mkdir -p "$dir/src"
    cat > "$dir/Cargo.toml" <<EOF
[package]
name = "crontab-operator"
version = "0.1.0"
edition = "2021"

[dependencies]
$deps
k8s-openapi = { version = "0.29", default-features = false, features = ["latest"] }
schemars = "1"
serde = { version = "1", features = ["derive"] }
serde_json = "1"
EOF
    source_rs "$use_line" > "$dir/src/main.rs"
}

make_crate "$work/kube-derive" 'kube = { version = "5", default-features = false, features = ["derive"] }' "kube::CustomResource"
make_crate "$work/ours" "kube = { version = \"5\", default-features = false }
crd-derive = { path = \"$repo/crd-derive\" }
crd-runtime = { path = \"$repo/crd-runtime\", features = [\"kube\"] }" "crd_derive::CustomResource"

# Both resolve their dependencies first (not timed), ours against this repository's lock.
cp "$repo/Cargo.lock" "$work/ours/Cargo.lock"
(cd "$work/kube-derive" && cargo fetch -q)
(cd "$work/ours" && cargo fetch -q)

printf '%-12s %-4s %10s %12s %8s\n' crate run "wall (s)" "peak (MB)" crates
for run in $(seq 1 "$runs"); do
    for which in kube-derive ours; do
        target="$work/target-$which-$run"
        out="$work/$which-$run.time"
        (cd "$work/$which" && CARGO_TARGET_DIR="$target" /usr/bin/time -v cargo build -q 2>"$out" >/dev/null) || {
            cat "$out" >&2
            exit 1
        }
        wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { split($2, t, ":"); if (length(t) == 3) print t[1] * 3600 + t[2] * 60 + t[3]; else print t[1] * 60 + t[2] }' "$out")
        peak=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$out")
        crates=$(find "$target/debug/.fingerprint" -mindepth 1 -maxdepth 1 -type d | sed 's/-[0-9a-f]*$//' | sort -u | wc -l)
        printf '%-12s %-4s %10s %12s %8s\n' "$which" "$run" "$wall" "$peak" "$crates"
    done
done
