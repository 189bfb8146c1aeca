//! A conversion webhook for the seed's CronTab (`crds/crontab-conversion.yaml`):
//!
//! ```text
//! cargo run --example conversion_webhook -- --cert tls.crt --key tls.key [--addr 0.0.0.0:8443]
//! ```
//!
//! Serves `POST /convert` and `GET /healthz` over HTTPS until SIGTERM (what the kubelet
//! sends) or Ctrl-C, then finishes the reviews in flight. In a cluster, the CRD's
//! `spec.conversion.webhook.clientConfig` points at a Service in front of it, with the
//! CA that signed `tls.crt` as `caBundle`. The server is `crd_examples::webhook_server`.

use std::process::ExitCode;

#[tokio::main]
async fn main() -> ExitCode {
    crd_examples::webhook_server::run(std::env::args().skip(1)).await
}
