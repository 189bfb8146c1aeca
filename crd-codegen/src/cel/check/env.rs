//! The type-checking environment: variables, functions, object types, container
//! (cel-go's `cel.Env` as far as the checker uses it, `checker/env.go` for name
//! resolution, `common/containers` for qualified names).

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, OnceLock};

use super::decls::{Expressions, FunctionDecl, FunctionSet, Libraries, OverloadDecl};
use crate::cel::ast::Literal;
use crate::cel::types::Type;

/// The fields of an object type.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StructType {
    /// Field name to type.
    pub fields: BTreeMap<String, Type>,
    /// Whether the type can be named in expressions (as an identifier or in a
    /// message literal `T{...}`). Types derived from a CRD schema cannot: the API
    /// server names them `selfType<random number>...`, so no rule can name them.
    pub nameable: bool,
}

/// Which validations run after a successful type check (cel-go `ASTValidators`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Validators {
    /// `cel.ValidateHomogeneousAggregateLiterals()` (`cel.HomogeneousAggregateLiterals()`).
    pub homogeneous_aggregate_literals: bool,
    /// `cel.ValidateDurationLiterals()`.
    pub duration_literals: bool,
    /// `cel.ValidateTimestampLiterals()`.
    pub timestamp_literals: bool,
    /// `cel.ValidateRegexLiterals()`.
    pub regex_literals: bool,
    /// `ext.Strings`' validator of literal `format` calls (version 1 to 3 of the
    /// strings library).
    pub string_format: bool,
}

impl Validators {
    /// None.
    pub fn none() -> Validators {
        Validators {
            homogeneous_aggregate_literals: false,
            duration_literals: false,
            timestamp_literals: false,
            regex_literals: false,
            string_format: false,
        }
    }
}

/// A type-checking environment.
///
/// [`Env::kubernetes`] is the environment of `x-kubernetes-validations` rules
/// without variables; [`super::compile::RuleEnvironment`] adds `self` and `oldSelf`.
#[derive(Clone, Debug)]
pub struct Env {
    pub(crate) functions: Arc<FunctionSet>,
    pub(crate) variables: HashMap<String, Variable>,
    pub(crate) container: String,
    pub(crate) structs: HashMap<String, StructType>,
    /// Type names usable as identifiers (cel-go's registry `FindIdent`): name to the
    /// type it denotes (the identifier has type `type(T)`).
    pub(crate) type_idents: HashMap<String, Type>,
    /// Kubernetes' `DeclTypeProvider` is in use: `duration` and `timestamp` also
    /// name types, and reserved words are accepted as field names (`self.namespace`
    /// for the escaped property `__namespace__`).
    pub(crate) k8s_provider: bool,
    pub(crate) cross_type_numeric_comparisons: bool,
    pub(crate) validators: Validators,
    pub(crate) libraries: Libraries,
}

/// A declared variable (or constant).
#[derive(Clone, Debug, PartialEq)]
pub struct Variable {
    pub name: String,
    pub ty: Type,
    /// The value of a constant (enum values).
    pub value: Option<Literal>,
}

fn kubernetes_functions(expressions: Expressions) -> Arc<FunctionSet> {
    static STORED: OnceLock<Arc<FunctionSet>> = OnceLock::new();
    static NEW: OnceLock<Arc<FunctionSet>> = OnceLock::new();
    let cell = match expressions {
        Expressions::Stored => &STORED,
        Expressions::New => &NEW,
    };
    cell.get_or_init(|| Arc::new(Libraries::of(expressions).functions()))
        .clone()
}

impl Env {
    /// The Kubernetes CEL environment (`StoredExpressions`, see
    /// [`Libraries::kubernetes`]) with no variables: cross-type numeric comparisons,
    /// the homogeneous aggregate literal, duration, timestamp and regex literal
    /// validators and the string-format validator.
    pub fn kubernetes() -> Env {
        Env::kubernetes_for(Expressions::Stored)
    }

    /// [`Env::kubernetes`] with the libraries of `expressions`.
    pub fn kubernetes_for(expressions: Expressions) -> Env {
        let libraries = Libraries::of(expressions);
        let mut env = Env::with_libraries(libraries, kubernetes_functions(expressions));
        env.validators = Validators {
            homogeneous_aggregate_literals: true,
            duration_literals: true,
            timestamp_literals: true,
            regex_literals: true,
            string_format: true,
        };
        env.cross_type_numeric_comparisons = true;
        env.k8s_provider = true;
        env
    }

    /// An environment with the given libraries, no variables, no validators and
    /// without cross-type numeric comparisons (set them with the builder methods).
    pub fn new(libraries: Libraries) -> Env {
        let functions = Arc::new(libraries.functions());
        Env::with_libraries(libraries, functions)
    }

