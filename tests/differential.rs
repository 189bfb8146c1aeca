//! Generated code against the reference engine: for corpus CRDs (a sample by default,
//! see `build.rs`), random objects (valid ones and ones mutated to break a
//! constraint) through create and update must give identical admitted objects,
//! pruned paths and error lists.
//!
//! `CRD_DIFF_OBJECTS` sets the number of objects per CRD version (default 30; the
//! full run uses 1000), `CRD_DIFF_PROJECTS` the projects (a comma-separated list, or
//! `all`). The full run, one project per build: `scripts/differential-all.sh`.

include!(concat!(env!("OUT_DIR"), "/corpus.rs"));

use crd_codegen::engine::Engine;
use crd_runtime::conversion::convert_value;
use crd_runtime::schema::{CustomResource, Resource};
use crd_tests::differential::{Comparison, describe};
use serde_json::Value;

fn objects_per_version() -> u64 {
    std::env::var("CRD_DIFF_OBJECTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30)
}

#[test]
fn generated_code_agrees_with_the_engine() {
    let n = objects_per_version();
    let mut comparison = Comparison::default();
    for_each_crd(|project, crd, engine, versions| {
        for (v, compiled) in versions {
            comparison.run(project, crd, engine, v, compiled, n);
        }
    });
    eprintln!(
        "{} admissions compared ({} admitted objects' printer columns and scale)",
        comparison.runs, comparison.served
    );
    eprintln!("{}", comparison.strength_table());
    comparison.assert_agreed();
    comparison.assert_strong(MIN_ADMITTED, MIN_REJECTED);
}

/// The least share of generated valid objects the engine must admit, and of mutated
/// objects it must reject, per project, for agreement to mean something. The
/// generator knows the OpenAPI keywords but not the CEL rules, so some valid objects
/// break a rule: gateway-api's least (41-48% admitted, mostly `Must have port for
/// Service reference` on route backends), hence 40%.
const MIN_ADMITTED: f64 = 0.4;
const MIN_REJECTED: f64 = 0.5;

/// `None`-strategy conversions, generated (`Resource::convert`) against the engine's
/// schemas, for every CRD with several versions: random objects, admitted at one
/// version, converted to every other and back. Both sides must give the same object
/// and dropped paths; what converts without dropping anything must come back
/// unchanged, and between identical schemas nothing may be dropped.
#[test]
fn conversions_agree_with_the_engine() {
    let n = objects_per_version();
    let (mut conversions, mut lossy, mut failures) = (0u64, 0u64, Vec::new());
    for_each_crd(|project, crd, engine, versions| {
        if crd.conversion != crd_codegen::ir::Conversion::None {
            return;
        }
        for (from, _) in versions {
            let from_schema = engine.version(&from.name).unwrap();
            for i in 0..n {
                let api_version = format!("{}/{}", crd.group, from.name);
                let mut g = crd_tests::objects::Gen::new(crd_tests::objects::Gen::seed_for(&crd.name, i));
                let admitted = from_schema.create(g.resource(&api_version, &crd.names.kind, &from.schema), "default");
                if !admitted.is_admitted() {
                    continue;
                }
                let object = admitted.object;
                for (to, compiled) in versions.iter().filter(|(to, _)| to.name != from.name) {
                    let to_schema = engine.version(&to.name).unwrap();
                    let label = format!("{project} {} {} -> {} #{i}", crd.names.kind, from.name, to.name);
                    let interpreted = convert_value(to_schema, object.clone());
                    let generated = (compiled.convert)(object.clone());
                    conversions += 1;
                    if interpreted != generated {
                        failures.push(format!("{label}: engine {interpreted:?}\ngenerated {generated:?}"));
                        continue;
                    }
                    let Ok(there) = generated else { continue };
                    let back = convert_value(from_schema, there.object.clone()).expect("converts back");
                    if from.schema == to.schema && !(there.dropped.is_empty() && back.dropped.is_empty()) {
                        failures.push(format!("{label}: identical schemas dropped {:?}", there.dropped));
                    }
                    if there.dropped.is_empty() && back.dropped.is_empty() {
                        if back.object != object {
                            failures.push(format!("{label}: round trip changed {object}\ninto {}", back.object));
                        }
                    } else {
                        lossy += 1;
                    }
                }
            }
        }
    });
    eprintln!("{conversions} conversions compared, {lossy} reported dropped fields");
    assert!(
        failures.is_empty(),
        "{} failures, the first:\n{}",
        failures.len(),
        failures.iter().take(10).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// The generated types read and write objects as admission leaves them: random
/// objects admitted by the generated code, read from their JSON text into the kind's
/// generated type and written back, come back the same (numbers compared by value: a
/// `type: number` field is an `f64`, which writes `1` as `1.0`).
#[test]
fn typed_objects_keep_admitted_objects() {
    let n = objects_per_version();
    let (mut compared, mut failures) = (0u64, Vec::new());
    for_each_crd(|project, crd, _, versions| {
        let kinds = PROJECTS
            .iter()
            .position(|(p, _)| *p == project)
            .map(|i| (PROJECTS[i].1, TYPED[i]));
        let (resources, typed) = kinds.expect("a compiled project");
        for (v, compiled) in versions {
            let at = resources.iter().position(|r| std::ptr::eq(r, *compiled));
            let round_trip = typed[at.expect("a listed kind")];
            let api_version = format!("{}/{}", crd.group, v.name);
            for i in 0..n {
                let mut g = crd_tests::objects::Gen::new(crd_tests::objects::Gen::seed_for(&crd.name, i));
                let object = g.resource(&api_version, &crd.names.kind, &v.schema);
                let admitted = (compiled.admit)(object, "default");
                if !admitted.is_admitted() {
                    continue;
                }
                compared += 1;
                match round_trip(&admitted.object) {
                    Ok(back) if same_json(&back, &admitted.object) => {}
                    Ok(back) => failures.push(format!(
                        "{project} {api_version} {} #{i}: {}\ncame back as {back}",
                        crd.names.kind, admitted.object
                    )),
                    Err(e) => failures.push(format!(
                        "{project} {api_version} {} #{i}: {e}: {}",
                        crd.names.kind, admitted.object
                    )),
                }
            }
        }
    });
    eprintln!("{compared} admitted objects read into their types and written back");
    assert!(
        failures.is_empty(),
        "{} failures, the first:\n{}",
        failures.len(),
        failures.iter().take(5).cloned().collect::<Vec<_>>().join("\n")
    );
}

fn typed_round_trip<T: serde::de::DeserializeOwned + serde::Serialize>(object: &Value) -> Result<Value, String> {
    let typed: T = serde_json::from_str(&object.to_string()).map_err(|e| e.to_string())?;
    serde_json::to_value(&typed).map_err(|e| e.to_string())
}

/// Equal JSON, numbers compared by value.
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, x)| y.get(k).is_some_and(|y| same_json(x, y)))
        }
        _ => a == b,
    }
}

