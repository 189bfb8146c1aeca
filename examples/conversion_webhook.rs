//! A conversion webhook for the seed's CronTab (`crds/crontab-conversion.yaml`):
//!
//! ```text
//! cargo run --example conversion_webhook -- --cert tls.crt --key tls.key [--addr 0.0.0.0:8443]
//! ```
//!
//! Serves `POST /convert` and `GET /healthz` over HTTPS until Ctrl-C, then finishes the
//! reviews in flight. In a cluster, the CRD's `spec.conversion.webhook.clientConfig`
//! points at a Service in front of it, with the CA that signed `tls.crt` as `caBundle`.

use crd_examples::webhook_server::{serve, tls_config};
use std::path::PathBuf;
use std::process::ExitCode;

#[tokio::main]
async fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (mut cert, mut key, mut addr) = (None, None, "0.0.0.0:8443".to_string());
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next()) {
            ("--cert", Some(v)) => cert = Some(PathBuf::from(v)),
            ("--key", Some(v)) => key = Some(PathBuf::from(v)),
            ("--addr", Some(v)) => addr = v,
            _ => {
                eprintln!("usage: conversion_webhook --cert FILE --key FILE [--addr HOST:PORT]");
                return ExitCode::from(2);
            }
        }
    }
    let (Some(cert), Some(key)) = (cert, key) else {
        eprintln!("usage: conversion_webhook --cert FILE --key FILE [--addr HOST:PORT]");
        return ExitCode::from(2);
    };
    let tls = match tls_config(&cert, &key) {
        Ok(tls) => tls,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let listener = match tokio::net::TcpListener::bind(&addr).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: cannot listen on {addr}: {e}");
            return ExitCode::from(2);
        }
    };
    eprintln!("serving conversion reviews on https://{addr}/convert");
    serve(listener, tls, async {
        let _ = tokio::signal::ctrl_c().await;
        eprintln!("shutting down");
    })
    .await;
    ExitCode::SUCCESS
}
