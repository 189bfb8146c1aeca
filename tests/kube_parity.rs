//! The same Rust written for kube-derive, derived by kube-derive and by ours: the CRDs
//! must be equal (as JSON values: key order aside). Each case is stamped twice by
//! `both!`, once with kube's `CustomResource` and `KubeSchema` in scope, once with
//! ours; nested types deriving schemars' `JsonSchema` are shared by both.

use kube::CustomResourceExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// `$items` twice: `theirs` with kube-derive's derives, `ours` with crd-derive's.
macro_rules! both {
    ($case:ident { $($item:item)* }) => {
        mod $case {
            #![allow(dead_code, unused_imports, clippy::all)]
            use super::*;
            pub mod theirs {
                use super::*;
                use kube::{CustomResource, KubeSchema};
                $($item)*
            }
            pub mod ours {
                use super::*;
                use crd_derive::{CustomResource, KubeSchema};
                $($item)*
            }
        }
    };
}

fn same(theirs: impl Serialize, ours: impl Serialize) {
    let (theirs, ours) = (
        serde_json::to_value(theirs).unwrap(),
        serde_json::to_value(ours).unwrap(),
    );
    if theirs != ours {
        panic!(
            "the CRDs differ\nkube-derive's:\n{}\nours:\n{}",
            serde_json::to_string_pretty(&theirs).unwrap(),
            serde_json::to_string_pretty(&ours).unwrap()
        );
    }
}

fn default_mode() -> String {
    "fast".into()
}
fn default_note() -> Option<String> {
    Some("none".into())
}
fn zero() -> i32 {
    0
}
fn is_zero(n: &i32) -> bool {
    *n == 0
}

both!(scalars {
    /// Settings of a widget.
    ///
    /// A second paragraph, and
    ///   an indented line.
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug, JsonSchema)]
    #[kube(group = "parity.example.com", version = "v1", kind = "Widget", namespaced)]
    #[kube(shortname = "wd", shortname = "wdg", category = "all", plural = "widgetz", singular = "wdgt")]
    #[serde(rename_all = "camelCase")]
    pub struct WidgetSpec {
        /// The name,
        /// on two lines.
        name: String,
        small: i8,
        medium: i16,
        normal: i32,
        large: i64,
        word: isize,
        byte: u8,
        short: u16,
        unsigned: u32,
        long: u64,
        size: usize,
        ratio: f32,
        precise: f64,
        flag: bool,
        maybe: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        skipped: Option<i32>,
        #[serde(default)]
        count: u32,
        #[serde(default = "default_mode")]
        mode: String,
        #[serde(default = "default_note", skip_serializing_if = "Option::is_none")]
        note: Option<String>,
        #[serde(default = "zero", skip_serializing_if = "is_zero")]
        zero_skipped: i32,
        tags: Vec<String>,
        set: HashSet<String>,
        ordered: BTreeSet<i64>,
        labels: BTreeMap<String, String>,
        weights: HashMap<String, Option<f64>>,
        maybe_items: Vec<Option<bool>>,
        boxed: Box<String>,
        #[serde(rename = "renamed-field")]
        original: i32,
        #[serde(skip)]
        internal: u8,
        nested_list: Vec<Vec<u16>>,
    }
});

#[test]
fn scalars_lists_maps_defaults_and_docs() {
    same(
        <scalars::theirs::Widget as kube::CustomResourceExt>::crd(),
        scalars::ours::Widget::crd(),
    );
}

/// A nested type deriving schemars' `JsonSchema`.
#[derive(Serialize, Deserialize, Clone, Debug, JsonSchema, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct Limits {
    /// Most copies.
    max_copies: u32,
    min_copies: Option<u32>,
}

/// How fast.
#[derive(Serialize, Deserialize, Clone, Debug, JsonSchema)]
pub enum Speed {
    /// Slowly.
    Slow,
    Medium,
    /// Quickly.
    Fast,
    Ludicrous,
}

/// What to run.
#[derive(Serialize, Deserialize, Clone, Debug, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum Source {
    /// An image.
    Image { reference: String, pull: Option<bool> },
    /// A script.
    Script(String),
    /// Nothing.
    Empty {},
}

