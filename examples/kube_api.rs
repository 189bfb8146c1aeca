//! The kube-rs route: install the CRD a derived type was built from, then create and
//! list objects with `kube::Api<CronTab>`, no glue. Needs a cluster (the current
//! kubeconfig context); with TLS, build with `--features tls`:
//!
//!     cargo run --example kube_api --features tls

use crd_derive::CustomResource;
use crd_runtime::k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use crd_runtime::prelude::*;
use kube::api::{ListParams, PostParams};
use kube::{Api, Client};
use serde::{Deserialize, Serialize};

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
    pub cron_spec: String,
    pub image: String,
    #[crd(minimum = 1, maximum = 10)]
    pub replicas: Option<i64>,
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let client = match Client::try_default().await {
        Ok(c) => c,
        Err(e) => {
            println!("no cluster reachable ({e}); nothing to do");
            return Ok(());
        }
    };
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());
    crds.create(&PostParams::default(), &CronTab::crd()).await?;

    let tab = CronTab::new(
        "nightly",
        CronTabSpec {
            cron_spec: "0 0 * * *".into(),
            image: "busybox".into(),
            replicas: Some(1),
        },
    );
    // The same checks the API server will run, before sending.
    tab.validate()?;
    let tabs: Api<CronTab> = Api::default_namespaced(client);
    tabs.create(&PostParams::default(), &tab).await?;
    for t in tabs.list(&ListParams::default()).await? {
        println!("{} runs {}", t.metadata.name.unwrap_or_default(), t.spec.image);
    }
    Ok(())
}
