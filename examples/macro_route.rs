//! The macro route: `crd_types!` expands CRD YAML into the same types at compile
//! time, with no build script (the path is relative to this crate's Cargo.toml).
//!
//!     cargo run --example macro_route

use crd_runtime::prelude::*;
use serde_json::json;

mod crontab {
    crd_derive::crd_types!("crds/crontab.yaml");
}
use crontab::stable_example_com::v1::CronTab;

fn main() {
    let object = json!({
        "apiVersion": "stable.example.com/v1", "kind": "CronTab",
        "metadata": {"name": "from-the-macro"},
        "spec": {"cronSpec": "* * * * */5", "image": "my-awesome-cron-image"},
    });
    let admitted = CronTab::admit_value(object, "default");
    assert!(admitted.errors.is_empty());
    let typed: CronTab = serde_json::from_value(admitted.object).unwrap();
    println!("{typed:#?}");
}
