//! Generated (or derived) admission against the reference engine on random objects:
//! valid ones, ones mutated to break one constraint, and updates between them must
//! give identical admitted objects, pruned paths, errors and warnings.

use crate::objects::Gen;
use crd_codegen::engine::{Engine, VersionSchema};
use crd_codegen::ir;
use crd_runtime::admission::Admission;
use crd_runtime::admission::ResourceSchema;
use crd_runtime::k8s_openapi::api::autoscaling::v1::Scale;
use crd_runtime::scale::{self, ScaleError};
use crd_runtime::schema::Resource;
use crd_runtime::table::{self, Cell, PrinterColumn};
use rand::RngExt;
use serde_json::Value;
use std::collections::BTreeMap;

/// The fewest valid (and mutated) objects of a label whose shares the strength check
/// judges.
pub const MIN_SAMPLE: u64 = 20;

/// How many times a random object's offending parts are drawn again before it is
/// used as it is.
const REDRAWS: usize = 24;

/// The outcome of comparing: how many admissions ran, and the first disagreements.
#[derive(Default)]
pub struct Comparison {
    pub runs: u64,
    pub disagreements: u64,
    /// Admitted objects whose printer-column row and Scale were compared.
    pub served: u64,
    /// The first 20 disagreements, described.
    pub failures: Vec<String>,
    /// What the comparisons exercised, per label (project).
    pub strength: BTreeMap<String, Strength>,
}

/// How much a differential run exercised: agreement on objects that are all admitted,
/// or all rejected for one reason, would prove little.
#[derive(Clone, Debug, Default)]
pub struct Strength {
    /// Valid objects created, and how many of them the engine admitted.
    pub valid: u64,
    pub valid_admitted: u64,
    /// Mutated objects created, and how many of them the engine rejected.
    pub mutated: u64,
    pub mutated_rejected: u64,
    /// Admissions in which CEL rules ran (spent cost).
    pub rules_ran: u64,
    /// Every error reported, by type (`Invalid value`, `Required value`, ...; `Bad
    /// request` for requests refused before validation).
    pub errors: BTreeMap<&'static str, u64>,
    /// Why the first valid object the engine rejected was rejected (what a weak run
    /// reports, to show what the generator missed).
    pub first_rejection: Option<String>,
}

impl Strength {
    fn share(part: u64, whole: u64) -> f64 {
        if whole == 0 { 0.0 } else { part as f64 / whole as f64 }
    }

    /// The share of valid objects admitted.
    pub fn admitted(&self) -> f64 {
        Self::share(self.valid_admitted, self.valid)
    }

    /// The share of mutated objects rejected.
    pub fn rejected(&self) -> f64 {
        Self::share(self.mutated_rejected, self.mutated)
    }
}

/// A derived kind against the reference engine run on its own `crd()` (its single
/// version): `n` random valid, one-fault and update admissions must agree.
pub fn kind_agrees_with_the_engine<T>(n: u64)
where
    T: crd_runtime::schema::CustomResource + crd_runtime::kube::CustomResourceExt,
{
    let crd = serde_json::to_string(&T::crd()).expect("a CRD is JSON");
    let loaded = crd_codegen::load::load_str(&crd, T::KIND);
    assert!(!loaded.has_errors(), "{}: {:?}", T::KIND, loaded.diagnostics);
    let ir = loaded.irs().remove(0);
    let engine = Engine::new(&ir);
    let mut comparison = Comparison::default();
    comparison.run(T::KIND, &ir, &engine, &ir.versions[0], &Resource::of::<T>(), n);
    comparison.assert_agreed();
}

/// Whether a mutation (`Gen::mutate`'s description, "what at /path") changed
/// `status` or something below it.
fn mutates_status(mutation: &str) -> bool {
    (mutation.rsplit_once(" at ")).is_some_and(|(_, path)| path == "/status" || path.starts_with("/status/"))
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

/// An admitted object's row in `kubectl get` and its Scale (or the error reading it).
type Served = (Result<Vec<Cell>, String>, Option<Result<Scale, ScaleError>>);

/// What the engine's version and the generated kind serve of the objects both
/// admitted (the engine's columns and scale paths come from the CRD, the generated
/// ones are compiled in), `None` unless both admitted.
fn served_views(a: &Admission, engine: &VersionSchema, b: &Admission, compiled: &Resource) -> Option<(Served, Served)> {
    if !a.is_admitted() || !b.is_admitted() {
        return None;
    }
    // A fixed clock: `date` cells are ages.
    let now = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_800_000_000);
    let row = |columns: &[PrinterColumn<'_>], o: &Value| {
        table::row(table::served(columns), o, now).map_err(|e| e.to_string())
    };
    let engine_columns = engine.printer_columns();
    let engine_scale = engine.scale();
    Some((
        (
            row(&engine_columns, &a.object),
            engine_scale.map(|p| scale::get(&p, &a.object)),
        ),
        (
            row(compiled.printer_columns, &b.object),
            compiled.scale.map(|p| scale::get(&p, &b.object)),
        ),
    ))
}

