//! Admission speed, in one run: the generated code (OpenAPI validation alone, and the
//! whole create pipeline) against the reference engine and the `jsonschema` crate
//! validating the same object against the same schema, with `serde_json` parsing the
//! object's bytes as the yardstick. On the seed CronTab and a cert-manager
//! Certificate.
//!
//! `cargo bench -p crd-tests --bench admission`

use crd_codegen::engine::Engine;
use crd_runtime::openapi::Res;
use crd_runtime::schema::CustomResource;
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use std::hint::black_box;

mod crontab {
    crd_derive::crd_types!("../../shared/spec/examples/crontab-crd.yaml");
}
mod certificates {
    crd_derive::crd_types!("../../shared/crds/cert-manager/cert-manager.io_certificates.yaml");
}

/// The seed page's CronTab.
fn crontab_object() -> Value {
    json!({
        "apiVersion": "stable.example.com/v1",
        "kind": "CronTab",
        "metadata": {"name": "my-new-cron-object"},
        "spec": {"cronSpec": "* * * * */5", "image": "my-awesome-cron-image", "replicas": 3},
    })
}

/// A Certificate as an operator would write one.
fn certificate_object() -> Value {
    json!({
        "apiVersion": "cert-manager.io/v1",
        "kind": "Certificate",
        "metadata": {"name": "example-com", "namespace": "sandbox", "labels": {"app": "web"}},
        "spec": {
            "secretName": "example-com-tls",
            "secretTemplate": {
                "annotations": {"my-secret-annotation-1": "foo", "my-secret-annotation-2": "bar"},
                "labels": {"my-secret-label": "foo"},
            },
            "duration": "2160h0m0s",
            "renewBefore": "360h0m0s",
            "subject": {"organizations": ["example"], "countries": ["NL"], "localities": ["Amsterdam"]},
            "commonName": "example.com",
            "isCA": false,
            "privateKey": {"algorithm": "RSA", "encoding": "PKCS1", "size": 2048, "rotationPolicy": "Always"},
            "usages": ["server auth", "client auth", "digital signature", "key encipherment"],
            "dnsNames": ["example.com", "www.example.com", "api.example.com"],
            "uris": ["spiffe://cluster.local/ns/sandbox/sa/example"],
            "ipAddresses": ["192.168.0.5"],
            "issuerRef": {"name": "ca-issuer", "kind": "Issuer", "group": "cert-manager.io"},
            "keystores": {"pkcs12": {"create": true, "passwordSecretRef": {"name": "p12", "key": "password"}}},
        },
    })
}

/// The CRD's schema as a draft-4 JSON Schema: `nullable` and
/// `x-kubernetes-int-or-string` become type lists; Kubernetes extensions are dropped.
fn json_schema(s: &Value) -> Value {
    match s {
        Value::Object(m) => {
            let mut out = serde_json::Map::new();
            for (k, v) in m {
                if k.starts_with("x-kubernetes-") || k == "nullable" || k == "description" {
                    continue;
                }
                let v = match k.as_str() {
                    "properties" | "patternProperties" => Value::Object(
                        v.as_object()
                            .unwrap()
                            .iter()
                            .map(|(k, v)| (k.clone(), json_schema(v)))
                            .collect(),
                    ),
                    _ => json_schema(v),
                };
                out.insert(k.clone(), v);
            }
            let int_or_string = m.get("x-kubernetes-int-or-string") == Some(&json!(true));
            if int_or_string {
                out.insert("type".into(), json!(["integer", "string"]));
            }
            if m.get("nullable") == Some(&json!(true))
                && let Some(Value::String(t)) = out.get("type").cloned()
            {
                out.insert("type".into(), json!([t, "null"]));
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(json_schema).collect()),
        other => other.clone(),
    }
}

fn load(path: &str) -> (crd_codegen::ir::Crd, Value) {
    let path = crd_tests::shared_dir().join(path);
    let loaded = crd_codegen::load::load(&[&path]);
    assert!(!loaded.has_errors());
    let crd = loaded.crds.into_iter().next().unwrap();
    let raw_schema = crd.doc.value["spec"]["versions"][0]["schema"]["openAPIV3Schema"].clone();
    (crd.ir, raw_schema)
}

fn bench_kind<T: CustomResource>(c: &mut Criterion, name: &str, crd_path: &str, object: Value) {
    let (ir, raw_schema) = load(crd_path);
    let engine = Engine::new(&ir);
    let version = engine.versions().first().unwrap();
    let validator = jsonschema::draft4::options()
        .build(&json_schema(&raw_schema))
        .expect("schema compiles");
    let bytes = serde_json::to_vec(&object).unwrap();
    let ns = object
        .pointer("/metadata/namespace")
        .and_then(Value::as_str)
        .unwrap_or("default")
        .to_string();
    let ns = ns.as_str();
    let admitted = T::admit_value(object.clone(), ns);
    assert!(
        admitted.is_admitted(),
        "{name}: object is valid: {:?} {:?}",
        admitted.errors,
        admitted.bad_request
    );
    assert!(validator.is_valid(&object));

    let mut group = c.benchmark_group(name);
    group.bench_function("serde_json parse", |b| {
        b.iter(|| serde_json::from_slice::<Value>(black_box(&bytes)).unwrap())
    });
    group.bench_function("generated validate", |b| {
        let compiled = crd_runtime::schema::Compiled::<T>::new();
        b.iter(|| {
            let mut res = Res::default();
            crd_runtime::admission::ResourceSchema::validate(&compiled, black_box(&object), None, &mut res);
            res
        })
    });
    let compiled = crd_runtime::schema::Compiled::<T>::new();
    group.bench_function("generated prune+default+validate", |b| {
        b.iter_batched(
            || object.clone(),
            |mut v| {
                let mut pruned = Vec::new();
                crd_runtime::admission::ResourceSchema::prune(&compiled, &mut v, &mut pruned);
                crd_runtime::admission::ResourceSchema::default(&compiled, &mut v);
                let mut res = Res::default();
                crd_runtime::admission::ResourceSchema::validate(&compiled, &v, None, &mut res);
                (v, pruned, res)
            },
            BatchSize::SmallInput,
        )
    });
    group.bench_function("generated admission (full create)", |b| {
        b.iter_batched(|| object.clone(), |v| T::admit_value(v, ns), BatchSize::SmallInput)
    });
    group.bench_function("engine validate", |b| {
        b.iter(|| {
            let mut res = Res::default();
            crd_runtime::admission::ResourceSchema::validate(version, black_box(&object), None, &mut res);
            res
        })
    });
    group.bench_function("engine admission (full create)", |b| {
        b.iter_batched(|| object.clone(), |v| version.create(v, ns), BatchSize::SmallInput)
    });
    group.bench_function("jsonschema is_valid", |b| {
        b.iter(|| validator.is_valid(black_box(&object)))
    });
    group.bench_function("jsonschema iter_errors", |b| {
        b.iter(|| validator.iter_errors(black_box(&object)).count())
    });
    group.finish();
}

fn admission(c: &mut Criterion) {
    bench_kind::<crontab::stable_example_com::v1::CronTab>(
        c,
        "crontab",
        "spec/examples/crontab-crd.yaml",
        crontab_object(),
    );
    bench_kind::<certificates::cert_manager_io::v1::Certificate>(
        c,
        "certificate",
        "crds/cert-manager/cert-manager.io_certificates.yaml",
        certificate_object(),
    );
}

criterion_group!(benches, admission);
criterion_main!(benches);
