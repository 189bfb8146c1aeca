//! Admission speed, like against like, in one run (`cargo bench -p crd-tests --bench
//! admission`). For each object (the seed CronTab, a cert-manager Certificate, a
//! rule-heavy HTTPRoute, a Prometheus; `crd_tests::bench_objects`):
//!
//! - `valid/…`: a valid object. Our OpenAPI validation (its fast path included) against
//!   `jsonschema`'s `is_valid` and `iter_errors` on the same schema.
//! - `invalid-1/…`, `invalid-N/…`: one fault, many faults (schema faults only, the
//!   same number found by both sides, checked before measuring). Both sides collect
//!   every error: our validation against `iter_errors`.
//! - `create/…`: the whole create request from bytes (parse, prune, default,
//!   validate, rules, metadata) against `serde_json` parsing the same bytes.
//!
//! The reference engine's create is there for scale, not as a competitor.

use crd_codegen::engine::Engine;
use crd_runtime::openapi::Res;
use crd_runtime::schema::CustomResource;
use crd_tests::bench_objects as objects;
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use std::hint::black_box;

mod crontab {
    crd_derive::crd_types!("../../shared/spec/examples/crontab-crd.yaml");
}
mod certificates {
    crd_derive::crd_types!("../../shared/crds/cert-manager/cert-manager.io_certificates.yaml");
}
mod httproutes {
    crd_derive::crd_types!("../../shared/crds/gateway-api/standard/gateway.networking.k8s.io_httproutes.yaml");
}
mod prometheuses {
    crd_derive::crd_types!("../../shared/crds/prometheus-operator/monitoring.coreos.com_prometheuses.yaml");
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

fn load(path: &str, version: &str) -> (crd_codegen::ir::Crd, Value) {
    let path = crd_tests::shared_dir().join(path);
    let loaded = crd_codegen::load::load(&[&path]);
    assert!(!loaded.has_errors());
    let crd = loaded.crds.into_iter().next().unwrap();
    let doc = crd_codegen::source::read_file(&path).unwrap().swap_remove(0);
    let versions = doc.value["spec"]["versions"].as_array().unwrap();
    let v = versions.iter().find(|v| v["name"] == version).unwrap();
    let raw_schema = v["schema"]["openAPIV3Schema"].clone();
    (crd.ir, raw_schema)
}

/// Our OpenAPI validation of `object` (every error collected).
fn validate<T: CustomResource>(compiled: &crd_runtime::schema::Compiled<T>, object: &Value) -> Res<'static> {
    let mut res = Res::default();
    crd_runtime::admission::ResourceSchema::validate(compiled, object, None, &mut res);
    res
}

struct Case {
    name: &'static str,
    crd: &'static str,
    version: &'static str,
    valid: Value,
    invalid: (Value, Value),
}

fn bench_kind<T: CustomResource>(c: &mut Criterion, case: Case) {
    let Case {
        name,
        crd,
        version,
        valid,
        invalid,
    } = case;
    let (ir, raw_schema) = load(crd, version);
    let engine = Engine::new(&ir);
    let engine_version = engine.version(version).unwrap();
    let validator = jsonschema::draft4::options()
        .build(&json_schema(&raw_schema))
        .expect("schema compiles");
    let compiled = crd_runtime::schema::Compiled::<T>::new();
    let bytes = serde_json::to_vec(&valid).unwrap();
    let ns = valid
        .pointer("/metadata/namespace")
        .and_then(Value::as_str)
        .unwrap_or("default")
        .to_string();
    let ns = ns.as_str();

    // Like against like: the valid object is valid to both, and both find the same
    // number of faults in the invalid ones.
    let admitted = T::admit_value(valid.clone(), ns);
    assert!(
        admitted.is_admitted(),
        "{name}: {:?} {:?}",
        admitted.errors,
        admitted.bad_request
    );
    assert!(validator.is_valid(&valid), "{name}: jsonschema finds the object valid");
    let (one, many) = invalid;
    for (what, object, faults) in [("one fault", &one, Some(1)), ("many faults", &many, None)] {
        let ours = validate(&compiled, object).errors.len();
        let theirs = validator.iter_errors(object).count();
        assert_eq!(ours, theirs, "{name}, {what}: same faults found by both sides");
        if let Some(n) = faults {
            assert_eq!(ours, n, "{name}, {what}");
        } else {
            assert!(ours > 2, "{name}, {what}: {ours} faults");
        }
    }
    let n = validate(&compiled, &many).errors.len();

    let mut group = c.benchmark_group(name);
    group.bench_function("valid/generated validate", |b| {
        b.iter(|| validate(&compiled, black_box(&valid)))
    });
    group.bench_function("valid/jsonschema is_valid", |b| {
        b.iter(|| validator.is_valid(black_box(&valid)))
    });
    group.bench_function("valid/jsonschema iter_errors", |b| {
        b.iter(|| validator.iter_errors(black_box(&valid)).count())
    });
    group.bench_function("invalid-1/generated validate", |b| {
        b.iter(|| validate(&compiled, black_box(&one)))
    });
    group.bench_function("invalid-1/jsonschema iter_errors", |b| {
        b.iter(|| validator.iter_errors(black_box(&one)).count())
    });
    group.bench_function(format!("invalid-{n}/generated validate"), |b| {
        b.iter(|| validate(&compiled, black_box(&many)))
    });
    group.bench_function(format!("invalid-{n}/jsonschema iter_errors"), |b| {
        b.iter(|| validator.iter_errors(black_box(&many)).count())
    });
    group.bench_function("create/serde_json parse", |b| {
        b.iter(|| serde_json::from_slice::<Value>(black_box(&bytes)).unwrap())
    });
    group.bench_function("create/parse + generated admission", |b| {
        b.iter(|| T::admit_value(serde_json::from_slice(black_box(&bytes)).unwrap(), ns))
    });
    group.bench_function("create/parse + engine admission", |b| {
        b.iter(|| engine_version.create(serde_json::from_slice(black_box(&bytes)).unwrap(), ns))
    });
    group.finish();
}

fn admission(c: &mut Criterion) {
    bench_kind::<crontab::stable_example_com::v1::CronTab>(
        c,
        Case {
            name: "crontab",
            crd: "spec/examples/crontab-crd.yaml",
            version: "v1",
            valid: objects::crontab(),
            invalid: objects::crontab_invalid(),
        },
    );
    bench_kind::<certificates::cert_manager_io::v1::Certificate>(
        c,
        Case {
            name: "certificate",
            crd: "crds/cert-manager/cert-manager.io_certificates.yaml",
            version: "v1",
            valid: objects::certificate(),
            invalid: objects::certificate_invalid(),
        },
    );
    bench_kind::<httproutes::gateway_networking_k8s_io::v1::HTTPRoute>(
        c,
        Case {
            name: "httproute",
            crd: "crds/gateway-api/standard/gateway.networking.k8s.io_httproutes.yaml",
            version: "v1",
            valid: objects::httproute(),
            invalid: objects::httproute_invalid(),
        },
    );
    bench_kind::<prometheuses::monitoring_coreos_com::v1::Prometheus>(
        c,
        Case {
            name: "prometheus",
            crd: "crds/prometheus-operator/monitoring.coreos.com_prometheuses.yaml",
            version: "v1",
            valid: objects::prometheus(),
            invalid: objects::prometheus_invalid(),
        },
    );
}

criterion_group!(benches, admission);
criterion_main!(benches);