impl Comparison {
    /// Admits `n` random objects of `version` of `crd` four ways (create valid,
    /// create mutated, update valid -> mutated, the same through the status
    /// subresource) with the engine and with `compiled`.
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
            let mut valid = g.resource(&api_version, kind, &version.schema);
            // Redraw what the engine's errors name until it admits the object (or the
            // tries run out): the valid objects then reach rules and defaults.
            for _ in 0..REDRAWS {
                let admission = interpreted.create(valid.clone(), "default");
                let errors = &admission.errors;
                if admission.is_admitted() || admission.bad_request.is_some() || errors.is_empty() {
                    break;
                }
                let field = errors[g.rng().random_range(0..errors.len())].field.clone();
                if !g.redraw_at(&mut valid, &version.schema, &field) {
                    break;
                }
            }
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
            let cases: [(&str, Value, Option<Value>); 4] = [
                ("create", valid.clone(), None),
                ("create mutated", mutated.clone(), None),
                ("update", versioned(mutated.clone()), Some(versioned(valid.clone()))),
                ("update status", versioned(mutated), Some(versioned(valid))),
            ];
            for (what, object, old) in cases {
                let old_text = old.as_ref().map(|o| format!("old: {o}\n")).unwrap_or_default();
                let (a, b) = match old {
                    None => (
                        interpreted.create(object.clone(), "default"),
                        (compiled.admit)(object.clone(), "default"),
                    ),
                    Some(old) if what == "update status" => (
                        interpreted.update_status(object.clone(), old.clone(), "default"),
                        (compiled.admit_status_update)(object.clone(), old, "default"),
                    ),
                    Some(old) => (
                        interpreted.update(object.clone(), old.clone(), "default"),
                        (compiled.admit_update)(object.clone(), old, "default"),
                    ),
                };
                self.runs += 1;
                // The fast check that lets a valid object skip the error walk must
                // pass what the engine admits on create (OpenAPI validation saw that
                // object, and nothing was ratcheted).
                if what.starts_with("create") && a.is_admitted() && !(compiled.is_valid)(&a.object) {
                    self.disagreements += 1;
                    if self.failures.len() < 20 {
                        self.failures.push(format!(
                            "{label} {api_version} {kind} #{i} {what}: the fast check fails the admitted object {}",
                            a.object
                        ));
                    }
                }
                let served = served_views(&a, interpreted, &b, compiled);
                self.served += u64::from(served.is_some());
                let served_disagree = served.as_ref().is_some_and(|(x, y)| x != y);
                self.disagreements += u64::from(a != b || served_disagree);
                if served_disagree && self.failures.len() < 20 {
                    self.failures.push(format!(
                        "{label} {api_version} {kind} #{i} {what}: printer columns or scale differ:\n-- engine: {:?}\n-- generated: {:?}",
                        served.as_ref().map(|s| &s.0),
                        served.as_ref().map(|s| &s.1)
                    ));
                }
                let strength = self.strength.entry(label.to_string()).or_default();
                match what {
                    "create" => {
                        strength.valid += 1;
                        strength.valid_admitted += u64::from(a.is_admitted());
                        if !a.is_admitted() && strength.first_rejection.is_none() {
                            strength.first_rejection = Some(format!("{api_version} {kind}:\n{}", describe(&a)));
                        }
                    }
                    // A create drops `status` when the status subresource is on, and a
                    // mutation there with it: such objects say nothing of how mutated
                    // objects are checked (a kind with only a `status` would otherwise
                    // count half its mutations as admitted).
                    "create mutated" if !(version.subresources.status && mutates_status(&mutation)) => {
                        strength.mutated += 1;
                        strength.mutated_rejected += u64::from(!a.is_admitted());
                    }
                    _ => {}
                }
                strength.rules_ran += u64::from(a.rules_cost > 0);
                for e in &a.errors {
                    *strength.errors.entry(e.error_type.as_str()).or_default() += 1;
                }
                if a.bad_request.is_some() {
                    *strength.errors.entry("Bad request").or_default() += 1;
                }
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

    /// The strength figures, one line per label.
    pub fn strength_table(&self) -> String {
        let mut out = String::from(
            "| project | valid admitted | mutated rejected | rules ran | errors by type |\n|---|---|---|---|---|\n",
        );
        for (label, s) in &self.strength {
            let errors: Vec<String> = s.errors.iter().map(|(t, n)| format!("{t} {n}")).collect();
            out.push_str(&format!(
                "| {label} | {}/{} ({:.0}%) | {}/{} ({:.0}%) | {} | {} |\n",
                s.valid_admitted,
                s.valid,
                100.0 * s.admitted(),
                s.mutated_rejected,
                s.mutated,
                100.0 * s.rejected(),
                s.rules_ran,
                errors.join(", ")
            ));
        }
        out
    }

    /// Panics when a label's run was shallow: fewer than `min_admitted` of its valid
    /// objects admitted, or fewer than `min_rejected` of its mutated objects rejected
    /// (then agreement would mostly be agreement on trivial outcomes). Labels with
    /// fewer than [`MIN_SAMPLE`] objects of either kind are not judged: their shares
    /// say too little.
    pub fn assert_strong(&self, min_admitted: f64, min_rejected: f64) {
        let weak: Vec<String> = self
            .strength
            .iter()
            .filter(|(_, s)| s.valid >= MIN_SAMPLE && s.mutated >= MIN_SAMPLE)
            .filter(|(_, s)| s.admitted() < min_admitted || s.rejected() < min_rejected)
            .map(|(label, s)| {
                format!(
                    "{label}: {:.0}% of valid objects admitted (at least {:.0}% wanted), {:.0}% of mutated ones rejected (at least {:.0}% wanted){}",
                    100.0 * s.admitted(),
                    100.0 * min_admitted,
                    100.0 * s.rejected(),
                    100.0 * min_rejected,
                    match (&s.first_rejection, s.admitted() < min_admitted) {
                        (Some(r), true) => format!("; the first rejected valid object: {r}"),
                        _ => String::new(),
                    }
                )
            })
            .collect();
        assert!(weak.is_empty(), "shallow differential runs:\n{}", weak.join("\n"));
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
