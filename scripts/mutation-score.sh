#!/usr/bin/env bash
# Mutation score of the generated validation: hand-made mutants of the code crdgen
# generates for some corpus CRDs (scripts/mutants.py: a bound, an enum, a required
# field, a pattern, a type, pruning, a compiled CEL rule, one change each), each run
# through the differential harness against the reference engine. A mutant is killed
# when the harness finds a disagreement; the unmutated code must find none.
#
#   scripts/mutation-score.sh [OBJECTS_PER_VERSION] [PER_OPERATOR]
#
# Builds a scratch crate in target/mutation (nothing is committed).
set -euo pipefail
cd "$(dirname "$0")/.."
objects=${1:-100}
per_operator=${2:-3}
crds=(
    cert-manager/cert-manager.io_certificates.yaml
    cluster-api/cluster.x-k8s.io_machinedrainrules.yaml
    gateway-api/standard/gateway.networking.k8s.io_grpcroutes.yaml
)
root=$(pwd)
work=target/mutation
rm -rf "$work"
mkdir -p "$work/src"
cargo build -q --release -p crd-codegen --features cli --bin crdgen
for i in "${!crds[@]}"; do
    target/release/crdgen generate "../shared/crds/${crds[$i]}" > "$work/src/original_$i.rs" 2>/dev/null
done
python3 scripts/mutants.py "$work/src" "${#crds[@]}" "$per_operator"

{
    echo "/// The CRD files, relative to shared/crds, of original_<i>.rs."
    echo "pub const CRDS: &[&str] = &["
    for c in "${crds[@]}"; do echo "    \"$c\","; done
    echo "];"
} > "$work/src/crds.rs"

cat > "$work/Cargo.toml" <<TOML
[package]
name = "crd-mutation"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
crd-runtime = { path = "$root/crd-runtime" }
crd-codegen = { path = "$root/crd-codegen" }
crd-tests = { path = "$root/tests" }
serde = { version = "1", features = ["derive"] }
serde_json = "1"

[workspace]
TOML
cp Cargo.lock "$work/Cargo.lock"

cat > "$work/src/main.rs" <<'RUST'
mod crds;
mod mutants;

use crd_codegen::engine::Engine;
use crd_runtime::schema::Resource;
use crd_tests::differential::Comparison;

/// Runs the differential harness on one set of generated kinds; the number of
/// disagreements and the first one.
fn run(crd: &crd_codegen::ir::Crd, engine: &Engine, resources: &[Resource], n: u64) -> (u64, Option<String>) {
    let mut c = Comparison::default();
    for version in &crd.versions {
        let api_version = format!("{}/{}", crd.group, version.name);
        let Some(compiled) = Resource::find(resources, &api_version, &crd.names.kind) else {
            continue;
        };
        c.run("mutant", crd, engine, version, compiled, n);
    }
    (c.disagreements, c.failures.into_iter().next())
}

fn main() {
    let n: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(100);
    let dir = crd_tests::shared_dir().join("crds");
    let crds: Vec<crd_codegen::ir::Crd> = crds::CRDS
        .iter()
        .map(|f| crd_codegen::load::load(&[dir.join(f)]).irs().remove(0))
        .collect();
    let engines: Vec<Engine> = crds.iter().map(Engine::new).collect();
    for (i, resources) in mutants::ORIGINALS.iter().enumerate() {
        let (d, first) = run(&crds[i], &engines[i], resources, n);
        assert_eq!(d, 0, "the unmutated code of {} disagrees: {first:?}", crds::CRDS[i]);
    }
    let mut by_operator: std::collections::BTreeMap<String, (u32, u32)> = Default::default();
    let mut survivors = Vec::new();
    for (i, what, resources) in mutants::MUTANTS {
        let (d, _) = run(&crds[*i], &engines[*i], resources, n);
        let operator = what.split(' ').next().unwrap_or("").to_string();
        let entry = by_operator.entry(operator).or_default();
        entry.1 += 1;
        if d > 0 {
            entry.0 += 1;
        } else {
            survivors.push(format!("{}: {what}", crds::CRDS[*i]));
        }
    }
    let (killed, total) = by_operator.values().fold((0, 0), |(k, t), (a, b)| (k + a, t + b));
    println!("| operator | killed / mutants |\n|---|---|");
    for (operator, (k, t)) in &by_operator {
        println!("| {operator} | {k} / {t} |");
    }
    println!("\nmutation score: {killed} / {total} ({:.0}%), {n} objects per CRD version", 100.0 * killed as f64 / total.max(1) as f64);
    if !survivors.is_empty() {
        println!("\nsurvivors:");
        for s in survivors {
            println!("- {s}");
        }
    }
}
RUST

CARGO_TARGET_DIR="$root/target" cargo run -q --manifest-path "$work/Cargo.toml" -- "$objects"
