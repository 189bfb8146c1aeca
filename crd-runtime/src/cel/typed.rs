//! CEL values of typed data (generated structs and their field types), without
//! copying: [`ToVal`] for scalars, strings, `Vec`, `BTreeMap`, `Option`,
//! int-or-string, preserved JSON, `EmptyObject` and `ObjectMeta`.
//!
//! A generated struct implements [`ObjectView`](super::ObjectView) and, through the
//! blanket impl here, `ToVal`. Lists are atomic by default; generated code wraps
//! `set` and `map` lists with [`List::view`](super::List::view) to give their
//! type.

use std::any::Any;
use std::collections::BTreeMap;

use super::list::{List, ListType};
use super::map::{Map, MapView, ObjectView};
use super::schema::{empty_object_schema, object_meta_schema};
use super::value::Val;
use crate::{EmptyObject, IntOrString, JsonMap, ObjectMeta};

/// A typed value seen as a CEL value, borrowing it.
pub trait ToVal {
    fn to_val(&self) -> Val<'_>;
}

impl ToVal for bool {
    fn to_val(&self) -> Val<'_> {
        Val::Bool(*self)
    }
}

impl ToVal for i32 {
    fn to_val(&self) -> Val<'_> {
        Val::Int(i64::from(*self))
    }
}

impl ToVal for i64 {
    fn to_val(&self) -> Val<'_> {
        Val::Int(*self)
    }
}

impl ToVal for f32 {
    fn to_val(&self) -> Val<'_> {
        Val::Double(f64::from(*self))
    }
}

impl ToVal for f64 {
    fn to_val(&self) -> Val<'_> {
        Val::Double(*self)
    }
}

impl ToVal for String {
    fn to_val(&self) -> Val<'_> {
        Val::str(self)
    }
}

impl ToVal for str {
    fn to_val(&self) -> Val<'_> {
        Val::str(self)
    }
}

impl ToVal for IntOrString {
    /// An int-or-string is an `int` or a `string` at run time.
    fn to_val(&self) -> Val<'_> {
        match self {
            IntOrString::Int(i) => Val::Int(*i),
            IntOrString::String(s) => Val::str(s),
        }
    }
}

impl ToVal for serde_json::Value {
    /// Data under `x-kubernetes-preserve-unknown-fields` without a type: opaque,
    /// equality only.
    fn to_val(&self) -> Val<'_> {
        Val::Unknown(self)
    }
}

impl ToVal for JsonMap {
    /// An object without properties that keeps unknown fields: no field is visible
    /// to CEL, its size counts the fields.
    fn to_val(&self) -> Val<'_> {
        Val::Map(Map::json(self, super::SchemaRef::new(empty_object_schema())))
    }
}

impl ToVal for EmptyObject {
    /// An object without properties: empty.
    fn to_val(&self) -> Val<'_> {
        Val::Map(Map::empty())
    }
}

impl ToVal for ObjectMeta {
    /// The `metadata` of an embedded resource: only `name` and `generateName` are
    /// visible (Kubernetes' `WithTypeAndObjectMeta`).
    fn to_val(&self) -> Val<'_> {
        Val::Map(Map::object(self))
    }
}

impl ObjectView for ObjectMeta {
    fn field(&self, name: &str) -> Option<Val<'_>> {
        match name {
            "name" => self.name.as_deref().map(Val::str),
            "generateName" => self.generate_name.as_deref().map(Val::str),
            _ => None,
        }
    }

    fn size(&self) -> usize {
        let m = self;
        [
            m.annotations.is_some(),
            m.creation_timestamp.is_some(),
            m.deletion_grace_period_seconds.is_some(),
            m.deletion_timestamp.is_some(),
            m.finalizers.is_some(),
            m.generate_name.is_some(),
            m.generation.is_some(),
            m.labels.is_some(),
            m.managed_fields.is_some(),
            m.name.is_some(),
            m.namespace.is_some(),
            m.owner_references.is_some(),
            m.resource_version.is_some(),
            m.self_link.is_some(),
            m.uid.is_some(),
        ]
        .iter()
        .filter(|b| **b)
        .count()
    }

    fn field_names(&self) -> Vec<&str> {
        let mut names = Vec::new();
        if self.generate_name.is_some() {
            names.push("generateName");
        }
        if self.name.is_some() {
            names.push("name");
        }
        names
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl<X: ToVal> ToVal for Option<X> {
    /// `None` is `null` (nullable items and values; optional fields are absent
    /// instead, which their object decides).
    fn to_val(&self) -> Val<'_> {
        match self {
            Some(x) => x.to_val(),
            None => Val::Null,
        }
    }
}

impl<X: ToVal + Sync> ToVal for Vec<X> {
    /// An atomic list.
    fn to_val(&self) -> Val<'_> {
        Val::List(List::view(self, ListType::Atomic))
    }
}

impl<X: ToVal + Sync> ToVal for BTreeMap<String, X> {
    fn to_val(&self) -> Val<'_> {
        Val::Map(Map::view(self))
    }
}

