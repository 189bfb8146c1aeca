//! CEL types as cel-go's type checker sees them (`common/types/types.go`).
//!
//! [`Type`] is what the type checker ([`super::check`]) assigns to every expression
//! node, what function overloads are declared with, and what the code generator and
//! the interpreter read back. Its [`Display`](std::fmt::Display) is cel-go's
//! `FormatCELType`, the text of the checker's error messages (`list(int)`,
//! `map(string, dyn)`, `optional_type(int)`, `type(int)`, `null`, `!error!`).
//!
//! Kinds follow cel-go (`types.Kind`): a [`Type::Wrapper`] (the nullable
//! `google.protobuf.Int64Value` & co.) has the kind of the type it wraps, and
//! [`Type::Optional`] is the opaque type `optional_type(T)`.
//!
//! Types that come from a CRD schema are [`Type::Struct`]s named like Kubernetes
//! names them (`<root>.spec.items.@idx`, see [`super::check::decltype`]); the
//! Kubernetes library types are `kubernetes.Quantity`, `kubernetes.URL`,
//! `kubernetes.Semver`, `kubernetes.NamedFormat` and the `kubernetes.authorization.*`
//! types (struct kind, no fields) and the opaque `net.IP` and `net.CIDR`.
//! `x-kubernetes-int-or-string` values are [`Type::Dyn`].

use std::fmt;

/// A CEL type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// `dyn`: any value, checked at run time.
    Dyn,
    /// `google.protobuf.Any` (printed `any`); behaves like `dyn` for the checker.
    Any,
    /// The type of expressions that failed to type-check (printed `!error!`).
    Error,
    /// `null_type` (printed `null`).
    Null,
    Bool,
    Int,
    Uint,
    Double,
    String,
    Bytes,
    /// `google.protobuf.Duration` (printed `duration`).
    Duration,
    /// `google.protobuf.Timestamp` (printed `timestamp`).
    Timestamp,
    /// `list(T)`.
    List(Box<Type>),
    /// `map(K, V)`.
    Map(Box<Type>, Box<Type>),
    /// An object (message) type with named fields, e.g. a schema object or
    /// `kubernetes.Quantity`. Its fields are known to the checker's environment.
    Struct(String),
    /// `optional_type(T)` (cel-go's opaque type of that name).
    Optional(Box<Type>),
    /// Any other opaque (abstract) type: `net.IP`, `net.CIDR`, and cel-go's internal
    /// `function(result, args...)` type.
    Opaque(String, Vec<Type>),
    /// `type` (`None`) or `type(T)`: the type of type values such as `int`.
    TypeOf(Option<Box<Type>>),
    /// A type parameter of a function signature, or a free type variable of the
    /// checker (`_var0`). Never left in a checked expression (unbound ones become
    /// `dyn`).
    TypeParam(String),
    /// A nullable protobuf wrapper of a primitive, e.g. `wrapper(int)` for
    /// `google.protobuf.Int64Value`: assignable from the primitive and from `null`.
    Wrapper(Box<Type>),
}

/// cel-go's `types.Kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Dyn,
    Any,
    Bool,
    Bytes,
    Double,
    Duration,
    Error,
    Int,
    List,
    Map,
    Null,
    Opaque,
    String,
    Struct,
    Timestamp,
    Type,
    TypeParam,
    Uint,
}

/// The name of cel-go's optional type.
pub const OPTIONAL_TYPE_NAME: &str = "optional_type";

impl Type {
    /// `list(elem)`.
    pub fn list(elem: Type) -> Type {
        Type::List(Box::new(elem))
    }

    /// `map(key, value)`.
    pub fn map(key: Type, value: Type) -> Type {
        Type::Map(Box::new(key), Box::new(value))
    }

    /// `optional_type(t)`.
    pub fn optional(t: Type) -> Type {
        Type::Optional(Box::new(t))
    }

    /// `type(t)`.
    pub fn type_of(t: Type) -> Type {
        Type::TypeOf(Some(Box::new(t)))
    }

    /// A type parameter.
    pub fn param(name: &str) -> Type {
        Type::TypeParam(name.to_string())
    }

    /// An object type.
    pub fn object(name: &str) -> Type {
        Type::Struct(name.to_string())
    }

    /// An opaque type without parameters.
    pub fn opaque(name: &str) -> Type {
        Type::Opaque(name.to_string(), Vec::new())
    }