    fn with_libraries(libraries: Libraries, functions: Arc<FunctionSet>) -> Env {
        let mut type_idents = HashMap::new();
        for t in [
            Type::Bool,
            Type::Bytes,
            Type::Double,
            Type::Duration,
            Type::Int,
            Type::list(Type::Dyn),
            Type::map(Type::Dyn, Type::Dyn),
            Type::Null,
            Type::String,
            Type::Timestamp,
            Type::TypeOf(None),
            Type::Uint,
        ] {
            type_idents.insert(t.type_name().to_string(), t);
        }
        type_idents.insert(
            "google.protobuf.Empty".to_string(),
            Type::object("google.protobuf.Empty"),
        );
        if libraries.optional {
            type_idents.insert(
                crate::cel::types::OPTIONAL_TYPE_NAME.to_string(),
                Type::optional(Type::param("T")),
            );
        }
        if libraries.k8s {
            type_idents.insert("net.IP".to_string(), Type::opaque("net.IP"));
            type_idents.insert("net.CIDR".to_string(), Type::opaque("net.CIDR"));
        }
        let mut structs = HashMap::new();
        for (name, fields) in well_known_messages() {
            structs.insert(
                name.to_string(),
                StructType {
                    fields: fields.into_iter().map(|(f, t)| (f.to_string(), t)).collect(),
                    nameable: true,
                },
            );
        }
        Env {
            functions,
            variables: HashMap::new(),
            container: String::new(),
            structs,
            type_idents,
            k8s_provider: false,
            cross_type_numeric_comparisons: false,
            validators: Validators::none(),
            libraries,
        }
    }

    /// Declares a variable.
    pub fn add_variable(&mut self, name: &str, ty: Type) -> &mut Env {
        self.variables.insert(
            name.to_string(),
            Variable {
                name: name.to_string(),
                ty,
                value: None,
            },
        );
        self
    }

    /// Declares a constant.
    pub fn add_constant(&mut self, name: &str, ty: Type, value: Literal) -> &mut Env {
        self.variables.insert(
            name.to_string(),
            Variable {
                name: name.to_string(),
                ty,
                value: Some(value),
            },
        );
        self
    }

    /// Adds overloads to a function (after any it has).
    pub fn add_function(&mut self, name: &str, overloads: Vec<OverloadDecl>) -> &mut Env {
        Arc::make_mut(&mut self.functions).add(name, overloads);
        self
    }

    /// Declares an object type with its fields.
    pub fn add_struct_type(&mut self, name: &str, ty: StructType) -> &mut Env {
        self.structs.insert(name.to_string(), ty);
        self
    }

    /// Sets the container (namespace) for name resolution, e.g. `a.b`.
    pub fn set_container(&mut self, container: &str) -> &mut Env {
        self.container = container.to_string();
        self
    }

    /// Enables or disables cross-type numeric comparisons (`1 < 2.0`).
    pub fn set_cross_type_numeric_comparisons(&mut self, enabled: bool) -> &mut Env {
        self.cross_type_numeric_comparisons = enabled;
        self
    }

    /// Sets the validators run after type checking.
    pub fn set_validators(&mut self, validators: Validators) -> &mut Env {
        self.validators = validators;
        self
    }

    /// The declared functions.
    pub fn functions(&self) -> &FunctionSet {
        &self.functions
    }

    /// The libraries of this environment.
    pub fn libraries(&self) -> &Libraries {
        &self.libraries
    }

    /// The container name.
    pub fn container(&self) -> &str {
        &self.container
    }

    /// The fields of an object type.
    pub fn struct_type(&self, name: &str) -> Option<&StructType> {
        self.structs.get(name)
    }

    /// cel-go's `Container.ResolveCandidateNames`: `a.b.c.name`, `a.b.name`,
    /// `a.name`, `name` for container `a.b.c`; a leading dot means the name is
    /// already fully qualified.
    pub(crate) fn candidate_names(&self, name: &str) -> Vec<String> {
        if let Some(stripped) = name.strip_prefix('.') {
            return vec![stripped.to_string()];
        }
        let mut out = Vec::new();
        let mut prefix = self.container.as_str();
        while !prefix.is_empty() {
            out.push(format!("{prefix}.{name}"));
            prefix = match prefix.rfind('.') {
                Some(i) => &prefix[..i],
                None => "",
            };
        }
        out.push(name.to_string());
        out
    }

    /// cel-go's `lookupFunction`.
    pub(crate) fn lookup_function(&self, name: &str) -> Option<&FunctionDecl> {
        self.candidate_names(name)
            .into_iter()
            .find_map(|c| self.functions.get(&c))
    }

    /// cel-go's `isOverloadDisabled`: without cross-type numeric comparisons the
    /// mixed-type ordering overloads are not considered.
    pub(crate) fn is_overload_disabled(&self, id: &str) -> bool {
        if self.cross_type_numeric_comparisons {
            return false;
        }
        let mixed = [
            "_int64_double",
            "_int64_uint64",
            "_uint64_double",
            "_uint64_int64",
            "_double_int64",
            "_double_uint64",
        ];
        (id.starts_with("less_") || id.starts_with("greater_")) && mixed.iter().any(|m| id.ends_with(m))
    }

    /// A type name as a value (cel-go's provider `FindIdent`, then `FindStructType`):
    /// the type `T` the identifier denotes.
    pub(crate) fn find_type_ident(&self, name: &str) -> Option<Type> {
        if let Some(t) = self.type_idents.get(name) {
            return Some(t.clone());
        }
        self.find_struct_type(name)
    }

