//! The IR schema as CEL values read it (`crd_runtime::cel::CelSchema`).

use crd_runtime::cel::CelSchema;

use crate::ir::{ListType, Schema};

impl CelSchema for Schema {
    fn schema_type(&self) -> &str {
        self.type_.map_or("", |t| t.as_str())
    }

    fn format(&self) -> &str {
        self.format.as_deref().unwrap_or("")
    }

    fn nullable(&self) -> bool {
        self.nullable
    }

    fn int_or_string(&self) -> bool {
        self.int_or_string
    }

    fn preserve_unknown_fields(&self) -> bool {
        self.preserve_unknown_fields
    }

    fn embedded_resource(&self) -> bool {
        self.embedded_resource
    }

    fn has_properties(&self) -> bool {
        !self.properties.is_empty()
    }

    fn property(&self, name: &str) -> Option<&dyn CelSchema> {
        self.properties.get(name).map(|s| s as &dyn CelSchema)
    }

    fn additional_properties(&self) -> Option<&dyn CelSchema> {
        self.additional_properties_schema().map(|s| s as &dyn CelSchema)
    }

    fn items(&self) -> Option<&dyn CelSchema> {
        self.items.as_deref().map(|s| s as &dyn CelSchema)
    }

    fn list_type(&self) -> &str {
        match self.list_type {
            None => "",
            Some(ListType::Atomic) => "atomic",
            Some(ListType::Set) => "set",
            Some(ListType::Map) => "map",
        }
    }

    fn list_map_keys(&self) -> Vec<&str> {
        self.list_map_keys.iter().map(String::as_str).collect()
    }
}