/// Either shape.
#[derive(Serialize, Deserialize, Clone, Debug, JsonSchema)]
#[serde(untagged)]
pub enum Target {
    ByName {
        name: String,
    },
    ByLabels {
        labels: BTreeMap<String, String>,
        namespace: Option<String>,
    },
    Nothing {},
}

#[derive(Serialize, Deserialize, Clone, Debug, JsonSchema)]
pub enum Plain {
    Up,
    Down,
}

#[derive(Serialize, Deserialize, Clone, Debug, JsonSchema)]
pub struct Common {
    owner: String,
    team: Option<String>,
}

both!(nested {
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug, JsonSchema)]
    #[kube(group = "parity.example.com", version = "v1", kind = "Job")]
    #[serde(rename_all = "camelCase")]
    pub struct JobSpec {
        /// Overrides the type's description.
        limits: Limits,
        defaulted_limits: Option<Limits>,
        speed: Speed,
        /// The speed, maybe.
        maybe_speed: Option<Speed>,
        /// Up or down, maybe.
        maybe_plain: Option<Plain>,
        plains: Vec<Option<Plain>>,
        /// A documented list.
        limits_list: Option<Vec<Limits>>,
        source: Source,
        target: Option<Target>,
        #[serde(flatten)]
        common: Common,
        replicas: k8s_openapi::apimachinery::pkg::util::intstr::IntOrString,
        maybe_replicas: Option<k8s_openapi::apimachinery::pkg::util::intstr::IntOrString>,
        memory: Option<k8s_openapi::apimachinery::pkg::api::resource::Quantity>,
        started: k8s_openapi::apimachinery::pkg::apis::meta::v1::Time,
        conditions: Vec<k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition>,
        at: jiff::Timestamp,
        pair: (i32, String),
        fixed: [u8; 4],
        letter: char,
    }
});

#[test]
fn schemars_types_enums_flattening_and_foreign_types() {
    same(
        <nested::theirs::Job as kube::CustomResourceExt>::crd(),
        nested::ours::Job::crd(),
    );
}

both!(resource {
    /// Gadget's own description.
    #[derive(CustomResource, KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[kube(
        group = "parity.example.com",
        version = "v2",
        kind = "Gadget",
        root = "GadgetObject",
        namespaced,
        status = "GadgetStatus",
        doc = "A gadget, as a resource",
        derive = "PartialEq",
        attr = "allow(clippy::large_enum_variant)",
        printcolumn(name = "Size", type_ = "integer", json_path = ".spec.size", description = "how big"),
        printcolumn = r#"{"name": "Age", "type": "date", "jsonPath": ".metadata.creationTimestamp", "priority": 1}"#,
        scale = r#"{"specReplicasPath": ".spec.size", "statusReplicasPath": ".status.size"}"#,
        selectable = ".spec.color",
        annotation("parity.example.com/a", "1"),
        label("parity.example.com/l", "2"),
        deprecated = "use v3",
        served = true,
        storage = false,
        validation = "self.metadata.name != 'forbidden'",
        validation = Rule::new("self.spec.size < 100").message("too big").reason(Reason::FieldValueForbidden),
    )]
    #[x_kube(validation = "self.size >= 0")]
    #[serde(rename_all = "camelCase")]
    pub struct GadgetSpec {
        size: i32,
        color: String,
        #[x_kube(validation = Rule::new("self == oldSelf").message("is immutable"))]
        serial: String,
        #[x_kube(merge_strategy = ListMerge::Set)]
        tags: Vec<String>,
        #[x_kube(merge_strategy = ListMerge::Map(vec!["name".into()]))]
        parts: Vec<Part>,
        #[x_kube(merge_strategy = MapMerge::Atomic)]
        settings: BTreeMap<String, String>,
        #[x_kube(validation = ("self.startsWith('x')", "starts with x"))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        code: Option<String>,
    }

    /// A part.
    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[x_kube(validation = Rule::new("self.name != ''").field_path(".name"))]
    pub struct Part {
        name: String,
        #[x_kube(validation = Rule::new("self > 0").message(Message::Expression("'count must be positive'".into())))]
        count: Option<u32>,
    }

    #[derive(Serialize, Deserialize, Clone, Debug, PartialEq, JsonSchema)]
    pub struct GadgetStatus {
        size: usize,
        ready: Option<bool>,
    }
});

