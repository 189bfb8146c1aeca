//! The CronTab with validation, defaults and a CEL rule, derived from Rust: the API
//! server's admission runs in-process, with its messages. A good object is admitted
//! (defaults filled in, unknown fields pruned); a bad one is refused.
//!
//!     cargo run --example crontab_admission

use crd_derive::CustomResource;
use crd_runtime::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(
    group = "stable.example.com",
    version = "v1",
    kind = "CronTab",
    namespaced,
    rule(
        rule = "self.minReplicas <= self.replicas",
        message = "replicas should be greater than or equal to minReplicas."
    )
)]
#[serde(rename_all = "camelCase")]
pub struct CronTabSpec {
    /// The schedule, in cron format.
    #[crd(pattern = r"^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$", default = "5 0 * * *")]
    pub cron_spec: Option<String>,
    pub image: String,
    #[crd(minimum = 1, maximum = 10, default = 1)]
    pub replicas: Option<i64>,
    #[crd(minimum = 0, default = 0)]
    pub min_replicas: Option<i64>,
}

fn main() {
    let good = json!({
        "apiVersion": "stable.example.com/v1", "kind": "CronTab",
        "metadata": {"name": "nightly"},
        "spec": {"image": "my-awesome-cron-image", "colour": "blue"},
    });
    let admitted = CronTab::admit_value(good, "default");
    println!("admitted: {}", admitted.object);
    println!("pruned:   {:?}", admitted.pruned);

    let bad = json!({
        "apiVersion": "stable.example.com/v1", "kind": "CronTab",
        "metadata": {"name": "broken"},
        "spec": {"cronSpec": "* * * *", "image": "x", "replicas": 15, "minReplicas": 20},
    });
    let refused = CronTab::admit_value(bad, "default");
    for e in &refused.errors {
        println!("error:    {e}");
    }

    // The typed route: build, default and validate a value.
    let mut tab = CronTab::new(
        "typed",
        CronTabSpec {
            cron_spec: None,
            image: "x".into(),
            replicas: Some(2),
            min_replicas: Some(3),
        },
    );
    tab.apply_defaults();
    match tab.validate() {
        Ok(()) => println!("typed: valid"),
        Err(e) => println!("typed: {e}"),
    }
}
