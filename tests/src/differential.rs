//! Generated (or derived) admission against the reference engine on random objects:
//! valid ones, ones mutated to break one constraint, and updates between them must
//! give identical admitted objects, pruned paths, errors and warnings.

use crate::objects::Gen;
use crd_codegen::engine::Engine;
use crd_codegen::ir;
use crd_runtime::admission::Admission;
use crd_runtime::schema::Resource;
use serde_json::Value;

/// The outcome of comparing: how many admissions ran, and the first disagreements.
#[derive(Default)]
pub struct Comparison {
    pub runs: u64,
    pub disagreements: u64,
    /// The first 20 disagreements, described.
    pub failures: Vec<String>,
}

pub fn describe(a: &Admission) -> String {
    let mut s = format!(
        "object: {}\npruned: {:?}\nrules cost: {}\n",
        a.object, a.pruned, a.rules_cost
    );
    if let Some(b) = &a.bad_request {
        s.push_str(&format!("bad request: {b}\n"));
    }
    for e in &a.errors {
        s.push_str(&format!("  {e}\n"));
    }
    for w in &a.warnings {
        s.push_str(&format!("  warning: {w}\n"));
    }
    s
}

impl Comparison {
    /// Admits `n` random objects of `version` of `crd` three ways (create valid,
    /// create mutated, update valid -> mutated) with the engine and with `compiled`.
    pub fn run(
        &mut self,
        label: &str,
        crd: &ir::Crd,
        engine: &Engine,
        version: &ir::Version,
        compiled: &Resource,
        n: u64,
    ) {
        let interpreted = engine.version(&version.name).expect("engine has every version");
        let api_version = format!("{}/{}", crd.group, version.name);
        let kind = &crd.names.kind;
        for i in 0..n {
            let mut g = Gen::new(Gen::seed_for(&crd.name, i));
            let valid = g.resource(&api_version, kind, &version.schema);
            let mut mutated = valid.clone();
            let mutation = g.mutate(&mut mutated, &version.schema);
            // An update names the resource version it replaces (the store refuses one
            // that does not, before validating it).
            let versioned = |mut o: Value| {
                if let Some(m) = o.get_mut("metadata").and_then(Value::as_object_mut) {
                    m.insert("resourceVersion".into(), "1".into());
                }
                o
            };
            let cases: [(&str, Value, Option<Value>); 3] = [
                ("create", valid.clone(), None),
                ("create mutated", mutated.clone(), None),
                ("update", versioned(mutated), Some(versioned(valid))),
            ];
            for (what, object, old) in cases {
                let old_text = old.as_ref().map(|o| format!("old: {o}\n")).unwrap_or_default();
                let (a, b) = match old {
                    None => (
                        interpreted.create(object.clone(), "default"),
                        (compiled.admit)(object.clone(), "default"),
                    ),
                    Some(old) => (
                        interpreted.update(object.clone(), old.clone(), "default"),
                        (compiled.admit_update)(object.clone(), old, "default"),
                    ),
                };
                self.runs += 1;
                self.disagreements += u64::from(a != b);
                if a != b && self.failures.len() < 20 {
                    self.failures.push(format!(
                        "{label} {api_version} {kind} #{i} {what} ({mutation}):\ninput: {object}\n{old_text}-- engine:\n{}-- generated:\n{}",
                        describe(&a),
                        describe(&b)
                    ));
                }
            }
        }
    }

    /// Panics with the disagreements, if any.
    pub fn assert_agreed(&self) {
        assert!(
            self.failures.is_empty(),
            "{} of {} admissions disagree; the first failures:\n{}",
            self.disagreements,
            self.runs,
            self.failures.join("\n")
        );
    }
}