/// Calls `f` with every CRD of the compiled corpus projects, its engine and each of
/// its versions with the generated kind for it.
fn for_each_crd(mut f: impl FnMut(&str, &crd_codegen::ir::Crd, &Engine, &[(&crd_codegen::ir::Version, &Resource)])) {
    let corpus = crd_tests::shared_dir().join("crds");
    if !corpus.is_dir() {
        eprintln!("{} not found; skipping", corpus.display());
        return;
    }
    for (project, resources) in PROJECTS {
        // Files directly in the directory (subdirectories are modules of their own),
        // in the generator's order.
        let mut files: Vec<_> = std::fs::read_dir(corpus.join(project))
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "yaml" || e == "yml"))
            .collect();
        files.sort();
        let loaded = crd_codegen::load::load(&files);
        assert!(!loaded.has_errors(), "{project} does not load");
        // A kind defined by several CRDs (openshift-api's feature-set variants) has a
        // generated type per CRD, in file order (`MachineConfigNode`,
        // `MachineConfigNode2`): the n-th CRD of a kind goes with the n-th type.
        let mut seen: std::collections::HashMap<(String, String), usize> = Default::default();
        for crd in &loaded.crds {
            let engine = Engine::new(&crd.ir);
            let versions: Vec<_> = crd
                .ir
                .versions
                .iter()
                .map(|v| {
                    let api_version = format!("{}/{}", crd.ir.group, v.name);
                    let kind = &crd.ir.names.kind;
                    let nth = seen.entry((api_version.clone(), kind.clone())).or_default();
                    let compiled = resources
                        .iter()
                        .filter(|r| r.api_version == api_version && r.kind == *kind)
                        .nth(*nth);
                    *nth += 1;
                    (
                        v,
                        compiled.unwrap_or_else(|| panic!("{project}: no generated type for {api_version} {kind}")),
                    )
                })
                .collect();
            f(project, &crd.ir, &engine, &versions);
        }
    }
}

