#!/usr/bin/env bash
# What a build script costs in the dev profile (build dependencies unoptimised, what
# users get by default), ours beside kopium's, generating the same CRDs.
#
# Two scratch crates under $WORK, each with a build.rs that times its generation:
#   - ours: `crd_codegen::Builder::new().crd(DIR).generate_to_out_dir(..)`;
#   - kopium's: kopium as a library (`kopium::TypeGenerator`, default options, one
#     `generate_rust_types_for` per CRD version, as `kopium -f FILE --api-version V`
#     does), the YAML read with serde_yaml into k8s-openapi's CustomResourceDefinition.
# Each crate is built once (`cargo build`, dev profile), then its build script binary
# is run RUNS times; the table gives the generation seconds of each run, the lines
# written, and the ratio of the medians.
#
#   scripts/build-script-time.sh [DIR]     # default ../shared/crds/gateway-api
#
# Environment: RUNS (default 5); WORK (default target/build-script-time; the two
# crates' build artefacts take about 1.2 GB);
# KOPIUM_VERSION (default 0.24.1; `none` to measure only ours). kopium's side needs
# crates.io.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(realpath "${1:-$root/../shared/crds/gateway-api}")
[ -d "$dir" ] || { echo "no CRD directory at $dir" >&2; exit 2; }
runs=${RUNS:-5}
work=${WORK:-$root/target/build-script-time}
kopium_version=${KOPIUM_VERSION:-0.24.1}
mkdir -p "$work"

# ours
mkdir -p "$work/ours/src"
cat > "$work/ours/Cargo.toml" <<EOF
[package]
name = "build-script-ours"
version = "0.0.0"
edition = "2021"
publish = false

[build-dependencies]
crd-codegen = { path = "$root/crd-codegen" }

[workspace]
EOF
cat > "$work/ours/build.rs" <<EOF
fn main() {
    let start = std::time::Instant::now();
    let path = crd_codegen::Builder::new()
        .crd("$dir")
        .generate_to_out_dir("generated.rs")
        .expect("generation");
    let secs = start.elapsed().as_secs_f64();
    std::fs::write(path.with_file_name("elapsed.txt"), format!("{secs:.3}\n")).unwrap();
}
EOF
echo 'fn main() {}' > "$work/ours/src/main.rs"

# kopium's
mkdir -p "$work/kopium/src"
cat > "$work/kopium/Cargo.toml" <<EOF
[package]
name = "build-script-kopium"
version = "0.0.0"
edition = "2021"
publish = false

[build-dependencies]
kopium = { version = "=$kopium_version", default-features = false }
k8s-openapi = { version = "0.28", features = ["latest"] }
serde_yaml = "0.9"

[workspace]
EOF
cat > "$work/kopium/build.rs" <<EOF
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;

fn yaml_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            yaml_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "yaml" || x == "yml") {
            out.push(path);
        }
    }
}

fn main() {
    let start = std::time::Instant::now();
    let mut files = Vec::new();
    yaml_files(std::path::Path::new("$dir"), &mut files);
    files.sort();
    let mut out = String::new();
    for (i, file) in files.iter().enumerate() {
        let text = std::fs::read_to_string(file).unwrap();
        let crd: CustomResourceDefinition = serde_yaml::from_str(&text).unwrap();
        for (j, version) in crd.spec.versions.iter().enumerate() {
            let generator = kopium::TypeGenerator {
                api_version: Some(version.name.clone()),
                ..Default::default()
            };
            let code = generator.generate_rust_types_for(&crd, None::<&str>).unwrap();
            out.push_str(&format!("pub mod crd{i}_{j} {{\n{code}\n}}\n"));
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let path = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("generated.rs");
    std::fs::write(&path, out).unwrap();
    std::fs::write(path.with_file_name("elapsed.txt"), format!("{secs:.3}\n")).unwrap();
}
EOF
echo 'fn main() {}' > "$work/kopium/src/main.rs"

sides=(ours)
[ "$kopium_version" = none ] || sides+=(kopium)
declare -A median lines
for side in "${sides[@]}"; do
  echo "== building the $side crate (dev profile)" >&2
  cargo build -q --manifest-path "$work/$side/Cargo.toml"
  script=$(ls -t "$work/$side"/target/debug/build/build-script-"$side"-*/build-script-build | head -1)
  out="$work/$side/out"
  mkdir -p "$out"
  times=()
  for _ in $(seq "$runs"); do
    OUT_DIR="$out" "$script" > /dev/null
    times+=("$(cat "$out/elapsed.txt")")
  done
  median[$side]=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')
  lines[$side]=$(wc -l < "$out/generated.rs")
  printf '%-7s %8s lines  generation (s): %s  median %s\n' "$side" "${lines[$side]}" "${times[*]}" "${median[$side]}"
done
if [ "$kopium_version" != none ]; then
  awk -v o="${median[ours]}" -v k="${median[kopium]}" \
    'BEGIN{printf "ours / kopium (medians): %.2f\n", o / k}'
fi