    /// cel-go's `Kind()`.
    pub fn kind(&self) -> Kind {
        match self {
            Type::Dyn => Kind::Dyn,
            Type::Any => Kind::Any,
            Type::Error => Kind::Error,
            Type::Null => Kind::Null,
            Type::Bool => Kind::Bool,
            Type::Int => Kind::Int,
            Type::Uint => Kind::Uint,
            Type::Double => Kind::Double,
            Type::String => Kind::String,
            Type::Bytes => Kind::Bytes,
            Type::Duration => Kind::Duration,
            Type::Timestamp => Kind::Timestamp,
            Type::List(_) => Kind::List,
            Type::Map(..) => Kind::Map,
            Type::Struct(_) => Kind::Struct,
            Type::Optional(_) | Type::Opaque(..) => Kind::Opaque,
            Type::TypeOf(_) => Kind::Type,
            Type::TypeParam(_) => Kind::TypeParam,
            Type::Wrapper(t) => t.kind(),
        }
    }

    /// cel-go's `TypeName()`: the runtime type name (`int`, `list`,
    /// `google.protobuf.Timestamp`, the object or opaque name, the parameter name).
    pub fn type_name(&self) -> &str {
        match self {
            Type::Dyn => "dyn",
            Type::Any => "google.protobuf.Any",
            Type::Error => "error",
            Type::Null => "null_type",
            Type::Bool => "bool",
            Type::Int => "int",
            Type::Uint => "uint",
            Type::Double => "double",
            Type::String => "string",
            Type::Bytes => "bytes",
            Type::Duration => "google.protobuf.Duration",
            Type::Timestamp => "google.protobuf.Timestamp",
            Type::List(_) => "list",
            Type::Map(..) => "map",
            Type::Struct(n) | Type::Opaque(n, _) | Type::TypeParam(n) => n,
            Type::Optional(_) => OPTIONAL_TYPE_NAME,
            Type::TypeOf(_) => "type",
            Type::Wrapper(t) => t.type_name(),
        }
    }

    /// cel-go's `Parameters()`.
    pub fn params(&self) -> Vec<&Type> {
        match self {
            Type::List(e) => vec![e],
            Type::Map(k, v) => vec![k, v],
            Type::Optional(t) => vec![t],
            Type::Opaque(_, ps) => ps.iter().collect(),
            Type::TypeOf(Some(t)) => vec![t],
            Type::Wrapper(t) => t.params(),
            _ => Vec::new(),
        }
    }

    /// Rebuilds a type of the same shape with new parameters (same count).
    pub(crate) fn with_params(&self, mut params: Vec<Type>) -> Type {
        match self {
            Type::List(_) => Type::list(params.remove(0)),
            Type::Map(..) => {
                let v = params.remove(1);
                Type::map(params.remove(0), v)
            }
            Type::Optional(_) => Type::optional(params.remove(0)),
            Type::Opaque(n, _) => Type::Opaque(n.clone(), params),
            Type::TypeOf(Some(_)) => Type::type_of(params.remove(0)),
            other => other.clone(),
        }
    }

    /// cel-go's `DeclaredTypeName()`: `wrapper(int)` for wrappers, else the type name.
    pub fn declared_type_name(&self) -> String {
        match self {
            Type::Wrapper(t) => format!("wrapper({})", t.type_name()),
            _ => self.type_name().to_string(),
        }
    }

    /// The element type of `optional_type(T)`.
    pub fn as_optional(&self) -> Option<&Type> {
        match self {
            Type::Optional(t) => Some(t),
            _ => None,
        }
    }

    /// Whether this is `dyn`, `any` or a type parameter (cel-go's `Type.isDyn`).
    pub(crate) fn is_dyn_like(&self) -> bool {
        matches!(self.kind(), Kind::Dyn | Kind::Any | Kind::TypeParam)
    }

    /// cel-go's `IsExactType`: same kind, name and parameters (type parameter names
    /// included). Wrappers are not told apart from what they wrap.
    pub fn is_exact_type(&self, other: &Type) -> bool {
        self.is_type_internal(other, true)
    }

    /// cel-go's `IsEquivalentType`: like [`Type::is_exact_type`], ignoring the names
    /// of type parameters.
    pub fn is_equivalent_type(&self, other: &Type) -> bool {
        self.is_type_internal(other, false)
    }

    fn is_type_internal(&self, other: &Type, check_param_names: bool) -> bool {
        if self.kind() != other.kind() {
            return false;
        }
        let (p1, p2) = (self.params(), other.params());
        if p1.len() != p2.len() {
            return false;
        }
        if (check_param_names || self.kind() != Kind::TypeParam) && self.type_name() != other.type_name() {
            return false;
        }
        p1.iter()
            .zip(p2.iter())
            .all(|(a, b)| a.is_type_internal(b, check_param_names))
    }