mod levels {
    crd_derive::crd_types!("fixtures/optional-old-self-crd.yaml");
}
mod gathers {
    crd_derive::crd_types!("fixtures/unreadable-presence-crd.yaml");
}
mod routes {
    crd_derive::crd_types!("fixtures/junctor-ratchet-crd.yaml");
}
mod filters {
    crd_derive::crd_types!("fixtures/oneof-required-crd.yaml");
}

/// [`admit_both`] of a create of a `T` named `x` in `default` with `spec`.
fn create_both<T: CustomResource>(fixture: &str, spec: Value) -> Vec<String> {
    let object = serde_json::json!({
        "apiVersion": T::API_VERSION, "kind": T::KIND,
        "metadata": {"name": "x", "namespace": "default"},
        "spec": spec,
    });
    admit_both::<T>(fixture, object, None)
}

/// Admits `object` (as an update of `old` when given) with the reference engine of
/// the hand-written CRD `fixtures/<fixture>` and with its generated type `T`: both must
/// give the same admission. Returns its errors.
fn admit_both<T: CustomResource>(fixture: &str, object: Value, old: Option<Value>) -> Vec<String> {
    let engine = crd_tests::fixture_engine(fixture);
    let version = object["apiVersion"]
        .as_str()
        .and_then(|v| v.rsplit('/').next())
        .unwrap();
    let version = engine
        .version(version)
        .expect("the fixture serves the object's version");
    let (interpreted, compiled) = match old {
        None => (
            version.create(object.clone(), "default"),
            T::admit_value(object, "default"),
        ),
        Some(old) => (
            version.update(object.clone(), old.clone(), "default"),
            T::admit_update_value(object, old, "default"),
        ),
    };
    assert_eq!(
        interpreted,
        compiled,
        "{}\n{}",
        describe(&interpreted),
        describe(&compiled)
    );
    compiled.errors.iter().map(|e| e.to_string()).collect()
}

/// A message expression of an `optionalOldSelf` rule sees `oldSelf` as the API server
/// evaluates it (the plain old value, though type-checked as an optional): reading
/// it as an optional fails, so the default message is reported, by both sides.
#[test]
fn optional_old_self_message_expressions_see_the_plain_old_value() {
    let object = |level: &str| {
        serde_json::json!({
            "apiVersion": "test.example.com/v1", "kind": "Level",
            "metadata": {"name": "l", "namespace": "default", "resourceVersion": "1"},
            "spec": {"level": level},
        })
    };
    assert_eq!(
        admit_both::<levels::test_example_com::v1::Level>(
            "optional-old-self-crd.yaml",
            object("low"),
            Some(object("high"))
        ),
        [
            "spec.level: Invalid value: \"low\": failed rule: !oldSelf.hasValue() || oldSelf.value() != 'high' || self != 'low'"
        ]
    );
}

