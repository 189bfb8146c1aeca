#!/usr/bin/env bash
# A newcomer's first hour, scripted. Outside the repository, in a temporary directory,
# a new edition-2021 binary crate per route (build.rs, crd_types!, the derive) is made
# from README.md's snippets verbatim: the path form, with this clone linked as
# ../crd-rs beside the crates, and the CronTab of examples/crds/crontab.yaml in crds/.
# Each is built from a fresh target directory with warnings denied, run, and its tests
# run; a build script's error is checked to print once. Beside them, the same crate
# written for kube-derive (kube 5 with `derive`, schemars 1, k8s-openapi 0.29), the
# tool a newcomer would use instead; and, to compare like with like (kube-derive comes
# from the registry, and cargo compiles a path dependency incrementally), the build.rs
# and derive crates with README's git form, and crd-runtime alone. Prints, for each, the wall time, the CPU time
# (user and system: the work, which depends less than the wall time on what else the
# machine runs), the crates compiled and the peak memory of the clean `cargo build`
# and of the `cargo test` after it, as a Markdown table. With an older clone, its
# crates are built right after the same crates of this one, so that both see the same
# load.
#
#   scripts/newcomer.sh                # this clone
#   scripts/newcomer.sh OLDER_CLONE    # also the build.rs and derive crates against an
#                                      # older clone (warnings allowed), for a
#                                      # before/after table in the same run
#   KEEP=1 scripts/newcomer.sh         # keep the temporary directory
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
older=${1:-}
if [ -n "$older" ]; then
    older=$(cd "$older" && pwd)
fi
[ -x /usr/bin/time ] || { echo "newcomer.sh: needs /usr/bin/time (GNU time) for peak memory" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/crd-rs-newcomer.XXXXXX")
if [ -z "${KEEP:-}" ]; then
    trap 'rm -rf "$work"' EXIT
else
    echo "working in $work" >&2
fi

# The fenced block that follows the line `<!-- newcomer ROUTE FILE -->` in README.md.
snippet() {
    local route=$1 file=$2 text
    text=$(awk -v marker="<!-- newcomer $route $file -->" '
        $0 == marker { found = 1; next }
        found == 1 && /^```/ { found = 2; next }
        found == 2 && /^```/ { exit }
        found == 2 { print }
    ' "$repo/README.md")
    if [ -z "$text" ]; then
        echo "newcomer.sh: README.md has no snippet for $route $file" >&2
        exit 2
    fi
    printf '%s\n' "$text"
}

# A new binary crate `$1/$2`, its dependencies (the text on stdin) appended to the
# manifest `cargo new` writes.
new_crate() {
    local dir=$1 name=$2
    mkdir -p "$dir"
    (cd "$dir" && cargo new -q --bin --edition 2021 --vcs none "$name")
    sed -i '/^\[dependencies\]$/d' "$dir/$name/Cargo.toml"
    cat >>"$dir/$name/Cargo.toml"
}

# A crate per route of README.md in `$1`, next to `$1/crd-rs`, a link to the clone `$2`.
route_crates() {
    local dir=$1 clone=$2 route
    mkdir -p "$dir"
    ln -s "$clone" "$dir/crd-rs"
    for route in build-rs crd-types derive; do
        snippet "$route" Cargo.toml | new_crate "$dir" "$route"
        snippet "$route" src/main.rs >"$dir/$route/src/main.rs"
        mkdir -p "$dir/$route/crds"
        cp "$repo/examples/crds/crontab.yaml" "$dir/$route/crds/"
    done
    snippet build-rs build.rs >"$dir/build-rs/build.rs"
}

# The crate of route `$2` in `$1` once more as `$1/$2-git`, with README's git form for
# the URL of the clone `$3` (its committed HEAD). Cargo compiles a path dependency as a
# local crate, incrementally, which costs our crates' first build more CPU than the
# registry or git form a user of the published crates gets, and than kube-derive's row
# pays: the git rows compare like with like.
git_form_crate() {
    local dir=$1 route=$2 clone=$3
    cp -r "$dir/$route" "$dir/$route-git"
    sed -i -E "s|path = \"\.\./crd-rs/[a-z-]+\"|git = \"file://$clone\"|" "$dir/$route-git/Cargo.toml"
    if grep -q 'path = ' "$dir/$route-git/Cargo.toml"; then
        echo "newcomer.sh: $route's manifest kept a path form:" >&2
        cat "$dir/$route-git/Cargo.toml" >&2
        exit 1
    fi
}

# What the generated code needs at run time alone: crd-runtime (git form) and serde in a
# crate without generated code; the floor of every route's clean build.
runtime_crate() {
    new_crate "$1" runtime-only <<EOF
[dependencies]
crd-runtime = { git = "file://$2" }
serde = { version = "1", features = ["derive"] }
EOF
}

# The same CronTab written for kube-derive.
kube_crate() {
    new_crate "$1" kube-derive <<'EOF'
[dependencies]
kube = { version = "5", default-features = false, features = ["derive"] }
k8s-openapi = { version = "0.29", features = ["latest"] }
schemars = "1"
serde = { version = "1", features = ["derive"] }
serde_json = "1"
EOF
    cat >"$1/kube-derive/src/main.rs" <<'EOF'
use kube::{CustomResource, CustomResourceExt, KubeSchema};
use serde::{Deserialize, Serialize};

fn default_cron_spec() -> Option<String> {
    Some("5 0 * * *".into())
}

fn default_replicas() -> Option<i64> {
    Some(1)
}

/// A CronTab runs an image on a schedule.
#[derive(CustomResource, KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "stable.example.com", version = "v1", kind = "CronTab", namespaced,
       shortname = "ct", status = "CronTabStatus")]
#[x_kube(validation = "self.minReplicas <= self.replicas")]
#[serde(rename_all = "camelCase")]
pub struct CronTabSpec {
    #[serde(default = "default_cron_spec")]
    #[schemars(regex(pattern = r"^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$"))]
    pub cron_spec: Option<String>,
    pub image: Option<String>,
    #[serde(default = "default_replicas")]
    #[schemars(range(min = 1, max = 10))]
    pub replicas: Option<i64>,
    #[serde(default)]
    pub min_replicas: i64,
}

/// What the controller saw.
#[derive(schemars::JsonSchema, Serialize, Deserialize, Clone, Debug, Default)]
pub struct CronTabStatus {
    pub replicas: Option<i64>,
}

fn main() {
    // The CRD, for `kubectl apply -f -`.
    println!("{}", serde_json::to_string_pretty(&CronTab::crd()).unwrap());
}
EOF
}

