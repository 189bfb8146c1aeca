//! The conversion webhook example on loopback: a real HTTPS server with a self-signed
//! certificate made here, driven with ConversionReview JSON over a real TLS
//! connection; every response is checked the way the API server checks it.

mod support;

use crd_examples::webhook_server::{HostPort, MAX_BODY, crontab};
use crd_runtime::review;
use hyper::StatusCode;
use serde_json::{Value, json};
use support::{Running, start};

/// Posts a review and reads the response as the API server does.
trait Review {
    async fn review(
        &self,
        review_version: &str,
        desired: &str,
        objects: Vec<Value>,
    ) -> (Value, Result<Vec<Value>, String>);
}

impl Review for Running {
    async fn review(
        &self,
        review_version: &str,
        desired: &str,
        objects: Vec<Value>,
    ) -> (Value, Result<Vec<Value>, String>) {
        let body = serde_json::to_vec(&json!({
            "apiVersion": review_version,
            "kind": "ConversionReview",
            "request": {"uid": "0000-1111", "desiredAPIVersion": desired, "objects": objects},
        }))
        .unwrap();
        let request = review::read_request(&body).unwrap();
        let (status, body) = self.send("POST", "/convert", body).await;
        assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&body));
        let response: Value = serde_json::from_slice(&body).unwrap();
        let accepted = review::accept_response(&request, &response);
        (response, accepted)
    }
}