#[test]
fn crd_level_attributes_status_columns_scale_and_rules() {
    same(
        <resource::theirs::GadgetObject as kube::CustomResourceExt>::crd(),
        resource::ours::GadgetObject::crd(),
    );
}

#[test]
fn new_sets_the_annotations_and_labels_as_kube_derive_does() {
    use resource::*;
    let spec = |m: &str| -> Value {
        serde_json::json!({"size": 1, "color": m, "serial": "s", "tags": [], "parts": [], "settings": {}})
    };
    let theirs = theirs::GadgetObject::new("g", serde_json::from_value(spec("red")).unwrap());
    let ours = ours::GadgetObject::new("g", serde_json::from_value(spec("red")).unwrap());
    same(theirs, ours);
}

both!(kube_enums {
    #[derive(CustomResource, KubeSchema, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "parity.example.com", version = "v1", kind = "Lamp")]
    #[serde(rename_all = "camelCase")]
    pub struct LampSpec {
        shade: Shade,
        /// The shade at night, maybe.
        night_shade: Option<Shade>,
        undocumented_shade: Option<Shade>,
        shades: Vec<Option<Shade>>,
        bulb: Option<Bulb>,
        #[serde(flatten)]
        switch: Switch,
    }

    /// A switch, flattened: its rules go to the spec, which has none of its own.
    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    #[x_kube(validation = "self.on || !self.locked")]
    pub struct Switch {
        on: bool,
        #[x_kube(validation = Rule::new("self == oldSelf").message("locked for good"))]
        locked: bool,
    }

    /// How bright (kube-derive's `KubeSchema` takes structs only).
    #[derive(JsonSchema, Serialize, Deserialize, Clone, Debug)]
    pub enum Shade {
        /// Dim.
        Dim,
        Bright,
    }

    /// A bulb.
    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    #[x_kube(validation = "self.watts > 0")]
    pub struct Bulb {
        watts: u16,
        shade: Option<Shade>,
    }
});

/// A documented unit enum, plain and in an `Option` (documented or not), in the spec
/// and in a struct deriving `KubeSchema` (ours compiled, kube's through schemars); a
/// flattened `KubeSchema` struct's rules.
#[test]
fn kube_schema_enums_in_options() {
    same(
        <kube_enums::theirs::Lamp as kube::CustomResourceExt>::crd(),
        kube_enums::ours::Lamp::crd(),
    );
}

both!(flat_rules {
    #[derive(CustomResource, KubeSchema, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "parity.example.com", version = "v1", kind = "Door")]
    #[x_kube(validation = "self.width > 0")]
    pub struct DoorSpec {
        width: i32,
        #[serde(flatten)]
        lock: Lock,
    }

    /// A lock.
    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    #[x_kube(validation = "self.code != ''")]
    pub struct Lock {
        code: String,
    }
});

/// A flattened type's rules beside the holder's own.
#[test]
fn flattened_rules_beside_the_holders() {
    same(
        <flat_rules::theirs::Door as kube::CustomResourceExt>::crd(),
        flat_rules::ours::Door::crd(),
    );
}

both!(enum_spec {
    /// One of two things.
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug, JsonSchema)]
    #[kube(group = "parity.example.com", version = "v1", kind = "Choice")]
    #[serde(rename_all = "camelCase")]
    pub enum ChoiceSpec {
        /// The first.
        First { count: i32 },
        Second(String),
        Neither {},
    }
});

#[test]
fn an_enum_as_the_spec() {
    same(
        <enum_spec::theirs::Choice as kube::CustomResourceExt>::crd(),
        enum_spec::ours::Choice::crd(),
    );
    let theirs = serde_json::to_value(enum_spec::theirs::Choice::new(
        "c",
        enum_spec::theirs::ChoiceSpec::Neither {},
    ));
    let ours = serde_json::to_value(enum_spec::ours::Choice::new(
        "c",
        enum_spec::ours::ChoiceSpec::Neither {},
    ));
    assert_eq!(theirs.unwrap(), ours.unwrap());
}

both!(no_spec {
    #[derive(CustomResource, KubeSchema, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "parity.example.com", version = "v1", kind = "Bucket", no_spec, status = "BucketStatus")]
    #[kube(validation = "has(self.region)")]
    pub struct BucketFields {
        #[x_kube(validation = "self.size() > 0")]
        region: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        class: Option<String>,
    }

    #[derive(Serialize, Deserialize, Clone, Debug, JsonSchema)]
    pub struct BucketStatus {
        used: u64,
    }
});

