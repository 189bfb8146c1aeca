//! The build.rs route: `build.rs` turns `crds/crontab.yaml` into Rust in OUT_DIR
//! (`crd_codegen::Builder`), and the crate includes it. The generated `CronTab`
//! admits objects, validates typed values and gives back its CRD.
//!
//!     cargo run --example build_rs_route

use crd_examples::generated::stable_example_com::v1::{CronTab, CronTabSpec};
use crd_runtime::prelude::*;

fn main() {
    let tab = CronTab::new(
        "from-build-rs",
        CronTabSpec {
            cron_spec: Some("*/5 * * * *".into()),
            image: Some("busybox".into()),
            replicas: Some(11),
        },
    );
    match tab.validate() {
        Ok(()) => println!("valid"),
        Err(e) => println!("{e}"),
    }
    println!(
        "CRD {} with {} version(s)",
        CronTab::CRD_NAME,
        CronTab::crd().spec.versions.len()
    );
}