fn crontab_v1(name: &str, host: &str, port: &str) -> Value {
    json!({
        "apiVersion": "example.com/v1", "kind": "CronTab",
        "metadata": {"name": name, "namespace": "default", "uid": format!("uid-{name}")},
        "host": host, "port": port,
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn converts_reviews_over_https() {
    let server = start().await;
    assert_eq!(
        server.send("GET", "/healthz", Vec::new()).await,
        (StatusCode::OK, b"ok".to_vec())
    );

    // To the hub and back, objects in order, uid echoed, v1 and v1beta1 reviews.
    let objects = vec![crontab_v1("a", "db", "5432"), crontab_v1("b", "cache", "6379")];
    let (response, accepted) = server
        .review("apiextensions.k8s.io/v1", "example.com/v1beta1", objects.clone())
        .await;
    assert_eq!(response["response"]["uid"], "0000-1111");
    let at_hub = accepted.unwrap();
    assert_eq!(
        at_hub.iter().map(|o| o["hostPort"].clone()).collect::<Vec<_>>(),
        ["db:5432", "cache:6379"]
    );
    let (response, accepted) = server
        .review("apiextensions.k8s.io/v1beta1", "example.com/v1", at_hub)
        .await;
    assert_eq!(response["apiVersion"], "apiextensions.k8s.io/v1beta1");
    assert_eq!(accepted.unwrap(), objects);

    // A version the CRD does not have: a Failure naming the object, with HTTP 200.
    let (response, accepted) = server
        .review(
            "apiextensions.k8s.io/v1",
            "example.com/v3",
            vec![crontab_v1("a", "db", "1")],
        )
        .await;
    assert_eq!(response["response"]["result"]["status"], "Failure");
    assert_eq!(
        accepted.unwrap_err(),
        "conversion webhook for example.com/v1, Kind=CronTab failed: converting objects[0] (default/a, apiVersion example.com/v1): example.com/v3 is not a version of CronTab (versions: example.com/v1, example.com/v1beta1)"
    );

    // An object of another kind is refused, not converted: a Failure naming it.
    let mut other = crontab_v1("b", "db", "1");
    other["kind"] = json!("NotCronTab");
    let (response, _) = server
        .review(
            "apiextensions.k8s.io/v1",
            "example.com/v1beta1",
            vec![crontab_v1("a", "db", "1"), other],
        )
        .await;
    assert_eq!(
        response["response"],
        json!({
            "uid": "0000-1111",
            "convertedObjects": [],
            "result": {
                "status": "Failure",
                "message": "converting objects[1] (default/b, apiVersion example.com/v1): cannot convert \"example.com/v1\" \"NotCronTab\" to example.com/v1beta1 CronTab: not the same group and kind",
            },
        })
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_and_oversized_requests_get_http_errors() {
    let server = start().await;
    let (status, body) = server.send("POST", "/convert", b"{not json".to_vec()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(String::from_utf8_lossy(&body).starts_with("the body is not a JSON ConversionReview"));
    let (status, _) = server
        .send("POST", "/convert", br#"{"apiVersion":"v1","kind":"Pod"}"#.to_vec())
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, body) = server.send("POST", "/convert", vec![b' '; MAX_BODY + 1]).await;
    assert_eq!(
        (status, body),
        (StatusCode::PAYLOAD_TOO_LARGE, b"request body too large".to_vec())
    );
    assert_eq!(
        server.send("GET", "/convert", Vec::new()).await.0,
        StatusCode::METHOD_NOT_ALLOWED
    );
    assert_eq!(server.send("GET", "/other", Vec::new()).await.0, StatusCode::NOT_FOUND);
    // The server is still up after all that.
    assert_eq!(server.send("GET", "/healthz", Vec::new()).await.0, StatusCode::OK);

    // Once shut down, it accepts no more connections.
    let addr = server.addr;
    server.stop().await;
    assert!(tokio::net::TcpStream::connect(addr).await.is_err());
}

/// The typed side of the same conversion: the seed's `host` and `port` fold into
/// `hostPort` and back.
#[test]
fn the_seed_crontab_round_trips_through_its_hooks() {
    use crontab::example_com::{cron_tab_conversion, v1, v1beta1};
    assert_eq!(
        cron_tab_conversion::UNMAPPED,
        [
            ("v1", "v1beta1", "hostPort"),
            ("v1beta1", "v1", "host"),
            ("v1beta1", "v1", "port")
        ]
    );
    let spoke = v1::CronTab {
        host: Some("localhost".into()),
        port: Some("1234".into()),
        ..v1::CronTab::default()
    };
    let at_hub = cron_tab_conversion::convert::<HostPort, v1beta1::CronTab>(&spoke).unwrap();
    assert_eq!(at_hub.object.host_port.as_deref(), Some("localhost:1234"));
    // v1's fields have no place in v1beta1: the hooks read them, the hub drops them.
    assert_eq!(at_hub.dropped, ["host", "port"]);
    let back = cron_tab_conversion::convert::<HostPort, v1::CronTab>(&at_hub.object).unwrap();
    assert_eq!(back.object, spoke);
    assert_eq!(back.dropped, ["hostPort"]);
}

/// The metadata crosses the conversion as it is, both ways, and the hooks of root-level
/// fields see the object without it (reading it for every hook would cost more than
/// the conversion; no hook writes metadata).
#[test]
fn metadata_crosses_the_conversion_untouched() {
    use cron_tab_conversion::Hooks;
    use crontab::example_com::{cron_tab_conversion, v1, v1beta1};
    struct WithoutMetadata;
    impl Hooks for WithoutMetadata {
        fn v1beta1_host_port_from_v1(from: &v1::CronTab) -> Option<String> {
            assert_eq!(from.metadata, Default::default());
            HostPort::v1beta1_host_port_from_v1(from)
        }
        fn v1_host_from_v1beta1(from: &v1beta1::CronTab) -> Option<String> {
            assert_eq!(from.metadata, Default::default());
            HostPort::v1_host_from_v1beta1(from)
        }
        fn v1_port_from_v1beta1(from: &v1beta1::CronTab) -> Option<String> {
            HostPort::v1_port_from_v1beta1(from)
        }
    }
    let mut object = crontab_v1("a", "localhost", "1234");
    object["metadata"] = json!({
        "name": "a", "namespace": "default", "uid": "uid-a", "resourceVersion": "7",
        "generation": 3, "creationTimestamp": "2026-11-26T10:00:00Z",
        "labels": {"app": "cron"}, "annotations": {"example.com/note": "kept"},
        "finalizers": ["example.com/f"],
        "ownerReferences": [{"apiVersion": "v1", "kind": "ConfigMap", "name": "owner", "uid": "uid-o"}],
        "managedFields": [{"manager": "kubectl", "operation": "Update", "apiVersion": "example.com/v1",
            "fieldsType": "FieldsV1", "fieldsV1": {"f:host": {}, "f:port": {}}}],
    });
    let at_hub = cron_tab_conversion::convert_value::<WithoutMetadata>(object.clone(), "example.com/v1beta1").unwrap();
    assert_eq!(at_hub.object["hostPort"], "localhost:1234");
    assert_eq!(at_hub.object["metadata"], object["metadata"]);
    let back = cron_tab_conversion::convert_value::<WithoutMetadata>(at_hub.object, "example.com/v1").unwrap();
    assert_eq!(back.object, object);
}

/// The generated `respond`, which carries metadata over without checking it, answers
/// every review as `review::handle` with the same conversion and all its checks:
/// conversions both ways, objects already at the desired version, without metadata,
/// with metadata of the wrong type, not objects at all, of an unknown version, and
/// that a hook cannot read.
#[test]
fn the_generated_respond_answers_as_the_checked_handler() {
    use crontab::example_com::cron_tab_conversion;
    let v1beta1 = |name: &str, host_port: &str| {
        json!({
            "apiVersion": "example.com/v1beta1", "kind": "CronTab",
            "metadata": {"name": name, "namespace": "ns", "uid": format!("uid-{name}"), "labels": {"app": "cron"}},
            "hostPort": host_port,
        })
    };
    let mut hook_cannot_read = crontab_v1("unreadable", "h", "1");
    hook_cannot_read["port"] = json!(7);
    let mut metadata_a_string = crontab_v1("m", "h", "1");
    metadata_a_string["metadata"] = json!("m");
    let mut no_metadata = crontab_v1("n", "h", "1");
    no_metadata.as_object_mut().unwrap().remove("metadata");
    let mut unknown_version = crontab_v1("u", "h", "1");
    unknown_version["apiVersion"] = json!("example.com/v9");
    let mut other_kind = crontab_v1("k", "h", "1");
    other_kind["kind"] = json!("NotCronTab");
    let mut other_group = crontab_v1("g", "h", "1");
    other_group["apiVersion"] = json!("other.example.com/v1");
    let mut other_kind_at_desired = v1beta1("d", "h:1");
    other_kind_at_desired["kind"] = json!("NotCronTab");
    let cases: Vec<(&str, Vec<Value>)> = vec![
        (
            "example.com/v1beta1",
            (0..5)
                .map(|i| crontab_v1(&format!("c{i}"), "h", &i.to_string()))
                .collect(),
        ),
        (
            "example.com/v1",
            (0..5).map(|i| v1beta1(&format!("c{i}"), &format!("h:{i}"))).collect(),
        ),
        (
            "example.com/v1",
            vec![crontab_v1("at-desired", "h", "1"), v1beta1("b", "h:1")],
        ),
        ("example.com/v1beta1", vec![crontab_v1("a", "h", "1"), hook_cannot_read]),
        ("example.com/v1beta1", vec![metadata_a_string]),
        ("example.com/v1beta1", vec![crontab_v1("a", "h", "1"), no_metadata]),
        ("example.com/v1beta1", vec![json!(7)]),
        ("example.com/v1beta1", vec![unknown_version]),
        ("example.com/v1beta1", vec![crontab_v1("a", "h", "1"), other_kind]),
        ("example.com/v1beta1", vec![other_group]),
        ("example.com/v1beta1", vec![other_kind_at_desired]),
        ("example.com/v1beta1", vec![]),
    ];
    let mut failures = Vec::new();
    for (desired, objects) in cases {
        let body = serde_json::to_vec(&json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
            "request": {"uid": "u", "desiredAPIVersion": desired, "objects": objects},
        }))
        .unwrap();
        let request = review::read_request(&body).unwrap();
        let checked = review::handle(&body, cron_tab_conversion::convert_value::<HostPort>).unwrap();
        let response = cron_tab_conversion::respond::<HostPort>(request.clone());
        assert_eq!(response, checked, "{desired} {objects:?}");
        match response["response"]["result"]["message"].as_str() {
            Some(message) => failures.push(message.to_string()),
            None => assert!(review::accept_response(&request, &response).is_ok()),
        }
    }
    assert_eq!(
        failures,
        [
            "converting objects[1] (default/unreadable, apiVersion example.com/v1): cannot read the object for a conversion hook: invalid type: integer `7`, expected a string",
            "converting objects[0] (, apiVersion example.com/v1): invalid metadata of type string in converted object",
            "converting objects[1] (, apiVersion example.com/v1): missing metadata in converted object",
            "converting objects[0] (, apiVersion ): not a JSON object",
            "converting objects[0] (default/u, apiVersion example.com/v9): example.com/v9 is not a version of CronTab (versions: example.com/v1, example.com/v1beta1)",
            "converting objects[1] (default/k, apiVersion example.com/v1): cannot convert \"example.com/v1\" \"NotCronTab\" to example.com/v1beta1 CronTab: not the same group and kind",
            "converting objects[0] (default/g, apiVersion other.example.com/v1): cannot convert \"other.example.com/v1\" \"CronTab\" to example.com/v1beta1 CronTab: not the same group and kind",
            "converting objects[0] (ns/d, apiVersion example.com/v1beta1): cannot convert \"example.com/v1beta1\" \"NotCronTab\" to example.com/v1beta1 CronTab: not the same group and kind",
        ]
    );
}

/// The example's server in a process of its own, as deployed: this test binary run
/// again for this test alone by [`a_signal_stops_the_server_gracefully`], with the
/// server's arguments in `CONVERSION_WEBHOOK_ARGS`. The test passes when the server
/// returns success.
#[test]
#[ignore = "the server process of a_signal_stops_the_server_gracefully, which runs it"]
fn server_process() {
    let args = std::env::var("CONVERSION_WEBHOOK_ARGS").expect("run by a_signal_stops_the_server_gracefully");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let code = runtime.block_on(crd_examples::webhook_server::run(args.split('\n').map(String::from)));
    assert_eq!(code, std::process::ExitCode::SUCCESS);
}

/// SIGTERM (what the kubelet sends a pod's containers) and SIGINT stop the server as
/// `run` serves it: it says so, stops accepting, and the process exits with success
/// (without the handler, the signal kills it), no longer listening.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_signal_stops_the_server_gracefully() {
    use std::io::{BufRead, BufReader, Read};
    use std::process::{Command, Stdio};
    for signal in ["TERM", "INT"] {
        let certificate = support::certificate();
        let args = [
            "--cert",
            certificate.cert.to_str().unwrap(),
            "--key",
            certificate.key.to_str().unwrap(),
            "--addr",
            "127.0.0.1:0",
        ];
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "server_process",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("CONVERSION_WEBHOOK_ARGS", args.join("\n"))
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        stderr.read_line(&mut line).unwrap();
        let addr = line
            .strip_prefix("serving conversion reviews on https://")
            .and_then(|rest| rest.trim_end().strip_suffix("/convert"))
            .unwrap_or_else(|| panic!("the server did not start: {line:?}"));
        let server = Running::client(addr.parse().unwrap(), &certificate);
        let mut kept = server.connect().await;
        assert_eq!(
            support::send_on(&mut kept, "GET", "/healthz", Vec::new()).await,
            (StatusCode::OK, b"ok".to_vec())
        );

        let killed = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let status = tokio::task::spawn_blocking(move || child.wait().unwrap())
            .await
            .unwrap();
        let mut rest = String::new();
        stderr.read_to_string(&mut rest).unwrap();
        assert!(status.success(), "SIG{signal}: {status}\n{rest}");
        assert_eq!(
            rest.lines().take(2).collect::<Vec<_>>(),
            [format!("SIG{signal}: shutting down").as_str(), "stopped"],
            "SIG{signal}"
        );
        assert!(
            tokio::net::TcpStream::connect(server.addr).await.is_err(),
            "SIG{signal}: still listening"
        );
    }
}
