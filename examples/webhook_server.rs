//! A conversion webhook server, deployed the way the API server calls one: HTTPS with
//! the certificate and key from PEM files, `POST /convert` taking a
//! `ConversionReview`, `GET /healthz`, a request body limit, a log line per review and
//! graceful shutdown on SIGTERM (what the kubelet sends a pod's containers) or SIGINT.
//! The review is read by `crd_runtime::review::read_request` and answered by the
//! generated hub-and-spoke conversion of the seed's CronTab ([`crontab`], its
//! `respond`), whose one hand-written part is [`HostPort`].
//!
//! Built on hyper (HTTP/1.1) and rustls; `examples/conversion_webhook.rs` runs it
//! ([`run`]).

use crd_runtime::review;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::ServerConfig;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// The seed's CronTab with webhook conversion (`crds/crontab-conversion.yaml`):
/// `hostPort` in v1beta1, the storage version; `host` and `port` in v1.
pub mod crontab {
    crd_derive::crd_types!("crds/crontab-conversion.yaml");
}

use crontab::example_com::cron_tab_conversion;

// The one hand-written part of the conversion (also the conversion_review fuzz
// target's, which includes the file).
#[path = "host_port.rs"]
mod host_port;
pub use host_port::HostPort;

/// A `ConversionReview` of `n` v1 CronTabs to v1beta1, as the API server sends one
/// (for the benchmarks).
pub fn sample_review(n: usize) -> Vec<u8> {
    let objects: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            serde_json::json!({
                "apiVersion": "example.com/v1",
                "kind": "CronTab",
                "metadata": {
                    "name": format!("crontab-{i}"),
                    "namespace": "default",
                    "uid": format!("6a5f1a4e-0000-4000-8000-{i:012}"),
                    "resourceVersion": "4411",
                    "generation": 1,
                    "creationTimestamp": "2026-11-26T10:00:00Z",
                    "labels": {"app": "cron"},
                },
                "host": format!("host-{i}.example.com"),
                "port": "8443",
            })
        })
        .collect();
    serde_json::to_vec(&serde_json::json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "ConversionReview",
        "request": {"uid": "705ab4f5-6393-11e8-b7cc-42010a800002", "desiredAPIVersion": "example.com/v1beta1", "objects": objects},
    }))
    .unwrap_or_default()
}

/// A review response written out. The converted objects are about as large as the
/// request's, so the buffer is sized for that up front.
pub fn response_body(response: &serde_json::Value, request_len: usize) -> Vec<u8> {
    let mut body = Vec::with_capacity(request_len + 256);
    serde_json::to_writer(&mut body, response).unwrap_or_default();
    body
}

/// The largest request body accepted: the API server's own limit for a request (3
/// MiB), which bounds what it sends.
pub const MAX_BODY: usize = 3 * 1024 * 1024;

/// The server's TLS configuration from a PEM certificate chain and a PEM private key.
pub fn tls_config(cert: &Path, key: &Path) -> Result<ServerConfig, String> {
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(cert)
        .and_then(|certs| certs.collect())
        .map_err(|e| format!("{}: {e}", cert.display()))?;
    if certs.is_empty() {
        return Err(format!("{}: no certificate", cert.display()));
    }
    let key = PrivateKeyDer::from_pem_file(key).map_err(|e| format!("{}: {e}", key.display()))?;
    let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .map_err(|e| e.to_string())?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(config)
}

const USAGE: &str = "usage: conversion_webhook --cert FILE --key FILE [--addr HOST:PORT]";

