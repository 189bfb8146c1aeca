//! CEL rule speed, in one run: the rules compiled to Rust by our code generator
//! against the `cel` crate's interpreter (rules parsed once, `self` bound once per
//! node ahead of time) and `kube-cel`'s validator (schema compiled once), on the
//! same objects and rules:
//!
//! - the seed page's two replicas rules (`self.minReplicas <= self.replicas`, ...),
//! - a list macro rule, `self.all(x, x.matches(...))` over 10 hosts,
//! - a rule-heavy Gateway API HTTPRoute (corpus CRD, standard channel; four rules,
//!   matches, filters, mirrors, weighted backends) with its rules.
//!
//! `cargo bench -p crd-tests --bench cel --features cel-bench`
//!
//! "compiled rules" is the whole `validate_rules` of the generated type: walking the
//! JSON object, every rule of every node, cost accounting and the budget, as the API
//! server does. The interpreters do no cost accounting. For the replicas rules,
//! "compiled rules (pre-bound)" is the like-for-like of the `cel` crate's figure: the
//! two generated rule functions (with their cost accounting) on `self` read ahead of
//! time.

use crd_runtime::schema::CustomResource;
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use std::hint::black_box;

mod crontab {
    crd_derive::crd_types!("../../shared/spec/examples/cel-crd.yaml");
}
mod hostlist {
    crd_derive::crd_types!("fixtures/hostlist-crd.yaml");
}
mod httproute {
    crd_derive::crd_types!("../../shared/crds/gateway-api/standard/gateway.networking.k8s.io_httproutes.yaml");
}

fn replicas_object() -> Value {
    json!({
        "apiVersion": "stable.example.com/v1",
        "kind": "CronTab",
        "metadata": {"name": "my-new-cron-object"},
        "spec": {"minReplicas": 1, "replicas": 3, "maxReplicas": 10},
    })
}

fn hosts_object() -> Value {
    let hosts: Vec<String> = (0..10).map(|i| format!("host-{i}-example")).collect();
    json!({
        "apiVersion": "bench.example.com/v1",
        "kind": "HostList",
        "metadata": {"name": "hosts"},
        "spec": {"hosts": hosts},
    })
}

/// The rule-heavy HTTPRoute of the admission benchmark.
fn httproute_object() -> Value {
    crd_tests::bench_objects::httproute()
}

/// The `openAPIV3Schema` of a CRD's served version `version`.
fn raw_schema(path: &str, version: &str) -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let loaded = crd_codegen::load::load(&[&path]);
    assert!(!loaded.has_errors(), "{} loads", path.display());
    let doc = crd_codegen::source::read_file(&path).unwrap().swap_remove(0);
    let versions = doc.value["spec"]["versions"].as_array().unwrap();
    let v = versions.iter().find(|v| v["name"] == version).unwrap();
    v["schema"]["openAPIV3Schema"].clone()
}

/// Every create-time rule of `object` with `self` bound to its node: the `cel`
/// crate's programs, each with a context of its own, ready to run. Rules the crate
/// cannot parse or run are left out (and counted by the caller).
fn prebound<'a>(schema: &Value, object: &Value, out: &mut Vec<(cel::Program, cel::Context<'a, 'static>)>) {
    if let Some(rules) = schema["x-kubernetes-validations"].as_array() {
        for rule in rules {
            let src = rule["rule"].as_str().unwrap();
            if src.contains("oldSelf") {
                continue;
            }
            let Ok(program) = cel::Program::compile(src) else {
                continue;
            };
            let mut ctx = cel::Context::default();
            ctx.add_variable("self", object).unwrap();
            out.push((program, ctx));
        }
    }
    match object {
        Value::Object(m) => {
            for (k, v) in m {
                let child = match schema["properties"].get(k) {
                    Some(s) => s,
                    None => &schema["additionalProperties"],
                };
                if child.is_object() {
                    prebound(child, v, out);
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                prebound(&schema["items"], item, out);
            }
        }
        _ => {}
    }
}