    /// cel-go's `IsAssignableType`: whether a value of type `from` may be used where
    /// this type is expected (no type-parameter binding; see the checker for that).
    pub fn is_assignable_type(&self, from: &Type) -> bool {
        if let Type::Wrapper(inner) = self {
            return Type::Null.is_assignable_type(from) || inner.is_assignable_type(from);
        }
        if self == from || self.is_dyn_like() {
            return true;
        }
        if self.kind() != from.kind() || self.type_name() != from.type_name() {
            return false;
        }
        let (p1, p2) = (self.params(), from.params());
        p1.len() == p2.len() && p1.iter().zip(p2.iter()).all(|(a, b)| a.is_assignable_type(b))
    }

    /// cel-go's `Type.String()` (used in a few internal error messages): like the
    /// display form, but type parameters print as `<T>` and type names are the
    /// declared names (`google.protobuf.Duration`).
    pub fn debug_string(&self) -> String {
        if let Type::TypeParam(n) = self {
            return format!("<{n}>");
        }
        let params = self.params();
        if params.is_empty() {
            return self.declared_type_name();
        }
        let ps: Vec<String> = params.iter().map(|p| p.debug_string()).collect();
        format!("{}({})", self.declared_type_name(), ps.join(", "))
    }
}

impl fmt::Display for Type {
    /// cel-go's `checker.FormatCELType`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Any => return f.write_str("any"),
            Type::Duration => return f.write_str("duration"),
            Type::Error => return f.write_str("!error!"),
            Type::Null => return f.write_str("null"),
            Type::Timestamp => return f.write_str("timestamp"),
            Type::TypeParam(n) => return f.write_str(n),
            Type::Opaque(n, ps) if n == "function" && !ps.is_empty() => {
                return f.write_str(&format_function(Some(&ps[0]), &ps[1..], false));
            }
            _ => {}
        }
        let params = self.params();
        if params.is_empty() {
            return f.write_str(&self.declared_type_name());
        }
        write!(f, "{}(", self.type_name())?;
        for (i, p) in params.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{p}")?;
        }
        f.write_str(")")
    }
}

/// cel-go's `formatFunctionDeclType`: `(int, string) -> bool`, or for a receiver call
/// `int.(string)` (the first argument is the receiver).
pub fn format_function(result: Option<&Type>, args: &[Type], is_instance: bool) -> String {
    let mut out = String::new();
    let mut args = args;
    if is_instance && !args.is_empty() {
        out.push_str(&args[0].to_string());
        out.push('.');
        args = &args[1..];
    }
    out.push('(');
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&a.to_string());
    }
    out.push(')');
    if let Some(r) = result {
        out.push_str(" -> ");
        out.push_str(&r.to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_like_cel_go() {
        assert_eq!(Type::map(Type::String, Type::Dyn).to_string(), "map(string, dyn)");
        assert_eq!(
            Type::optional(Type::list(Type::Int)).to_string(),
            "optional_type(list(int))"
        );
        assert_eq!(Type::type_of(Type::Duration).to_string(), "type(duration)");
        assert_eq!(Type::TypeOf(None).to_string(), "type");
        assert_eq!(Type::Null.to_string(), "null");
        assert_eq!(Type::Error.to_string(), "!error!");
        assert_eq!(Type::Wrapper(Box::new(Type::Int)).to_string(), "wrapper(int)");
        assert_eq!(Type::list(Type::Timestamp).to_string(), "list(timestamp)");
        assert_eq!(Type::object("selfType0.spec").to_string(), "selfType0.spec");
        assert_eq!(format_function(None, &[Type::Int, Type::String], true), "int.(string)");
    }

    #[test]
    fn assignability() {
        let w = Type::Wrapper(Box::new(Type::Int));
        assert!(w.is_assignable_type(&Type::Null));
        assert!(w.is_assignable_type(&Type::Int));
        assert!(!Type::Int.is_assignable_type(&Type::Null));
        assert!(Type::list(Type::Dyn).is_assignable_type(&Type::list(Type::Int)));
        assert!(w.is_exact_type(&Type::Int));
        assert!(Type::param("A").is_equivalent_type(&Type::param("B")));
        assert!(!Type::param("A").is_exact_type(&Type::param("B")));
    }
}
