//! The intermediate representation every back end works from.
//!
//! A [`Crd`] is a checked CustomResourceDefinition in v1 terms, and a [`Schema`] a
//! structural schema node with every keyword that code generation, the reference
//! engine and the CRD writer need. The YAML front end lowers the CRD model into it
//! ([`crate::lower`]); the derive front end lowers annotated Rust structs into the
//! same types, so both directions share one back end.

use indexmap::IndexMap;
use serde_json::Value;

#[derive(Clone, Debug, PartialEq)]
pub struct Crd {
    /// `plural.group`.
    pub name: String,
    pub group: String,
    pub names: Names,
    pub scope: Scope,
    pub versions: Vec<Version>,
    /// Every version the CRD lists, in its order, also those a [`crate::select::Selection`]
    /// leaves out of `versions`: what version priority, the storage version and the
    /// default deprecation warnings are computed from.
    pub all_versions: Vec<VersionSummary>,
    pub conversion: Conversion,
    /// `metadata.annotations` and `metadata.labels` of the CRD object itself.
    pub annotations: std::collections::BTreeMap<String, String>,
    pub labels: std::collections::BTreeMap<String, String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Names {
    pub plural: String,
    pub singular: String,
    pub kind: String,
    pub list_kind: String,
    pub short_names: Vec<String>,
    pub categories: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    Namespaced,
    Cluster,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Version {
    pub name: String,
    pub served: bool,
    pub storage: bool,
    pub deprecated: bool,
    pub deprecation_warning: Option<String>,
    pub schema: Schema,
    pub subresources: Subresources,
    pub printer_columns: Vec<PrinterColumn>,
    /// JSON paths of `selectableFields`.
    pub selectable_fields: Vec<String>,
}

/// A version's name and flags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionSummary {
    pub name: String,
    pub served: bool,
    pub storage: bool,
    pub deprecated: bool,
}

impl VersionSummary {
    pub fn of(versions: &[Version]) -> Vec<VersionSummary> {
        versions
            .iter()
            .map(|v| VersionSummary {
                name: v.name.clone(),
                served: v.served,
                storage: v.storage,
                deprecated: v.deprecated,
            })
            .collect()
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Subresources {
    pub status: bool,
    pub scale: Option<Scale>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scale {
    pub spec_replicas_path: String,
    pub status_replicas_path: String,
    pub label_selector_path: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct PrinterColumn {
    pub name: String,
    pub type_: String,
    pub format: String,
    pub description: String,
    pub priority: i32,
    pub json_path: String,
}

impl PrinterColumn {
    /// The column as the runtime's table printer takes it.
    pub fn as_runtime(&self) -> crd_runtime::table::PrinterColumn<'_> {
        crd_runtime::table::PrinterColumn {
            name: &self.name,
            type_: &self.type_,
            format: &self.format,
            description: &self.description,
            priority: self.priority,
            json_path: &self.json_path,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Conversion {
    None,
    Webhook {
        review_versions: Vec<String>,
        /// The `clientConfig` as written (url or service, caBundle).
        client_config: Value,
    },
}

/// The JSON type of a schema node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Object,
    Array,
    String,
    Integer,
    Number,
    Boolean,
}

impl Type {
    pub fn parse(s: &str) -> Option<Type> {
        Some(match s {
            "object" => Type::Object,
            "array" => Type::Array,
            "string" => Type::String,
            "integer" => Type::Integer,
            "number" => Type::Number,
            "boolean" => Type::Boolean,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Type::Object => "object",
            Type::Array => "array",
            Type::String => "string",
            Type::Integer => "integer",
            Type::Number => "number",
            Type::Boolean => "boolean",
        }
    }
}

/// A value keyword that checks values of some types only. kube-openapi's validators
/// pick a value's checks by the value's kind, so on a node of another `type` the API
/// server accepts the keyword and never applies it (a `pattern` on an array). Such a
/// keyword is almost always a mistake: `crdgen check` warns about it, and the derive
/// writes it only when asked to in `#[crd(ignored(...))]`. (`uniqueItems` is not
/// here: the API server refuses it on any type.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKeyword {
    Minimum,
    Maximum,
    ExclusiveMinimum,
    ExclusiveMaximum,
    MultipleOf,
    MinLength,
    MaxLength,
    Pattern,
    MinItems,
    MaxItems,
    MinProperties,
    MaxProperties,
}

impl ValueKeyword {
    /// In the order the derive writes them.
    pub const ALL: [ValueKeyword; 12] = [
        ValueKeyword::Pattern,
        ValueKeyword::Minimum,
        ValueKeyword::ExclusiveMinimum,
        ValueKeyword::Maximum,
        ValueKeyword::ExclusiveMaximum,
        ValueKeyword::MultipleOf,
        ValueKeyword::MinLength,
        ValueKeyword::MaxLength,
        ValueKeyword::MinItems,
        ValueKeyword::MaxItems,
        ValueKeyword::MinProperties,
        ValueKeyword::MaxProperties,
    ];

    /// Its name in a CRD.
    pub fn crd_name(self) -> &'static str {
        match self {
            ValueKeyword::Minimum => "minimum",
            ValueKeyword::Maximum => "maximum",
            ValueKeyword::ExclusiveMinimum => "exclusiveMinimum",
            ValueKeyword::ExclusiveMaximum => "exclusiveMaximum",
            ValueKeyword::MultipleOf => "multipleOf",
            ValueKeyword::MinLength => "minLength",
            ValueKeyword::MaxLength => "maxLength",
            ValueKeyword::Pattern => "pattern",
            ValueKeyword::MinItems => "minItems",
            ValueKeyword::MaxItems => "maxItems",
            ValueKeyword::MinProperties => "minProperties",
            ValueKeyword::MaxProperties => "maxProperties",
        }
    }

    /// Its name in `#[crd(...)]`.
    pub fn attr_name(self) -> &'static str {
        match self {
            ValueKeyword::Minimum => "minimum",
            ValueKeyword::Maximum => "maximum",
            ValueKeyword::ExclusiveMinimum => "exclusive_minimum",
            ValueKeyword::ExclusiveMaximum => "exclusive_maximum",
            ValueKeyword::MultipleOf => "multiple_of",
            ValueKeyword::MinLength => "min_length",
            ValueKeyword::MaxLength => "max_length",
            ValueKeyword::Pattern => "pattern",
            ValueKeyword::MinItems => "min_items",
            ValueKeyword::MaxItems => "max_items",
            ValueKeyword::MinProperties => "min_properties",
            ValueKeyword::MaxProperties => "max_properties",
        }
    }

    /// Whether it checks values of type `t`.
    pub fn applies_to(self, t: Type) -> bool {
        match self {
            ValueKeyword::Minimum
            | ValueKeyword::Maximum
            | ValueKeyword::ExclusiveMinimum
            | ValueKeyword::ExclusiveMaximum
            | ValueKeyword::MultipleOf => matches!(t, Type::Integer | Type::Number),
            ValueKeyword::MinLength | ValueKeyword::MaxLength | ValueKeyword::Pattern => t == Type::String,
            ValueKeyword::MinItems | ValueKeyword::MaxItems => t == Type::Array,
            ValueKeyword::MinProperties | ValueKeyword::MaxProperties => t == Type::Object,
        }
    }

    /// The types it checks, for messages.
    pub fn types(self) -> &'static str {
        match self {
            ValueKeyword::Minimum
            | ValueKeyword::Maximum
            | ValueKeyword::ExclusiveMinimum
            | ValueKeyword::ExclusiveMaximum
            | ValueKeyword::MultipleOf => "integers and numbers",
            ValueKeyword::MinLength | ValueKeyword::MaxLength | ValueKeyword::Pattern => "strings",
            ValueKeyword::MinItems | ValueKeyword::MaxItems => "arrays",
            ValueKeyword::MinProperties | ValueKeyword::MaxProperties => "objects and maps",
        }
    }

    /// Whether `s` has it.
    pub fn is_set(self, s: &Schema) -> bool {
        match self {
            ValueKeyword::Minimum => s.minimum.is_some(),
            ValueKeyword::Maximum => s.maximum.is_some(),
            ValueKeyword::ExclusiveMinimum => s.exclusive_minimum,
            ValueKeyword::ExclusiveMaximum => s.exclusive_maximum,
            ValueKeyword::MultipleOf => s.multiple_of.is_some(),
            ValueKeyword::MinLength => s.min_length.is_some(),
            ValueKeyword::MaxLength => s.max_length.is_some(),
            ValueKeyword::Pattern => s.pattern.is_some(),
            ValueKeyword::MinItems => s.min_items.is_some(),
            ValueKeyword::MaxItems => s.max_items.is_some(),
            ValueKeyword::MinProperties => s.min_properties.is_some(),
            ValueKeyword::MaxProperties => s.max_properties.is_some(),
        }
    }

    /// Moves it (if set) from `from` to `to`.
    pub fn move_to(self, from: &mut Schema, to: &mut Schema) {
        match self {
            ValueKeyword::Minimum => to.minimum = from.minimum.take(),
            ValueKeyword::Maximum => to.maximum = from.maximum.take(),
            ValueKeyword::ExclusiveMinimum => to.exclusive_minimum = std::mem::take(&mut from.exclusive_minimum),
            ValueKeyword::ExclusiveMaximum => to.exclusive_maximum = std::mem::take(&mut from.exclusive_maximum),
            ValueKeyword::MultipleOf => to.multiple_of = from.multiple_of.take(),
            ValueKeyword::MinLength => to.min_length = from.min_length.take(),
            ValueKeyword::MaxLength => to.max_length = from.max_length.take(),
            ValueKeyword::Pattern => to.pattern = from.pattern.take(),
            ValueKeyword::MinItems => to.min_items = from.min_items.take(),
            ValueKeyword::MaxItems => to.max_items = from.max_items.take(),
            ValueKeyword::MinProperties => to.min_properties = from.min_properties.take(),
            ValueKeyword::MaxProperties => to.max_properties = from.max_properties.take(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ListType {
    Atomic,
    Set,
    Map,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MapType {
    Atomic,
    Granular,
}

impl ListType {
    /// `x-kubernetes-list-type`'s value.
    pub fn parse(s: &str) -> Option<ListType> {
        Some(match s {
            "atomic" => ListType::Atomic,
            "set" => ListType::Set,
            "map" => ListType::Map,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ListType::Atomic => "atomic",
            ListType::Set => "set",
            ListType::Map => "map",
        }
    }
}

impl MapType {
    /// `x-kubernetes-map-type`'s value.
    pub fn parse(s: &str) -> Option<MapType> {
        Some(match s {
            "atomic" => MapType::Atomic,
            "granular" => MapType::Granular,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            MapType::Atomic => "atomic",
            MapType::Granular => "granular",
        }
    }
}

/// `additionalProperties`.
#[derive(Clone, Debug, PartialEq)]
pub enum AdditionalProperties {
    /// `true` or `false`.
    Bool(bool),
    Schema(Box<Schema>),
}

/// One `x-kubernetes-validations` rule.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rule {
    pub rule: String,
    pub message: Option<String>,
    pub message_expression: Option<String>,
    /// `FieldValueInvalid` (default), `FieldValueForbidden`, `FieldValueRequired` or
    /// `FieldValueDuplicate`.
    pub reason: Option<String>,
    pub field_path: Option<String>,
    pub optional_old_self: bool,
}

/// A structural schema node.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Schema {
    pub type_: Option<Type>,
    pub description: Option<String>,
    pub title: Option<String>,
    pub default: Option<Value>,
    pub nullable: bool,
    pub format: Option<String>,
    pub enum_: Vec<Value>,
    pub example: Option<Value>,
    pub external_docs: Option<Value>,

    pub pattern: Option<String>,
    pub maximum: Option<f64>,
    pub exclusive_maximum: bool,
    pub minimum: Option<f64>,
    pub exclusive_minimum: bool,
    pub multiple_of: Option<f64>,
    pub max_length: Option<i64>,
    pub min_length: Option<i64>,
    pub max_items: Option<i64>,
    pub min_items: Option<i64>,
    pub unique_items: bool,
    pub max_properties: Option<i64>,
    pub min_properties: Option<i64>,
    pub required: Vec<String>,

    pub items: Option<Box<Schema>>,
    pub properties: IndexMap<String, Schema>,
    pub additional_properties: Option<AdditionalProperties>,

    pub all_of: Vec<Schema>,
    pub any_of: Vec<Schema>,
    pub one_of: Vec<Schema>,
    pub not: Option<Box<Schema>>,

    pub preserve_unknown_fields: bool,
    pub embedded_resource: bool,
    pub int_or_string: bool,
    pub list_type: Option<ListType>,
    pub list_map_keys: Vec<String>,
    pub map_type: Option<MapType>,
    pub validations: Vec<Rule>,
    /// Derive direction only: the node is the schema of the `n`th foreign Rust type
    /// of the deriving item, defined by that type's own impls (`CrdSchema`,
    /// `ObjectSchema`). Only the field's own keywords (`description`, `default`,
    /// `nullable`, rules) are known here; back ends call the type's impls for the rest.
    pub rust_type: Option<usize>,
}

impl Schema {
    /// A copy of this node's own keywords, without child schemas (`items`,
    /// `properties`, `additionalProperties`, junctors) and without `description`.
    pub fn own_keywords(&self) -> Schema {
        Schema {
            type_: self.type_,
            description: None,
            title: self.title.clone(),
            default: self.default.clone(),
            nullable: self.nullable,
            format: self.format.clone(),
            enum_: self.enum_.clone(),
            example: self.example.clone(),
            external_docs: self.external_docs.clone(),
            pattern: self.pattern.clone(),
            maximum: self.maximum,
            exclusive_maximum: self.exclusive_maximum,
            minimum: self.minimum,
            exclusive_minimum: self.exclusive_minimum,
            multiple_of: self.multiple_of,
            max_length: self.max_length,
            min_length: self.min_length,
            max_items: self.max_items,
            min_items: self.min_items,
            unique_items: self.unique_items,
            max_properties: self.max_properties,
            min_properties: self.min_properties,
            required: self.required.clone(),
            items: None,
            properties: IndexMap::new(),
            additional_properties: None,
            all_of: Vec::new(),
            any_of: Vec::new(),
            one_of: Vec::new(),
            not: None,
            preserve_unknown_fields: self.preserve_unknown_fields,
            embedded_resource: self.embedded_resource,
            int_or_string: self.int_or_string,
            list_type: self.list_type,
            list_map_keys: self.list_map_keys.clone(),
            map_type: self.map_type,
            validations: self.validations.clone(),
            rust_type: self.rust_type,
        }
    }

    /// For a derived type's node ([`Schema::rust_type`]), what stands in for its
    /// unknown schema where a whole schema is needed (compiling CEL rules, the
    /// compile-time CRD checks): int-or-string, which CEL types as `dyn`, so a rule can
    /// reach into the type's fields; rustc and the test the derive emits check them.
    /// The field's own `description`, `nullable` and rules are kept.
    pub fn dyn_stand_in(&self) -> Schema {
        let of_type = |t| Schema {
            type_: Some(t),
            ..Default::default()
        };
        Schema {
            int_or_string: true,
            any_of: vec![of_type(Type::Integer), of_type(Type::String)],
            description: self.description.clone(),
            nullable: self.nullable,
            validations: self.validations.clone(),
            ..Default::default()
        }
    }

    /// The schema of `additionalProperties` values, if given as a schema.
    pub fn additional_properties_schema(&self) -> Option<&Schema> {
        match &self.additional_properties {
            Some(AdditionalProperties::Schema(s)) => Some(s),
            _ => None,
        }
    }
}

impl Crd {
    pub fn version(&self, name: &str) -> Option<&Version> {
        self.versions.iter().find(|v| v.name == name)
    }

    pub fn storage_version(&self) -> Option<&Version> {
        self.versions.iter().find(|v| v.storage)
    }

    /// The warning the API server returns with requests for `version` when it is
    /// deprecated: its `deprecationWarning`, else the server's default text.
    pub fn deprecation_warning(&self, version: &Version) -> Option<String> {
        if !version.deprecated {
            return None;
        }
        if let Some(w) = &version.deprecation_warning {
            return Some(w.clone());
        }
        let flags: Vec<crd_runtime::versions::VersionFlags> = self
            .all_versions
            .iter()
            .map(|v| crd_runtime::versions::VersionFlags {
                name: &v.name,
                served: v.served,
                deprecated: v.deprecated,
            })
            .collect();
        Some(crd_runtime::versions::default_deprecation_warning(
            &self.group,
            &self.names.kind,
            &version.name,
            &flags,
        ))
    }
}