/// Junctor branches with nothing but `required` (Istio's "at most one of"): the
/// generated validation checks their `required` as the engine does.
#[test]
fn junctor_branches_with_only_required_are_checked() {
    let errors = |spec: Value| create_both::<filters::test_example_com::v1::Filter>("oneof-required-crd.yaml", spec);
    assert!(errors(serde_json::json!({})).is_empty());
    assert!(errors(serde_json::json!({"lua": "x"})).is_empty());
    assert!(errors(serde_json::json!({"wasm": "x"})).is_empty());
    assert_eq!(
        errors(serde_json::json!({"lua": "x", "wasm": "y"})),
        [
            "<nil>: Invalid value: \"\": \"spec\" must validate one and only one schema (oneOf). Found 2 valid alternatives"
        ]
    );
}

/// `has()` of a field whose value does not parse in its format is the parse error (the
/// API server's map lookup converts the value), in the generated code as in the engine.
#[test]
fn presence_tests_of_unreadable_values_are_errors() {
    let object = |note: &str| {
        serde_json::json!({
            "apiVersion": "test.example.com/v1", "kind": "Gather",
            "metadata": {"name": "g", "namespace": "default", "resourceVersion": "1"},
            "spec": {"startTime": "ex", "note": note},
        })
    };
    let errors = admit_both::<gathers::test_example_com::v1::Gather>(
        "unreadable-presence-crd.yaml",
        object("b"),
        Some(object("a")),
    );
    // The parse error's own text is ours (see crd_runtime::cel::unstructured), not
    // yet Go's `time.Parse` wording for strfmt's last layout.
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0]
            .starts_with("spec: Invalid value: \"object\": Invalid date-time formatted string ex: parsing time \"ex\"")
            && errors[0].ends_with(" evaluating rule: cannot remove startTime"),
        "{errors:?}"
    );
}

/// Junctor branches are validated without ratcheting (kube-openapi validates
/// sub-schemas plainly): an update that leaves `note` as it was still fails the `not`
/// branch's `maxLength`, so `not` holds; one that keeps a short note fails `not`.
#[test]
fn junctor_branches_do_not_ratchet() {
    let object = |note: &str, lua: &str| {
        serde_json::json!({
            "apiVersion": "test.example.com/v1", "kind": "Filter",
            "metadata": {"name": "f", "namespace": "default", "resourceVersion": "1"},
            "spec": {"note": note, "lua": lua},
        })
    };
    let update = |new: Value, old: Value| {
        admit_both::<filters::test_example_com::v1::Filter>("oneof-required-crd.yaml", new, Some(old))
    };
    assert!(update(object("long", "b"), object("long", "a")).is_empty());
    assert_eq!(
        update(object("ab", "b"), object("ab", "a")),
        ["<nil>: Invalid value: \"\": \"spec\" must not validate the schema (not)"]
    );
}

/// openshift-api's Route junctors on an unchanged update, with the full validation
/// running (a ratcheted error below). The full differential run found the generated
/// code rejecting such updates while it ratcheted inside junctor branches; these small
/// objects agree with and without that fix, the corpus run is what shows it.
#[test]
fn route_junctors_on_an_unchanged_update() {
    let route = serde_json::json!({
        "apiVersion": "test.example.com/v1", "kind": "Route",
        "metadata": {"name": "r", "namespace": "default", "resourceVersion": "1"},
        "spec": {"count": 5, "host": "example.com", "path": "/api", "wildcardPolicy": "None"},
    });
    assert!(
        admit_both::<routes::test_example_com::v1::Route>("junctor-ratchet-crd.yaml", route.clone(), Some(route))
            .is_empty()
    );
}

mod backends {
    crd_derive::crd_types!("fixtures/object-lists-crd.yaml");
}

