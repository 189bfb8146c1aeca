//! The seed CronTab written in Rust: `#[derive(CustomResource)]` gives the root type
//! `CronTab` and its CRD, printed here as YAML, ready for `kubectl apply -f -`.
//!
//!     cargo run --example crontab_derive

use crd_derive::CustomResource;
use serde::{Deserialize, Serialize};

/// A CronTab runs an image on a schedule.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(
    group = "stable.example.com",
    version = "v1",
    kind = "CronTab",
    namespaced,
    shortname = "ct"
)]
#[serde(rename_all = "camelCase")]
pub struct CronTabSpec {
    /// The schedule, in cron format.
    pub cron_spec: String,
    /// The container image to run.
    pub image: String,
    /// How many copies run.
    pub replicas: Option<i32>,
}

fn main() {
    print!("{}", crd_runtime::to_yaml(&CronTab::crd()));
}
