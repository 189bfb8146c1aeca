//! CEL lists: values made during evaluation, JSON arrays read through their schema
//! (Kubernetes' `unstructuredList`), and typed lists of generated code
//! ([`ListView`]).
//!
//! A list carries its `x-kubernetes-list-type` ([`ListType`]), because equality and
//! `+` depend on it: `set` lists compare without order and `+` is a union, `map`
//! lists compare by key and `+` merges by key (apiserver
//! `pkg/cel/common/valuesunstructured.go`, `valuesreflect.go`).

use std::sync::Arc;

use serde_json::Value as Json;

use super::error::{Error, Result};
use super::schema::SchemaRef;
use super::unstructured;
use super::value::Val;

/// A typed list of generated code, seen as a CEL list without copying it.
pub trait ListView: Sync {
    /// The number of items.
    fn len(&self) -> usize;
    /// The item at `index` (`index < len()`).
    fn get(&self, index: usize) -> Val<'_>;
    /// Whether the list is empty.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// `x-kubernetes-list-type`.
#[derive(Clone, Debug)]
pub enum ListType<'a> {
    /// `atomic` (or unset): ordered, `+` concatenates.
    Atomic,
    /// `set`: equality ignores order, `+` is a union keeping the left order.
    Set,
    /// `map`: items are objects identified by the key properties (their CEL names,
    /// escaped); equality ignores order, `+` merges by key.
    Map(KeyNames<'a>),
}

/// The escaped names of the `x-kubernetes-list-map-keys`.
#[derive(Clone, Debug)]
pub enum KeyNames<'a> {
    Borrowed(&'a [&'a str]),
    Shared(Arc<[String]>),
}

impl KeyNames<'_> {
    /// The names in order.
    pub fn names(&self) -> Vec<&str> {
        match self {
            KeyNames::Borrowed(k) => k.to_vec(),
            KeyNames::Shared(k) => k.iter().map(String::as_str).collect(),
        }
    }
}

/// A CEL list.
#[derive(Clone)]
pub struct List<'a> {
    pub(crate) repr: Repr<'a>,
    pub(crate) list_type: ListType<'a>,
}

#[derive(Clone)]
pub(crate) enum Repr<'a> {
    /// Values made by the evaluation (cel-go's `baseList` / Kubernetes'
    /// `refValSetList`, `refValMapList` by list type).
    Vals(Arc<Vec<Val<'a>>>),
    /// cel-go's `concatList`: the result of `+` on atomic lists, read through.
    Concat(Arc<(List<'a>, List<'a>)>),
    /// A JSON array with its item schema (Kubernetes' `unstructuredList`).
    Json(&'a [Json], SchemaRef<'a>),
    /// A typed list of generated code.
    View(&'a dyn ListView),
}

impl<'a> List<'a> {
    /// A list of values with atomic semantics.
    pub fn new(items: Vec<Val<'a>>) -> List<'a> {
        List {
            repr: Repr::Vals(Arc::new(items)),
            list_type: ListType::Atomic,
        }
    }

    /// A list of values with the given list type (the results of `+` on set and
    /// map lists).
    pub fn with_type(items: Vec<Val<'a>>, list_type: ListType<'a>) -> List<'a> {
        List {
            repr: Repr::Vals(Arc::new(items)),
            list_type,
        }
    }

    /// A typed list of generated code.
    pub fn view(view: &'a dyn ListView, list_type: ListType<'a>) -> List<'a> {
        List {
            repr: Repr::View(view),
            list_type,
        }
    }

    /// A JSON array read with its item schema.
    pub(crate) fn json(items: &'a [Json], item_schema: SchemaRef<'a>, list_type: ListType<'a>) -> List<'a> {
        List {
            repr: Repr::Json(items, item_schema),
            list_type,
        }
    }

    /// cel-go's `newConcatList`: an empty side gives the other list itself.
    pub(crate) fn concat(a: List<'a>, b: List<'a>) -> List<'a> {
        if a.is_empty() {
            return b;
        }
        if b.is_empty() {
            return a;
        }
        List {
            repr: Repr::Concat(Arc::new((a, b))),
            list_type: ListType::Atomic,
        }
    }

    /// The list type.
    pub fn list_type(&self) -> &ListType<'a> {
        &self.list_type
    }

    /// The number of items.
    pub fn len(&self) -> usize {
        match &self.repr {
            Repr::Vals(v) => v.len(),
            Repr::Concat(c) => c.0.len() + c.1.len(),
            Repr::Json(items, _) => items.len(),
            Repr::View(v) => v.len(),
        }
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The item at `index`; `index out of bounds: <index>` past the end. Items of
    /// JSON arrays are converted on access, so reading one can fail (data that does
    /// not fit the schema).
    pub fn get(&self, index: usize) -> Result<Val<'a>> {
        match &self.repr {
            Repr::Vals(v) => v
                .get(index)
                .cloned()
                .ok_or_else(|| Error::index_out_of_bounds(&index.to_string())),
            Repr::Concat(c) => {
                let n = c.0.len();
                if index < n { c.0.get(index) } else { c.1.get(index - n) }
            }
            Repr::Json(items, schema) => match <[Json]>::get(items, index) {
                Some(item) => unstructured::to_val(item, *schema),
                None => Err(Error::index_out_of_bounds(&index.to_string())),
            },
            Repr::View(v) => {
                let v: &'a dyn ListView = *v;
                if index < v.len() {
                    Ok(v.get(index))
                } else {
                    Err(Error::index_out_of_bounds(&index.to_string()))
                }
            }
        }
    }

    /// Item `index` of a list of JSON data, as JSON (`None` for other lists).
    pub fn json_item(&self, index: usize) -> Option<&'a Json> {
        match &self.repr {
            Repr::Json(items, _) => items.get(index),
            _ => None,
        }
    }

    /// The items in order.
    pub fn iter(&self) -> impl Iterator<Item = Result<Val<'a>>> + '_ {
        (0..self.len()).map(move |i| self.get(i))
    }

    /// The items, failing on the first that cannot be read.
    pub fn to_vec(&self) -> Result<Vec<Val<'a>>> {
        self.iter().collect()
    }

    /// Whether this is a JSON array or a typed list (data of the object rather than
    /// a value the expression made): the API server's `unstructuredList` family.
    pub fn is_data(&self) -> bool {
        matches!(self.repr, Repr::Json(..) | Repr::View(_))
    }

    /// The JSON items, for a JSON array.
    pub(crate) fn json_items(&self) -> Option<(&'a [Json], SchemaRef<'a>)> {
        match &self.repr {
            Repr::Json(items, schema) => Some((items, *schema)),
            _ => None,
        }
    }
}

impl<X: super::ToVal + Sync> ListView for Vec<X> {
    fn len(&self) -> usize {
        <[X]>::len(self)
    }
    fn get(&self, index: usize) -> Val<'_> {
        self[index].to_val()
    }
}

impl<X: super::ToVal + Sync> ListView for [X] {
    fn len(&self) -> usize {
        <[X]>::len(self)
    }
    fn get(&self, index: usize) -> Val<'_> {
        self[index].to_val()
    }
}