impl<X: ToVal + Sync> MapView for BTreeMap<String, X> {
    fn len(&self) -> usize {
        BTreeMap::len(self)
    }
    fn get(&self, key: &str) -> Option<Val<'_>> {
        BTreeMap::get(self, key).map(ToVal::to_val)
    }
    fn keys(&self) -> Vec<&str> {
        BTreeMap::keys(self).map(String::as_str).collect()
    }
}

/// The `metadata` of a JSON resource as `WithTypeAndObjectMeta` sees it.
pub fn json_object_meta(meta: &JsonMap) -> Val<'_> {
    Val::Map(Map::json(meta, super::SchemaRef::new(object_meta_schema())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cel::{CelSchema, equals, json_to_val, ops};
    use serde_json::json;

    /// A struct as generated code would write it, with a `set` list.
    struct Spec {
        name: String,
        replicas: Option<i64>,
        tags: Vec<String>,
        labels: BTreeMap<String, String>,
    }

    impl ObjectView for Spec {
        fn field(&self, name: &str) -> Option<Val<'_>> {
            match name {
                "name" => Some(self.name.to_val()),
                "replicas" => self.replicas.as_ref().map(ToVal::to_val),
                "tags" => Some(Val::List(List::view(&self.tags, ListType::Set))),
                "labels" => Some(self.labels.to_val()),
                _ => None,
            }
        }
        fn size(&self) -> usize {
            3 + usize::from(self.replicas.is_some())
        }
        fn field_names(&self) -> Vec<&str> {
            let mut n = vec!["labels", "name"];
            if self.replicas.is_some() {
                n.push("replicas");
            }
            n.push("tags");
            n
        }
        fn as_any(&self) -> &dyn Any {
            self
        }
    }

    /// A schema for the JSON form of `Spec`.
    struct S {
        ty: &'static str,
        props: Vec<(&'static str, S)>,
        items: Option<Box<S>>,
        values: Option<Box<S>>,
        list_type: &'static str,
    }

    fn s(ty: &'static str) -> S {
        S {
            ty,
            props: Vec::new(),
            items: None,
            values: None,
            list_type: "",
        }
    }

    impl CelSchema for S {
        fn schema_type(&self) -> &str {
            self.ty
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
            !self.props.is_empty()
        }
        fn property(&self, name: &str) -> Option<&dyn CelSchema> {
            self.props
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, s)| s as &dyn CelSchema)
        }
        fn additional_properties(&self) -> Option<&dyn CelSchema> {
            self.values.as_deref().map(|s| s as &dyn CelSchema)
        }
        fn items(&self) -> Option<&dyn CelSchema> {
            self.items.as_deref().map(|s| s as &dyn CelSchema)
        }
        fn list_type(&self) -> &str {
            self.list_type
        }
        fn list_map_keys(&self) -> Vec<&str> {
            Vec::new()
        }
    }

    fn spec_schema() -> S {
        let mut tags = s("array");
        tags.items = Some(Box::new(s("string")));
        tags.list_type = "set";
        let mut labels = s("object");
        labels.values = Some(Box::new(s("string")));
        let mut root = s("object");
        root.props = vec![
            ("name", s("string")),
            ("replicas", s("integer")),
            ("tags", tags),
            ("labels", labels),
        ];
        root
    }

    #[test]
    fn typed_objects_behave_like_their_json() {
        let spec = Spec {
            name: "web".into(),
            replicas: None,
            tags: vec!["a".into(), "b".into()],
            labels: BTreeMap::from([("app".to_string(), "web".to_string())]),
        };
        let typed = Val::Map(Map::object(&spec));
        let schema = spec_schema();
        let j = json!({"name": "web", "tags": ["b", "a"], "labels": {"app": "web"}});
        let from_json = json_to_val(&j, &schema, false).unwrap();
        assert_eq!(equals(&typed, &from_json), Ok(true));
        assert_eq!(equals(&from_json, &typed), Ok(true));
        let Val::Map(m) = &typed else { unreachable!() };
        assert_eq!(m.len(), 3);
        assert!(m.get_str("replicas").is_none());
        // A set list of typed data: union keeps the left order.
        let tags = m.get_str("tags").unwrap().unwrap();
        let more = Val::list(vec![Val::str("c"), Val::str("a")]);
        let Val::List(sum) = ops::add(&tags, &more).unwrap() else {
            unreachable!()
        };
        let items: Vec<String> = sum.iter().map(|v| v.unwrap().as_str().unwrap().to_string()).collect();
        assert_eq!(items, ["a", "b", "c"]);
        // Different data: not equal.
        let j2 = json!({"name": "web", "tags": ["a", "c"], "labels": {"app": "web"}});
        let other = json_to_val(&j2, &schema, false).unwrap();
        assert_eq!(equals(&typed, &other), Ok(false));
        // Sizes of typed lists and maps.
        assert_eq!(ops::size(&spec.labels.to_val()), Ok(1));
        assert_eq!(ops::size(&vec![1i64, 2, 3].to_val()), Ok(3));
        assert_eq!(IntOrString::String("25%".into()).to_val().type_name(), "string");
    }
}