/// The rules of one node as generated functions on `self` read ahead of time, ready
/// to run: `true` when all hold.
type PreBound = for<'a> fn(&'a Value) -> Box<dyn Fn() -> bool + 'a>;

fn replicas_prebound(object: &Value) -> Box<dyn Fn() -> bool + '_> {
    use crontab::stable_example_com::v1::rules;
    assert_eq!(rules::RULE_1.rule, "self.minReplicas <= self.replicas");
    assert_eq!(rules::RULE_2.rule, "self.replicas <= self.maxReplicas");
    let this = Ok(rules::CronTabSpec::parse(object["spec"].as_object().unwrap()));
    Box::new(move || {
        let this = black_box(&this);
        rules::rule_1(this, None).result == Ok(true) && rules::rule_2(this, None).result == Ok(true)
    })
}

fn bench_rules<T: CustomResource>(
    c: &mut Criterion,
    name: &str,
    crd_path: &str,
    object: Value,
    compiled_prebound: Option<PreBound>,
) {
    let api_version = object["apiVersion"].as_str().unwrap();
    let schema = raw_schema(crd_path, api_version.rsplit('/').next().unwrap());
    // All three see the admitted object (defaults applied), as rules do in the API
    // server.
    let ns = object
        .pointer("/metadata/namespace")
        .and_then(Value::as_str)
        .unwrap_or("default")
        .to_string();
    let admitted = T::admit_value(object, &ns);
    assert!(
        admitted.is_admitted(),
        "{name}: {:?} {:?}",
        admitted.errors,
        admitted.bad_request
    );
    let object = admitted.object;
    assert!(admitted.rules_cost > 0, "{name}: rules ran");

    let mut programs = Vec::new();
    prebound(&schema, &object, &mut programs);
    for (program, ctx) in &programs {
        assert_eq!(program.execute(ctx), Ok(cel::Value::Bool(true)), "{name}: cel agrees");
    }
    let kube_schema = kube_cel::compile_schema(&schema);
    assert!(!kube_schema.has_errors(), "{name}: kube-cel compiles the rules");
    let validator = kube_cel::Validator::new();
    assert!(validator.validate_compiled(&kube_schema, &object, None).is_ok());
    eprintln!("{name}: the cel crate runs {} rule evaluations", programs.len());

    let mut group = c.benchmark_group(format!("cel/{name}"));
    group.bench_function("compiled rules", |b| {
        b.iter(|| T::validate_rules(black_box(&object), None))
    });
    if let Some(prebound) = compiled_prebound {
        let run = prebound(&object);
        assert!(run(), "{name}: the pre-bound rules hold");
        group.bench_function("compiled rules (pre-bound)", |b| b.iter(&run));
    }
    group.bench_function("cel crate (pre-bound)", |b| {
        b.iter(|| {
            programs
                .iter()
                .all(|(p, ctx)| p.execute(black_box(ctx)) == Ok(cel::Value::Bool(true)))
        })
    });
    group.bench_function("kube-cel validate_compiled", |b| {
        b.iter(|| validator.validate_compiled(&kube_schema, black_box(&object), None))
    });
    group.finish();
}

fn rules(c: &mut Criterion) {
    bench_rules::<crontab::stable_example_com::v1::CronTab>(
        c,
        "replicas",
        "../../shared/spec/examples/cel-crd.yaml",
        replicas_object(),
        Some(replicas_prebound),
    );
    bench_rules::<hostlist::bench_example_com::v1::HostList>(
        c,
        "list macro",
        "fixtures/hostlist-crd.yaml",
        hosts_object(),
        None,
    );
    bench_rules::<httproute::gateway_networking_k8s_io::v1::HTTPRoute>(
        c,
        "httproute",
        "../../shared/crds/gateway-api/standard/gateway.networking.k8s.io_httproutes.yaml",
        httproute_object(),
        None,
    );
}

criterion_group!(benches, rules);
criterion_main!(benches);