# Runs `cargo $2` in the crate `$1` under GNU time; prints "seconds CPU-seconds crates
# MB", and
# "failed" after them when the command failed and `$3` is `tolerate` (else a failure
# stops the script, showing it). The output is in `$1/cargo-$2.log`.
measure() {
    local crate=$1 command=$2 failure=${3:-stop} log status=""
    log="$crate/cargo-$command.log"
    if ! (cd "$crate" && /usr/bin/time -v cargo "$command") >"$log" 2>&1; then
        if [ "$failure" != tolerate ]; then
            echo "newcomer.sh: cargo $command failed in $crate:" >&2
            grep -v '^\s*Compiling' "$log" | head -60 >&2
            exit 1
        fi
        status=failed
    fi
    awk -v status="$status" '
        /^ *Compiling / { crates++ }
        /Elapsed \(wall clock\)/ {
            n = split($NF, t, ":"); s = 0
            for (i = 1; i <= n; i++) s = s * 60 + t[i]
        }
        /User time \(seconds\)|System time \(seconds\)/ { cpu += $NF }
        /Maximum resident set size/ { mb = $NF / 1024 }
        END { printf "%.1f %.0f %d %.0f %s\n", s, cpu, crates, mb, status }
    ' "$log"
}

rows=()

# Builds, runs and tests the crate `$2` (shown as `$1`): clean build, run, test. With
# `$3` = `tolerate`, failing tests are noted in the table instead of stopping it.
check_crate() {
    local label=$1 crate=$2 failure=${3:-stop} build test
    (cd "$crate" && cargo generate-lockfile -q && cargo fetch -q)
    rm -rf "$crate/target"
    echo "building $label" >&2
    build=$(measure "$crate" build)
    (cd "$crate" && cargo run -q >run.out 2>run.err)
    test=$(measure "$crate" test "$failure")
    rows+=("$label|$build|$test")
}