#[test]
fn fields_at_the_root() {
    same(
        <no_spec::theirs::Bucket as kube::CustomResourceExt>::crd(),
        no_spec::ours::Bucket::crd(),
    );
}

fn upper(schema: &mut schemars::Schema) {
    schema.insert("pattern".into(), "^[A-Z]+$".into());
}

fn name_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({"type": "string", "maxLength": 63, "x-kubernetes-validations": []})
}

both!(schemars_attributes {
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug, JsonSchema)]
    #[kube(group = "parity.example.com", version = "v1", kind = "Form")]
    pub struct FormSpec {
        #[schemars(length(min = 1, max = 10))]
        short: String,
        #[schemars(range(min = 1, max = 9))]
        digit: u8,
        #[schemars(regex(pattern = r"^[a-z]+$"))]
        word: String,
        #[schemars(email)]
        email: String,
        #[schemars(url)]
        url: Option<String>,
        /// The doc.
        #[schemars(title = "A title", description = "Not the doc", example = 3)]
        documented: i32,
        #[schemars(rename = "alias")]
        renamed: bool,
        #[schemars(skip)]
        hidden: u8,
        #[schemars(schema_with = "name_schema")]
        name: String,
        #[schemars(with = "String")]
        as_string: u64,
        #[validate(length(min = 2))]
        validated: Vec<String>,
        #[garde(length(min = 3))]
        guarded: String,
        #[serde(default)]
        #[schemars(length(max = 5))]
        defaulted: String,
        #[schemars(transform = upper)]
        shouting: String,
        #[schemars(extend("maxLength" = 12))]
        extended: Option<String>,
        #[schemars(inner(length(min = 1)))]
        names: Vec<String>,
        // schemars asks `with`'s type, not the field's, whether it is an `Option`, and
        // takes a `schema_with` field for required: these two are, the next two not.
        #[schemars(schema_with = "name_schema")]
        optional_by_schema_with: Option<String>,
        #[schemars(with = "String")]
        optional_with_string: Option<u8>,
        #[schemars(with = "Option<String>")]
        option_with_option: u8,
        #[serde(default)]
        #[schemars(schema_with = "name_schema")]
        defaulted_schema_with: Option<String>,
        // `required` (schemars', validator's or garde's) requires an `Option` too,
        // unless serde has a default for it; in a `KubeSchema` type as well.
        #[schemars(required)]
        required_option: Option<String>,
        #[validate(required)]
        validated_option: Option<String>,
        #[garde(required)]
        guarded_option: Option<u8>,
        #[serde(default)]
        #[schemars(required)]
        defaulted_required: Option<String>,
        nested: Gateway,
    }

    #[derive(Serialize, Deserialize, Clone, Debug, KubeSchema)]
    pub struct Gateway {
        #[schemars(length(min = 1), required)]
        name: Option<String>,
        port: Option<u16>,
    }
});

#[test]
fn schemars_validator_and_garde_attributes() {
    same(
        <schemars_attributes::theirs::Form as kube::CustomResourceExt>::crd(),
        schemars_attributes::ours::Form::crd(),
    );
}

/// Types without `JsonSchema`: with the schema disabled, neither the spec's fields nor
/// the status need one.
#[derive(Serialize, Deserialize, Clone, Debug, Default)]
pub struct Opaque {
    pub anything: String,
}

both!(disabled {
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "parity.example.com", version = "v1", kind = "Plain", schema = "disabled")]
    pub struct PlainSpec {
        x: i32,
    }

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "parity.example.com", version = "v1", kind = "Loose", namespaced,
           status = "Opaque", schema = "disabled")]
    pub struct LooseSpec {
        inner: Opaque,
        list: Vec<Opaque>,
    }
});

#[test]
fn no_schema() {
    same(
        <disabled::theirs::Plain as kube::CustomResourceExt>::crd(),
        disabled::ours::Plain::crd(),
    );
    same(
        <disabled::theirs::Loose as kube::CustomResourceExt>::crd(),
        disabled::ours::Loose::crd(),
    );
}
