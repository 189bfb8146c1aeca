//! Generated and derived root types work with kube-rs as kube-derive's do: they are
//! `kube::Resource`s (through k8s-openapi's traits), implement
//! `kube::CustomResourceExt` (crd-runtime's `kube` feature), and `Api<T>` lists,
//! gets and creates them against an API server, here a fake one on loopback.

use crd_runtime::k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{ListParams, PostParams};
use kube::{Api, Client, CustomResourceExt, Resource};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

mod generated {
    crd_derive::crd_types!("../../shared/spec/examples/crontab-crd.yaml");
}
use generated::stable_example_com::v1::CronTab as GeneratedCronTab;

mod derived {
    use crd_derive::CustomResource;
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
        #[crd(minimum = 1, default = 1)]
        pub replicas: Option<i64>,
    }
}
use derived::CronTab as DerivedCronTab;

#[test]
fn custom_resource_ext_answers_like_kube_derive() {
    fn check<K: CustomResourceExt + Resource<DynamicType = ()>>() {
        assert_eq!(K::crd_name(), "crontabs.stable.example.com");
        assert_eq!(K::shortnames(), ["ct"]);
        let ar = K::api_resource();
        assert_eq!(
            (
                ar.group.as_str(),
                ar.version.as_str(),
                ar.kind.as_str(),
                ar.plural.as_str()
            ),
            ("stable.example.com", "v1", "CronTab", "crontabs")
        );
        assert_eq!(K::crd().metadata.name.as_deref(), Some("crontabs.stable.example.com"));
        assert_eq!(
            K::url_path(&(), Some("ns")),
            "/apis/stable.example.com/v1/namespaces/ns/crontabs"
        );
    }
    check::<GeneratedCronTab>();
    check::<DerivedCronTab>();
}

/// Type-checks only (no cluster to watch): the watcher takes both kinds of types.
#[allow(dead_code)]
fn watchers(client: Client) {
    use futures::StreamExt;
    let _ = kube::runtime::watcher(Api::<DerivedCronTab>::all(client.clone()), Default::default()).boxed();
    let _ = kube::runtime::watcher(Api::<GeneratedCronTab>::all(client), Default::default()).boxed();
}

/// A fake API server: answers each request with `respond(method, path, body)`.
async fn serve(respond: fn(&str, &str, Value) -> (u16, Value)) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        loop {
            let (mut socket, _) = listener.accept().await.unwrap();
            tokio::spawn(async move {
                let mut buf = Vec::new();
                loop {
                    // One request: headers, then Content-Length bytes of body.
                    let header_end = loop {
                        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                            break i + 4;
                        }
                        let mut chunk = [0u8; 4096];
                        let n = socket.read(&mut chunk).await.unwrap_or(0);
                        if n == 0 {
                            return;
                        }
                        buf.extend_from_slice(&chunk[..n]);
                    };
                    let head = String::from_utf8_lossy(&buf[..header_end]).to_string();
                    let length = head
                        .lines()
                        .find_map(|l| {
                            l.to_ascii_lowercase()
                                .strip_prefix("content-length:")
                                .map(|v| v.trim().parse().unwrap())
                        })
                        .unwrap_or(0usize);
                    while buf.len() < header_end + length {
                        let mut chunk = [0u8; 4096];
                        let n = socket.read(&mut chunk).await.unwrap();
                        buf.extend_from_slice(&chunk[..n]);
                    }
                    let body: Value =
                        serde_json::from_slice(&buf[header_end..header_end + length]).unwrap_or(Value::Null);
                    buf.drain(..header_end + length);
                    let mut words = head.split_whitespace();
                    let (method, path) = (words.next().unwrap().to_string(), words.next().unwrap().to_string());
                    let (status, reply) = respond(&method, &path, body);
                    let reply = reply.to_string();
                    let response = format!(
                        "HTTP/1.1 {status} OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{reply}",
                        reply.len()
                    );
                    socket.write_all(response.as_bytes()).await.unwrap();
                }
            });
        }
    });
    url
}

fn api_server(method: &str, path: &str, body: Value) -> (u16, Value) {
    match (method, path.split('?').next().unwrap()) {
        ("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions") => (201, body),
        ("GET", "/apis/stable.example.com/v1/namespaces/default/crontabs") => (
            200,
            json!({
                "apiVersion": "stable.example.com/v1", "kind": "CronTabList", "metadata": {"resourceVersion": "7"},
                "items": [{
                    "apiVersion": "stable.example.com/v1", "kind": "CronTab",
                    "metadata": {"name": "nightly", "namespace": "default"},
                    "spec": {"cronSpec": "0 0 * * *", "replicas": 2},
                }],
            }),
        ),
        _ => (
            404,
            json!({"kind": "Status", "apiVersion": "v1", "status": "Failure", "code": 404}),
        ),
    }
}

#[tokio::test(flavor = "current_thread")]
async fn api_lists_and_creates_through_kube() {
    let url = serve(api_server).await;
    let client = Client::try_from(kube::Config::new(url.parse().unwrap())).unwrap();

    // Install the CRD a derived type was built from, as an operator does at start.
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());
    let created = crds
        .create(&PostParams::default(), &DerivedCronTab::crd())
        .await
        .unwrap();
    assert_eq!(created, DerivedCronTab::crd());

    let derived: Api<DerivedCronTab> = Api::namespaced(client.clone(), "default");
    let list = derived.list(&ListParams::default()).await.unwrap();
    assert_eq!(list.items.len(), 1);
    assert_eq!(list.items[0].spec.cron_spec, "0 0 * * *");
    assert_eq!(list.items[0].spec.replicas, Some(2));

    let generated: Api<GeneratedCronTab> = Api::default_namespaced(client);
    let list = generated.list(&ListParams::default()).await.unwrap();
    assert_eq!(list.items[0].metadata.name.as_deref(), Some("nightly"));
    assert_eq!(list.items[0].spec.as_ref().unwrap().replicas, Some(2));
}