/// Lists of objects, which generated rules read in place (size, constant indexes,
/// comprehensions) or convert to CEL values (equality, `+`, `optionalOldSelf`):
/// the same results, errors and costs as the engine, in bounds and out, with items
/// that are not objects and a list that is not an array.
#[test]
fn lists_of_objects_read_in_place() {
    let object = |spec: Value| {
        serde_json::json!({
            "apiVersion": "test.example.com/v1", "kind": "Backend",
            "metadata": {"name": "b", "namespace": "default", "resourceVersion": "1"},
            "spec": spec,
        })
    };
    let errors = |spec: Value, old: Option<Value>| {
        admit_both::<backends::test_example_com::v1::Backend>("object-lists-crd.yaml", object(spec), old.map(object))
    };
    let routes = |n: usize| -> Value {
        (0..n)
            .map(|i| {
                let name = ["a", "c", "d", "e", "f"][i];
                serde_json::json!({"name": name, "port": i + 1})
            })
            .collect()
    };
    // Three routes: every rule holds.
    assert_eq!(
        errors(
            serde_json::json!({"routes": routes(3), "backends": [{"name": "c", "weight": 1}]}),
            None
        ),
        Vec::<String>::new()
    );
    // Two routes: `self[2]` is out of bounds; the second is named `b`.
    let mut two = routes(2);
    two[1]["name"] = "b".into();
    let two = errors(serde_json::json!({"routes": two}), None);
    assert_eq!(
        two,
        [
            "spec: Invalid value: failed rule: !has(self.routes) || size(self.routes) < 2 || self.routes[1].name != 'b'",
            "spec.routes: Invalid value: \"array\": index out of bounds: 2 evaluating rule: self[2].port != 7",
        ]
    );
    // Five routes, two of them on high ports: size and filter fail, and the
    // two-variable comprehension sees index 3.
    let mut five = routes(5);
    five[3]["port"] = 200.into();
    five[4]["port"] = 300.into();
    assert_eq!(
        errors(serde_json::json!({"routes": five}), None),
        [
            "spec: Invalid value: at most one high port",
            "spec.routes: Invalid value: failed rule: self.size() < 4",
            "spec.routes: Invalid value: failed rule: self.all(i, r, i < 3 && (!has(r.port) || r.port >= 0))",
        ]
    );
    // Removing a route on update: the transition rules (one with optionalOldSelf).
    let removed = errors(
        serde_json::json!({"routes": routes(3)}),
        Some(serde_json::json!({"routes": routes(4)})),
    );
    assert!(
        removed.contains(&"spec: Invalid value: routes cannot be removed".to_string()),
        "{removed:?}"
    );
    assert_eq!(removed.len(), 2, "{removed:?}");
    // Items that are not objects and a list that is not an array: schema errors, and
    // rules agree with the engine on what they make of the data.
    errors(serde_json::json!({"routes": [1, {"name": "a"}]}), None);
    errors(serde_json::json!({"routes": "a"}), None);
    errors(serde_json::json!({"routes": [null]}), None);
    // An update that leaves bad data as it was: ratcheting lets rules see it.
    let bad = serde_json::json!({"routes": [1, {"name": "a", "port": 1}]});
    errors(bad.clone(), Some(bad));
}

mod pairs {
    crd_derive::crd_types!("fixtures/shared-rules-crd.yaml");
}

/// Rules that generated code emits once and runs at several nodes (the same rule in
/// two structs): reported at every node that fails them, with each node's message, as
/// the engine reports them.
#[test]
fn shared_rules_report_at_every_node() {
    let errors = |spec: Value| create_both::<pairs::test_example_com::v1::Pair>("shared-rules-crd.yaml", spec);
    let good =
        serde_json::json!({"primary": {"name": "a", "port": 1}, "backup": {"name": "b", "port": 2, "weight": 1}});
    assert_eq!(errors(good), Vec::<String>::new());
    let bad = serde_json::json!({
        "primary": {"name": "primary", "port": 0},
        "backup": {"name": "backup", "port": -1, "weight": 1},
    });
    assert_eq!(
        errors(bad),
        [
            "spec.backup.name: Invalid value: \"backup\": name backup is too long",
            "spec.backup.port: Invalid value: -1: must not be zero or less",
            "spec.primary.name: Invalid value: \"primary\": name primary is too long",
            "spec.primary.port: Invalid value: 0: must be positive",
        ]
    );
}