# The build.rs crate with an invalid CRD added: the build fails, and the build
# script's error is printed once, naming the file and line, without an empty
# `Error:` line before it.
check_build_script_error() {
    local crate=$1 log
    log="$crate/cargo-bad.log"
    sed 's/type: integer/type: intger/' "$crate/crds/crontab.yaml" >"$crate/crds/zz-bad.yaml"
    if (cd "$crate" && cargo build) >"$log" 2>&1; then
        echo "newcomer.sh: the build with an invalid CRD did not fail" >&2
        exit 1
    fi
    rm "$crate/crds/zz-bad.yaml"
    if grep -qE '^ *Error: *$' "$log" || [ "$(grep -cE '^ *Error: crds/zz-bad.yaml:[0-9]+: ' "$log")" != 1 ]; then
        echo "newcomer.sh: the build script's error is not printed once on its Error: line:" >&2
        cat "$log" >&2
        exit 1
    fi
    echo "a build script's error: $(grep -E '^ *Error: ' "$log" | sed 's/^ *//' | cut -c1-100)..." >&2
}

# The derive crate without its crd-codegen dev-dependency: `cargo test` fails with the
# derive's error saying what to add (rustc's own would not), and `cargo build` works.
check_missing_dev_dependency() {
    local crate=$1 log
    log="$crate/cargo-no-dev-dependency.log"
    cp "$crate/Cargo.toml" "$crate/Cargo.toml.orig"
    sed -i '/^crd-codegen = /d' "$crate/Cargo.toml"
    if (cd "$crate" && cargo test --no-run) >"$log" 2>&1; then
        echo "newcomer.sh: the derive's test compiled without crd-codegen" >&2
        exit 1
    fi
    if ! grep -q 'needs crd-codegen among the dev-dependencies' "$log" || ! (cd "$crate" && cargo build -q); then
        echo "newcomer.sh: without crd-codegen, the derive does not say what to add:" >&2
        cat "$log" >&2
        exit 1
    fi
    mv "$crate/Cargo.toml.orig" "$crate/Cargo.toml"
    echo "the derive without crd-codegen: $(grep -E '^error: the test' "$log" | cut -c1-100)..." >&2
}

route_crates "$work/this" "$repo"
git_form_crate "$work/this" build-rs "$repo"
git_form_crate "$work/this" derive "$repo"
runtime_crate "$work/this" "$repo"
kube_crate "$work/this"
if [ -n "$older" ]; then
    route_crates "$work/older" "$older"
fi

# This clone's crates with warnings denied (for every crate compiled from a path,
# which is the generated code and the crd-rs crates; cargo caps registry crates).
# The older clone's, with warnings allowed, each right after this clone's.
older_crate() {
    if [ -n "$older" ]; then
        RUSTFLAGS="" check_crate "$1, older clone" "$work/older/$2" tolerate
    fi
}
export RUSTFLAGS="-D warnings"
check_crate "build.rs" "$work/this/build-rs"
check_build_script_error "$work/this/build-rs"
older_crate build.rs build-rs
check_crate "derive" "$work/this/derive"
check_missing_dev_dependency "$work/this/derive"
older_crate derive derive
check_crate "crd_types!" "$work/this/crd-types"
check_crate "build.rs, git form" "$work/this/build-rs-git"
check_crate "derive, git form" "$work/this/derive-git"
check_crate "crd-runtime alone, git form" "$work/this/runtime-only"
check_crate "kube-derive" "$work/this/kube-derive"

echo
echo "One-CRD edition-2021 binary crates, $(nproc) cores, $(date -u +%Y-%m-%d): wall and CPU seconds, crates compiled, peak MB:"
echo
echo "| crate | clean \`cargo build\` | CPU | crates | peak MB | \`cargo test\` after it | CPU | crates | peak MB |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for row in "${rows[@]}"; do
    IFS='|' read -r label build test <<<"$row"
    read -r b_s b_cpu b_n b_mb <<<"$build"
    read -r t_s t_cpu t_n t_mb t_failed <<<"$test"
    echo "| $label | $b_s s | $b_cpu s | $b_n | $b_mb | $t_s s${t_failed:+ (tests failed)} | $t_cpu s | $t_n | $t_mb |"
done
