//! The CEL runtime of the Kubernetes environment: values, functions and costs, as
//! the Kubernetes API server evaluates `x-kubernetes-validations` rules (cel-go
//! with Kubernetes' libraries, `OptOptimize` and cost tracking).
//!
//! - [`Val`]: a run-time value. Values borrow their data: JSON read through its
//!   schema ([`json_to_val`], Kubernetes' `UnstructuredToVal`) or typed data of
//!   generated code ([`ToVal`], [`ObjectView`], [`ListView`], [`MapView`]). Lists
//!   carry their `x-kubernetes-list-type` ([`ListType`]), which equality and `+`
//!   follow.
//! - [`Error`]: an evaluation error with cel-go's text (`no such key: x`,
//!   `no such overload`, `integer overflow`, ...).
//! - Functions: [`equals`] (and [`equality`]), the operators in [`ops`], the
//!   conversions in [`convert`], the list libraries in [`lists`], and
//!   [`functions::dispatch`] / [`functions::call_overload`] for every overload the
//!   checker declares, by overload id ([`overloads::OVERLOADS`]). The string, time,
//!   URL, IP/CIDR, quantity, semver and format functions themselves live in the
//!   leaf modules of this crate (`crate::strings`, `crate::time`, ...).
//! - [`cost`]: what each evaluation step and function call costs
//!   ([`cost::call_cost`]), as the API server counts it.
//!
//! The evaluator of checked expressions, and the description of how an
//! expression evaluates and what each step costs, are in `crd-codegen`
//! (`cel::eval`).

pub mod convert;
pub mod cost;
pub mod equality;
pub mod error;
pub mod escaping;
pub mod format;
pub mod functions;
pub mod gosort;
pub mod list;
pub mod lists;
pub mod map;
pub mod ops;
pub mod overloads;
pub mod schema;
pub mod typed;
pub mod unstructured;
pub mod value;

pub use equality::equals;
pub use error::{Error, Result};
pub use list::{KeyNames, List, ListType, ListView};
pub use map::{Map, MapView, ObjectView};
pub use schema::{CelSchema, SchemaRef};
pub use typed::ToVal;
pub use unstructured::json_to_val;
pub use value::{Bytes, Str, TypeVal, Val};