    /// cel-go's provider `FindStructType` as used for identifiers and message
    /// literals: the object type `name` denotes.
    pub(crate) fn find_struct_type(&self, name: &str) -> Option<Type> {
        if let Some(s) = self.structs.get(name)
            && s.nameable
        {
            return Some(well_known_sanitized(name).unwrap_or_else(|| Type::object(name)));
        }
        if self.k8s_provider {
            match name {
                "duration" => return Some(Type::Duration),
                "timestamp" => return Some(Type::Timestamp),
                _ => {}
            }
        }
        None
    }

    /// Whether field selection on the object type `name` can be resolved (cel-go's
    /// `FindStructType` in `lookupFieldType`).
    pub(crate) fn struct_known(&self, name: &str) -> bool {
        self.structs.contains_key(name)
    }

    /// cel-go's `FindStructFieldType`.
    pub(crate) fn find_field_type(&self, struct_name: &str, field: &str) -> Option<Type> {
        let s = self.structs.get(struct_name)?;
        if let Some(t) = s.fields.get(field) {
            return Some(t.clone());
        }
        if self.k8s_provider && RESERVED_SYMBOLS.contains(&field) {
            return s.fields.get(&format!("__{field}__")).cloned();
        }
        None
    }

    /// cel-go's enum values known to the registry (only the well-known
    /// `google.protobuf.NullValue.NULL_VALUE`).
    pub(crate) fn find_enum_value(&self, name: &str) -> Option<Variable> {
        (name == "google.protobuf.NullValue.NULL_VALUE").then(|| Variable {
            name: name.to_string(),
            ty: Type::Int,
            value: Some(Literal::Int(0)),
        })
    }
}

/// Kubernetes' `celReservedSymbols`: property names escaped as `__<word>__`.
pub const RESERVED_SYMBOLS: [&str; 21] = [
    "true",
    "false",
    "null",
    "in",
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
];

/// cel-go's `checkedWellKnowns`: message names that stand for CEL types.
fn well_known_sanitized(name: &str) -> Option<Type> {
    let w = |t: Type| Some(Type::Wrapper(Box::new(t)));
    match name {
        "google.protobuf.BoolValue" => w(Type::Bool),
        "google.protobuf.BytesValue" => w(Type::Bytes),
        "google.protobuf.DoubleValue" | "google.protobuf.FloatValue" => w(Type::Double),
        "google.protobuf.Int64Value" | "google.protobuf.Int32Value" => w(Type::Int),
        "google.protobuf.UInt64Value" | "google.protobuf.UInt32Value" => w(Type::Uint),
        "google.protobuf.StringValue" => w(Type::String),
        "google.protobuf.Any" => Some(Type::Any),
        "google.protobuf.Duration" => Some(Type::Duration),
        "google.protobuf.Timestamp" => Some(Type::Timestamp),
        "google.protobuf.ListValue" => Some(Type::list(Type::Dyn)),
        "google.protobuf.NullValue" => Some(Type::Null),
        "google.protobuf.Struct" => Some(Type::map(Type::String, Type::Dyn)),
        "google.protobuf.Value" => Some(Type::Dyn),
        _ => None,
    }
}

/// The protobuf well-known messages cel-go's default registry knows, with their
/// fields (for message literals such as `google.protobuf.Int64Value{value: 1}`).
fn well_known_messages() -> Vec<(&'static str, Vec<(&'static str, Type)>)> {
    let value = |t: Type| vec![("value", t)];
    vec![
        ("google.protobuf.BoolValue", value(Type::Bool)),
        ("google.protobuf.BytesValue", value(Type::Bytes)),
        ("google.protobuf.DoubleValue", value(Type::Double)),
        ("google.protobuf.FloatValue", value(Type::Double)),
        ("google.protobuf.Int64Value", value(Type::Int)),
        ("google.protobuf.Int32Value", value(Type::Int)),
        ("google.protobuf.UInt64Value", value(Type::Uint)),
        ("google.protobuf.UInt32Value", value(Type::Uint)),
        ("google.protobuf.StringValue", value(Type::String)),
        (
            "google.protobuf.Any",
            vec![("type_url", Type::String), ("value", Type::Bytes)],
        ),
        (
            "google.protobuf.Duration",
            vec![("seconds", Type::Int), ("nanos", Type::Int)],
        ),
        (
            "google.protobuf.Timestamp",
            vec![("seconds", Type::Int), ("nanos", Type::Int)],
        ),
        ("google.protobuf.ListValue", vec![("values", Type::list(Type::Dyn))]),
        (
            "google.protobuf.Struct",
            vec![("fields", Type::map(Type::String, Type::Dyn))],
        ),
        (
            "google.protobuf.Value",
            vec![
                ("null_value", Type::Null),
                ("number_value", Type::Double),
                ("string_value", Type::String),
                ("bool_value", Type::Bool),
                ("struct_value", Type::map(Type::String, Type::Dyn)),
                ("list_value", Type::list(Type::Dyn)),
            ],
        ),
        ("google.protobuf.Empty", vec![]),
    ]
}