/// The example's `main`: serves on `--addr` (default `0.0.0.0:8443`, port 0 for any)
/// with the certificate and key of `--cert` and `--key` until SIGTERM or SIGINT, then
/// finishes the reviews in flight. `args` are the command line's, without the program.
pub async fn run(args: impl IntoIterator<Item = String>) -> ExitCode {
    let mut args = args.into_iter();
    let (mut cert, mut key, mut addr) = (None, None, "0.0.0.0:8443".to_string());
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next()) {
            ("--cert", Some(v)) => cert = Some(PathBuf::from(v)),
            ("--key", Some(v)) => key = Some(PathBuf::from(v)),
            ("--addr", Some(v)) => addr = v,
            _ => {
                eprintln!("{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let (Some(cert), Some(key)) = (cert, key) else {
        eprintln!("{USAGE}");
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
    // Installed before the server says it is up: a signal from then on stops it.
    let signal = match shutdown_signal() {
        Ok(signal) => signal,
        Err(e) => {
            eprintln!("error: cannot install the signal handlers: {e}");
            return ExitCode::from(2);
        }
    };
    let local = listener.local_addr().map_or(addr, |a| a.to_string());
    eprintln!("serving conversion reviews on https://{local}/convert");
    serve(listener, tls, async {
        let name = signal.await;
        eprintln!("{name}: shutting down");
    })
    .await;
    eprintln!("stopped");
    ExitCode::SUCCESS
}

/// Completes when the process is asked to stop, with the signal's name: SIGTERM (what
/// the kubelet sends a pod's containers before it kills them) or SIGINT (Ctrl-C). The
/// handlers are installed by this call, not when the future is first polled, so a
/// signal sent once the caller goes on cannot kill the process instead.
#[cfg(unix)]
pub fn shutdown_signal() -> std::io::Result<impl Future<Output = &'static str>> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut terminate = signal(SignalKind::terminate())?;
    let mut interrupt = signal(SignalKind::interrupt())?;
    Ok(async move {
        tokio::select! {
            _ = terminate.recv() => "SIGTERM",
            _ = interrupt.recv() => "SIGINT",
        }
    })
}

/// [`shutdown_signal`] where there are no Unix signals: Ctrl-C.
#[cfg(not(unix))]
pub fn shutdown_signal() -> std::io::Result<impl Future<Output = &'static str>> {
    Ok(async {
        let _ = tokio::signal::ctrl_c().await;
        "Ctrl-C"
    })
}

/// Serves connections from `listener` until `shutdown` completes, then stops accepting
/// and waits for the connections in flight to finish.
pub async fn serve(listener: TcpListener, tls: ServerConfig, shutdown: impl Future<Output = ()>) {
    let acceptor = TlsAcceptor::from(Arc::new(tls));
    let graceful = GracefulShutdown::new();
    let builder = auto::Builder::new(TokioExecutor::new());
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((tcp, peer)) = accepted else { continue };
                let acceptor = acceptor.clone();
                let builder = builder.clone();
                let watcher = graceful.watcher();
                tokio::spawn(async move {
                    // A client that fails the handshake (or is not TLS) is dropped.
                    let Ok(tls) = acceptor.accept(tcp).await else { return };
                    let conn = builder.serve_connection(TokioIo::new(tls), service_fn(route)).into_owned();
                    if let Err(e) = watcher.watch(conn).await {
                        eprintln!("connection from {peer}: {e}");
                    }
                });
            }
            () = &mut shutdown => break,
        }
    }
    graceful.shutdown().await;
}

type Body = Full<Bytes>;

async fn route(request: Request<Incoming>) -> Result<Response<Body>, std::convert::Infallible> {
    Ok(match (request.method(), request.uri().path()) {
        (&Method::GET, "/healthz") => text(StatusCode::OK, "ok"),
        (&Method::POST, "/convert") => convert(request).await,
        (_, "/healthz" | "/convert") => text(StatusCode::METHOD_NOT_ALLOWED, "method not allowed"),
        _ => text(StatusCode::NOT_FOUND, "not found"),
    })
}

async fn convert(request: Request<Incoming>) -> Response<Body> {
    let body = match Limited::new(request.into_body(), MAX_BODY).collect().await {
        Ok(body) => body.to_bytes(),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => {
            return text(StatusCode::PAYLOAD_TOO_LARGE, "request body too large");
        }
        Err(e) => return text(StatusCode::BAD_REQUEST, &e.to_string()),
    };
    let request = match review::read_request(&body) {
        Ok(request) => request,
        Err(bad) => {
            eprintln!("bad review: {bad}");
            return text(StatusCode::BAD_REQUEST, &bad.message);
        }
    };
    let what = format!(
        "review {}: {} object(s) to {}",
        request.uid,
        request.objects.len(),
        request.desired_api_version
    );
    let response = cron_tab_conversion::respond::<HostPort>(request);
    let result = &response["response"]["result"];
    eprintln!(
        "{what}: {}{}",
        result["status"].as_str().unwrap_or(""),
        result["message"].as_str().map(|m| format!(": {m}")).unwrap_or_default(),
    );
    json(StatusCode::OK, response_body(&response, body.len()))
}

fn text(status: StatusCode, body: &str) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from(body.to_string())));
    *response.status_mut() = status;
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        "text/plain; charset=utf-8".parse().unwrap(),
    );
    response
}

fn json(status: StatusCode, body: Vec<u8>) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(hyper::header::CONTENT_TYPE, "application/json".parse().unwrap());
    response
}
