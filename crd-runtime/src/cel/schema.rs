//! What CEL needs to know of a structural schema to read JSON data
//! (apiserver `pkg/cel/common/schemas.go` `Schema`, as `UnstructuredToVal` uses it).
//!
//! [`CelSchema`] is implemented by whoever holds the schema (the reference engine
//! implements it for its IR schema nodes); [`SchemaRef`] is a node as CEL sees it,
//! with Kubernetes' `WithTypeAndObjectMeta` applied at resource roots and embedded
//! resources.

/// A structural schema node, as far as CEL values read it.
pub trait CelSchema: Sync {
    /// `type`: `object`, `array`, `string`, `integer`, `number`, `boolean`, or `""`.
    fn schema_type(&self) -> &str;
    /// `format` (`""` when unset).
    fn format(&self) -> &str;
    fn nullable(&self) -> bool;
    /// `x-kubernetes-int-or-string`.
    fn int_or_string(&self) -> bool;
    /// `x-kubernetes-preserve-unknown-fields`.
    fn preserve_unknown_fields(&self) -> bool;
    /// `x-kubernetes-embedded-resource`.
    fn embedded_resource(&self) -> bool;
    /// Whether `properties` is set (Go: `Properties() != nil`).
    fn has_properties(&self) -> bool;
    /// The schema of a property, by its JSON name.
    fn property(&self, name: &str) -> Option<&dyn CelSchema>;
    /// `additionalProperties` when it is a schema.
    fn additional_properties(&self) -> Option<&dyn CelSchema>;
    /// `items`.
    fn items(&self) -> Option<&dyn CelSchema>;
    /// `x-kubernetes-list-type` (`""` when unset).
    fn list_type(&self) -> &str;
    /// `x-kubernetes-list-map-keys`.
    fn list_map_keys(&self) -> Vec<&str>;
}

/// A schema node as CEL sees it: with `apiVersion`, `kind` and `metadata` (`name`,
/// `generateName`) added at resource roots (`meta`), as apiextensions'
/// `WithTypeAndObjectMeta` does.
#[derive(Clone, Copy)]
pub struct SchemaRef<'a> {
    node: &'a dyn CelSchema,
    meta: bool,
}

impl<'a> SchemaRef<'a> {
    /// A node as it is.
    pub fn new(node: &'a dyn CelSchema) -> SchemaRef<'a> {
        SchemaRef { node, meta: false }
    }

    /// A resource root (the schema root, or an `x-kubernetes-embedded-resource`
    /// node): `WithTypeAndObjectMeta` applies unless the schema already declares
    /// `kind` and `apiVersion` strings and a `metadata` object with `name` and
    /// `generateName` strings.
    pub fn resource_root(node: &'a dyn CelSchema) -> SchemaRef<'a> {
        SchemaRef {
            node,
            meta: !declares_type_and_object_meta(node),
        }
    }

    /// The schema node.
    pub fn node(&self) -> &'a dyn CelSchema {
        self.node
    }

    pub fn schema_type(&self) -> &'a str {
        self.node.schema_type()
    }

    pub fn format(&self) -> &'a str {
        self.node.format()
    }

    pub fn nullable(&self) -> bool {
        self.node.nullable()
    }

    pub fn int_or_string(&self) -> bool {
        self.node.int_or_string()
    }

    pub fn preserve_unknown_fields(&self) -> bool {
        self.node.preserve_unknown_fields()
    }

    pub fn embedded_resource(&self) -> bool {
        self.node.embedded_resource()
    }

    /// Whether the node has `properties` (always, once the object meta is added).
    pub fn has_properties(&self) -> bool {
        self.meta || self.node.has_properties()
    }

    /// The schema of a property.
    pub fn property(&self, name: &str) -> Option<SchemaRef<'a>> {
        if self.meta {
            match name {
                "kind" | "apiVersion" => return Some(SchemaRef::new(&STRING)),
                "metadata" => return Some(SchemaRef::new(&METADATA)),
                _ => {}
            }
        }
        self.node.property(name).map(SchemaRef::new)
    }

    /// `additionalProperties` when it is a schema.
    pub fn additional_properties(&self) -> Option<SchemaRef<'a>> {
        self.node.additional_properties().map(SchemaRef::new)
    }

    pub fn items(&self) -> Option<SchemaRef<'a>> {
        self.node.items().map(SchemaRef::new)
    }

    pub fn list_type(&self) -> &'a str {
        self.node.list_type()
    }

    pub fn list_map_keys(&self) -> Vec<&'a str> {
        self.node.list_map_keys()
    }
}

fn declares_type_and_object_meta(s: &dyn CelSchema) -> bool {
    let is = |p: Option<&dyn CelSchema>, t: &str| p.is_some_and(|p| p.schema_type() == t);
    let metadata = s.property("metadata");
    s.has_properties()
        && is(s.property("kind"), "string")
        && is(s.property("apiVersion"), "string")
        && is(metadata, "object")
        && metadata.is_some_and(|m| {
            m.has_properties() && is(m.property("name"), "string") && is(m.property("generateName"), "string")
        })
}

/// The schemas `WithTypeAndObjectMeta` adds.
enum Builtin {
    /// `{type: string}`.
    String,
    /// `metadata` with `name` and `generateName`.
    Metadata,
    /// `{type: object}` with no properties (an `EmptyObject` or a `JsonMap`).
    Object,
}

static STRING: Builtin = Builtin::String;
static METADATA: Builtin = Builtin::Metadata;
static OBJECT: Builtin = Builtin::Object;

/// A schema of `type: object` without properties: what CEL sees of an object whose
/// fields are all pruned or unknown.
pub fn empty_object_schema() -> &'static dyn CelSchema {
    &OBJECT
}

/// The schema of `metadata` at a resource root, as `WithTypeAndObjectMeta` builds it.
pub fn object_meta_schema() -> &'static dyn CelSchema {
    &METADATA
}

impl CelSchema for Builtin {
    fn schema_type(&self) -> &str {
        match self {
            Builtin::String => "string",
            Builtin::Metadata | Builtin::Object => "object",
        }
    }
    fn format(&self) -> &str {
        ""
    }
    fn nullable(&self) -> bool {
        false
    }
    fn int_or_string(&self) -> bool {
        false
    }
    fn preserve_unknown_fields(&self) -> bool {
        false
    }
    fn embedded_resource(&self) -> bool {
        false
    }
    fn has_properties(&self) -> bool {
        matches!(self, Builtin::Metadata)
    }
    fn property(&self, name: &str) -> Option<&dyn CelSchema> {
        match (self, name) {
            (Builtin::Metadata, "name" | "generateName") => Some(&STRING),
            _ => None,
        }
    }
    fn additional_properties(&self) -> Option<&dyn CelSchema> {
        None
    }
    fn items(&self) -> Option<&dyn CelSchema> {
        None
    }
    fn list_type(&self) -> &str {
        ""
    }
    fn list_map_keys(&self) -> Vec<&str> {
        Vec::new()
    }
}