mod ratios {
    crd_derive::crd_types!("fixtures/map-filter-crd.yaml");
}

/// `map` and `filter`, built in a vector by generated code: the same lists, errors
/// and costs as the engine. An error in the predicate or the element makes the
/// result that error (cel-go's `division by zero`), whether it comes before or
/// after an item was kept; `map` with a predicate skips the items it would fail on.
#[test]
fn map_and_filter_agree_with_the_engine() {
    let errors = |items: Value, tags: Value| {
        let spec = serde_json::json!({"items": items, "tags": tags});
        create_both::<ratios::test_example_com::v1::Ratio>("map-filter-crd.yaml", spec)
    };
    let item = |name: &str, n: i64, d: i64| serde_json::json!({"name": name, "num": n, "den": d});
    let filter_rule = "self.items.filter(x, x.num / x.den > 1).size() <= 2";
    let map_rule = "self.items.map(x, x.num / x.den).all(q, q < 100)";
    // Every rule holds.
    let good = serde_json::json!([item("a", 4, 2), item("b", 9, 3)]);
    assert_eq!(errors(good, serde_json::json!(["ab", "b"])), Vec::<String>::new());
    // Dividing by zero in the first item, then keeping the second.
    for bad in [
        serde_json::json!([item("a", 4, 0), item("b", 9, 3)]),
        serde_json::json!([item("a", 4, 2), item("b", 9, 0)]),
    ] {
        assert_eq!(
            errors(bad, serde_json::json!(["ab"])),
            [
                format!("spec: Invalid value: \"object\": division by zero evaluating rule: {filter_rule}"),
                format!("spec: Invalid value: \"object\": division by zero evaluating rule: {map_rule}"),
            ]
        );
    }
    // Three items pass the filter; two tags start with `a`; one item has no name;
    // `transformList` adds the index.
    let items = serde_json::json!([item("a", 4, 1), {"num": 6, "den": 2}, item("c", 48, 1)]);
    assert_eq!(
        errors(items, serde_json::json!(["x", "ab", "ac"])),
        [
            format!("spec: Invalid value: failed rule: {filter_rule}"),
            "spec: Invalid value: failed rule: self.tags.filter(t, t.startsWith('a')).map(t, t + '!') == ['ab!']"
                .to_string(),
            "spec: Invalid value: every item is named".to_string(),
            "spec: Invalid value: failed rule: self.items.transformList(i, x, x.num + i).all(n, n < 50)".to_string(),
        ]
    );
}

mod slots {
    crd_derive::crd_types!("fixtures/nullable-items-crd.yaml");
}

/// Items of a list (and values of a map) that are `null` where the schema allows it:
/// CEL sees `null`, not an object, and selecting a field of it is cel-go's `no such key` (its
/// `refQualify` on a value that is neither map nor list); `has()` of it is `false`.
#[test]
fn null_items_are_not_objects() {
    let errors = |slots: Value| {
        let spec = serde_json::json!({"slots": slots, "extras": {"a": null, "b": {"name": "b"}}});
        create_both::<slots::test_example_com::v1::Slot>("nullable-items-crd.yaml", spec)
    };
    assert_eq!(errors(serde_json::json!([{"name": "a"}])), Vec::<String>::new());
    assert_eq!(
        errors(serde_json::json!([null, {"name": "a"}])),
        Vec::<String>::new(),
        "exists() goes past the error of the null item"
    );
    assert_eq!(
        errors(serde_json::json!([null])),
        [
            "spec: Invalid value: \"object\": no such key: name evaluating rule: self.slots.exists(s, s.name == 'a')",
            "spec: Invalid value: failed rule: self.slots.filter(s, s != null).size() >= 1",
        ]
    );
}

