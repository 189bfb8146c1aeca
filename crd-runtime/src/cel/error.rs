//! CEL evaluation errors with cel-go's texts.
//!
//! cel-go reports a failed evaluation as an error value (`types.Err`) whose
//! `Error()` text the Kubernetes API server puts into its messages
//! (apiextensions-apiserver `pkg/apiserver/schema/cel/validation.go`):
//! `no such overload ...` becomes "call arguments did not match a supported operator,
//! function or macro signature", the cost limit error stops the validation, and any
//! other text (`no such key: x`, `index out of bounds: 3`, `integer overflow`,
//! `division by zero`, ...) is printed as `<text> evaluating rule: <rule>`. So the
//! text is all an [`Error`] carries.

use std::borrow::Cow;
use std::fmt;

/// The result of CEL operations.
pub type Result<T> = std::result::Result<T, Error>;

/// A CEL evaluation error: cel-go's error text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    message: Cow<'static, str>,
}

/// cel-go `interpreter.EvalCancelledError` for `CostLimitExceeded` (`runtimecost.go`).
pub const COST_LIMIT_EXCEEDED: &str = "operation cancelled: actual cost limit exceeded";
/// cel-go `types.NoSuchOverloadErr()` / `MaybeNoSuchOverloadErr`.
pub const NO_SUCH_OVERLOAD: &str = "no such overload";
/// cel-go `errIntOverflow` (`common/types/overflow.go`).
pub const INTEGER_OVERFLOW: &str = "integer overflow";
/// cel-go `errUintOverflow`.
pub const UNSIGNED_INTEGER_OVERFLOW: &str = "unsigned integer overflow";
/// cel-go `errDivideByZero`.
pub const DIVISION_BY_ZERO: &str = "division by zero";
/// cel-go `errModulusByZero`.
pub const MODULUS_BY_ZERO: &str = "modulus by zero";

impl Error {
    /// An error with the given text.
    pub fn new(message: impl Into<Cow<'static, str>>) -> Error {
        Error {
            message: message.into(),
        }
    }

    /// The error text (Go's `err.Error()`).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// `no such overload`, the text cel-go's values give when an operation does not
    /// apply to their type (`MaybeNoSuchOverloadErr`).
    pub fn no_such_overload() -> Error {
        Error::new(NO_SUCH_OVERLOAD)
    }

    /// `no such overload: <function>(<arg types>)`: cel-go's
    /// `decls.MaybeNoSuchOverload` when no overload of a function accepts the
    /// run-time argument types.
    pub fn no_such_overload_for(function: &str, arg_types: &[&str]) -> Error {
        Error::new(format!("{NO_SUCH_OVERLOAD}: {function}({})", arg_types.join(", ")))
    }

    /// The error that stops an evaluation whose cost exceeds the limit.
    pub fn cost_limit_exceeded() -> Error {
        Error::new(COST_LIMIT_EXCEEDED)
    }

    /// `no such key: <key>` (cel-go `missingKey`, the key printed with `%v`).
    pub fn no_such_key(key: &str) -> Error {
        Error::new(format!("no such key: {key}"))
    }

    /// `index out of bounds: <index>` (cel-go `missingIndex`).
    pub fn index_out_of_bounds(index: &str) -> Error {
        Error::new(format!("index out of bounds: {index}"))
    }

    /// `type conversion error from '<from>' to '<to>'`.
    pub fn conversion(from: &str, to: &str) -> Error {
        Error::new(format!("type conversion error from '{from}' to '{to}'"))
    }

    /// Whether the API server reports this as a call that matched no overload
    /// (`strings.HasPrefix(err.Error(), "no such overload")`).
    pub fn is_no_such_overload(&self) -> bool {
        self.message.starts_with(NO_SUCH_OVERLOAD)
    }

    /// Whether this is the per-call cost limit error.
    pub fn is_cost_limit_exceeded(&self) -> bool {
        self.message.starts_with(COST_LIMIT_EXCEEDED)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl From<String> for Error {
    fn from(message: String) -> Error {
        Error::new(message)
    }
}

impl From<&'static str> for Error {
    fn from(message: &'static str) -> Error {
        Error::new(message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_cel_gos() {
        assert_eq!(
            Error::no_such_overload_for("_+_", &["int", "string"]).to_string(),
            "no such overload: _+_(int, string)"
        );
        assert!(Error::no_such_overload().is_no_such_overload());
        assert_eq!(Error::no_such_key("a").to_string(), "no such key: a");
        assert_eq!(Error::index_out_of_bounds("3").to_string(), "index out of bounds: 3");
        assert_eq!(
            Error::cost_limit_exceeded().to_string(),
            "operation cancelled: actual cost limit exceeded"
        );
        assert!(Error::cost_limit_exceeded().is_cost_limit_exceeded());
        assert_eq!(
            Error::conversion("string", "int").to_string(),
            "type conversion error from 'string' to 'int'"
        );
    }
}
