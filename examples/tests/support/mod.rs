//! A conversion webhook server on loopback with a fresh self-signed certificate, and
//! an HTTPS client that trusts only that certificate (for the test and the load
//! benchmark).

use crd_examples::webhook_server;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::SendRequest;
use hyper::{Request, StatusCode};
use hyper_util::rt::TokioIo;
use std::path::PathBuf;
use std::sync::Arc;
use tokio_rustls::TlsConnector;
use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName};
use tokio_rustls::rustls::{ClientConfig, RootCertStore};

/// A server on loopback with a fresh self-signed certificate, read from PEM files as
/// a deployment reads its secret; and a client that trusts only that certificate.
pub struct Running {
    pub addr: std::net::SocketAddr,
    connector: TlsConnector,
    /// The server task and its stop switch (none for a server in another process).
    task: Option<(tokio::sync::oneshot::Sender<()>, tokio::task::JoinHandle<()>)>,
}

/// A fresh self-signed certificate for `localhost`, in PEM files.
pub struct Certificate {
    pub cert: PathBuf,
    pub key: PathBuf,
    der: CertificateDer<'static>,
}

pub fn certificate() -> Certificate {
    let certified = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let dir = std::env::temp_dir().join(format!("conversion-webhook-{}-{}", std::process::id(), unique_suffix()));
    std::fs::create_dir_all(&dir).unwrap();
    let (cert, key) = (dir.join("tls.crt"), dir.join("tls.key"));
    std::fs::write(&cert, certified.cert.pem()).unwrap();
    std::fs::write(&key, certified.signing_key.serialize_pem()).unwrap();
    Certificate {
        cert,
        key,
        der: certified.cert.der().clone(),
    }
}

pub async fn start() -> Running {
    let certificate = certificate();
    let tls = webhook_server::tls_config(&certificate.cert, &certificate.key).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(webhook_server::serve(listener, tls, async {
        let _ = stopped.await;
    }));
    Running {
        task: Some((stop, server)),
        ..Running::client(addr, &certificate)
    }
}

/// A number no other server of this process has: the tests of one binary start
/// servers in parallel, and a clock reading can repeat (two servers then wrote their
/// certificates into one directory, and one read the other's half-written file).
fn unique_suffix() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl Running {
    /// A client of the server at `addr` (in another process) that uses `certificate`.
    pub fn client(addr: std::net::SocketAddr, certificate: &Certificate) -> Running {
        let mut roots = RootCertStore::empty();
        roots.add(certificate.der.clone()).unwrap();
        let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
        let client = ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_root_certificates(roots)
            .with_no_client_auth();
        Running {
            addr,
            connector: TlsConnector::from(Arc::new(client)),
            task: None,
        }
    }

    /// A new HTTPS connection, kept alive for as many requests as are sent on it.
    pub async fn connect(&self) -> SendRequest<Full<Bytes>> {
        let tcp = tokio::net::TcpStream::connect(self.addr).await.unwrap();
        let tls = self
            .connector
            .connect(ServerName::try_from("localhost").unwrap(), tcp)
            .await
            .unwrap();
        let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(tls)).await.unwrap();
        tokio::spawn(conn);
        sender
    }

    /// One request on a new HTTPS connection: the status and the body.
    pub async fn send(&self, method: &str, path: &str, body: Vec<u8>) -> (StatusCode, Vec<u8>) {
        let mut sender = self.connect().await;
        send_on(&mut sender, method, path, body).await
    }

    /// Stops the server and waits for it to finish.
    pub async fn stop(mut self) {
        let (stop, server) = self.task.take().unwrap();
        let _ = stop.send(());
        server.await.unwrap();
    }
}

/// One request on an open connection: the status and the body.
pub async fn send_on(
    sender: &mut SendRequest<Full<Bytes>>,
    method: &str,
    path: &str,
    body: Vec<u8>,
) -> (StatusCode, Vec<u8>) {
    let request = Request::builder()
        .method(method)
        .uri(path)
        .header("host", "localhost")
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(body)))
        .unwrap();
    let response = sender.send_request(request).await.unwrap();
    let status = response.status();
    let body = response.into_body().collect().await.unwrap().to_bytes().to_vec();
    (status, body)
}