mod budgets {
    crd_derive::crd_types!("fixtures/int-or-string-rules-crd.yaml");
}

/// A string function called on an int-or-string that holds an int fails at run time
/// with cel-go's text, by both sides: `endsWith`, `startsWith` and `contains` run
/// without cel-go's argument guard (`DisableTypeGuards`), so the error is the bare
/// `no such overload`; `lowerAscii` is guarded, and its guard names the types.
#[test]
fn string_functions_on_an_int_or_string_holding_an_int() {
    let errors =
        |spec: Value| create_both::<budgets::test_example_com::v1::Budget>("int-or-string-rules-crd.yaml", spec);
    assert_eq!(
        errors(serde_json::json!({"percent": "5%", "prefix": "10", "lower": "a"})),
        Vec::<String>::new()
    );
    let signature = "call arguments did not match a supported operator, function or macro signature for rule";
    assert_eq!(
        errors(serde_json::json!({"percent": 5, "prefix": 10, "lower": 1})),
        [
            format!(
                "spec.lower: Invalid value: \"\": 'no such overload: lowerAscii(int)': {signature}: self.lowerAscii() == self"
            ),
            format!("spec.percent: Invalid value: \"\": 'no such overload': {signature}: self.endsWith('%')"),
            format!(
                "spec.prefix: Invalid value: \"\": 'no such overload': {signature}: self.startsWith('1') || self.contains('0')"
            ),
        ]
    );
}

/// The strength check fails a run whose valid objects are mostly rejected.
#[test]
#[should_panic(expected = "shallow differential runs:\nweak: 10% of valid objects admitted")]
fn a_shallow_run_fails() {
    let mut comparison = Comparison::default();
    comparison.strength.insert(
        "weak".into(),
        crd_tests::differential::Strength {
            valid: 100,
            valid_admitted: 10,
            mutated: 100,
            mutated_rejected: 90,
            ..Default::default()
        },
    );
    comparison.assert_strong(MIN_ADMITTED, MIN_REJECTED);
}

/// A label with too few objects for its shares to mean much is not judged.
#[test]
fn a_small_sample_is_not_judged() {
    let mut comparison = Comparison::default();
    comparison.strength.insert(
        "small".into(),
        crd_tests::differential::Strength {
            valid: 10,
            valid_admitted: 1,
            mutated: 10,
            mutated_rejected: 9,
            ..Default::default()
        },
    );
    comparison.assert_strong(MIN_ADMITTED, MIN_REJECTED);
}

/// The object generator makes strings that match the corpus's patterns (a "valid"
/// object that is not is one the strength figures count as rejected).
#[test]
fn generated_strings_match_their_patterns() {
    use crd_codegen::ir::{Schema, Type};
    let mut g = crd_tests::objects::Gen::new(7);
    let mut failures = Vec::new();
    for (pattern, max_length) in [
        (r"^\S+:\d*$", None),
        (r"^(\*\.)?([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?\.){2,}$", Some(254)),
        (r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", Some(63)),
        (r"^([0-9]+(\.[0-9]+)?(s|m|h))+$", None),
    ] {
        let schema = Schema {
            type_: Some(Type::String),
            pattern: Some(pattern.to_string()),
            max_length,
            ..Default::default()
        };
        let re = crd_runtime::regex::compile(pattern).unwrap();
        let misses: Vec<Value> = (0..20)
            .map(|_| g.value(&schema, 1))
            .filter(|v| !v.as_str().is_some_and(|s| re.is_match(s)))
            .collect();
        if !misses.is_empty() {
            failures.push(format!("{pattern}: {misses:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
