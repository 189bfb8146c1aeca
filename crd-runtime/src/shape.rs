//! Admission steps driven by a schema held as static data.
//!
//! Every generated object type describes its schema as a tree of `static` [`Shape`]s
//! (`ObjectSchema::shape`); a node of another generated type is a small shape pointing
//! at that type's own ([`Shape::of_type`]). The steps here walk that tree: one
//! implementation compiled once in this crate, where a function per type and step
//! would be compiled again in every user's crate. Generated code is compiled on every
//! clean build of the user's crate, so its size is what users pay; these steps are
//! the API server's per-node algorithms, written once:
//!
//! - [`prune`]: `prune`/`skipPrune` and `PruneNonNullableNullsWithoutDefaults` in one
//!   pass (both decide per key from the key's schema alone);
//! - [`default`]: Go's `Default` (structural defaulting);
//! - [`ratchet_equal`]: `CorrelatedObject.CachedDeepEqual`;
//! - [`validate_lists`]: `listtype.ValidateListSetsAndMaps`;
//! - [`validate`]: kube-openapi's `SchemaValidator` with the API server's ratcheting,
//!   each node's own keywords checked by [`crate::openapi::node`];
//! - [`is_valid`]: whether [`validate`] would find nothing, without building a
//!   result (the fast path every valid object takes).

use crate::errors::{ErrorList, Path};
use crate::listtype::{self, ListType};
use crate::openapi::{self, Branch, JsonType, Junctors, Lit, Node, Res, Types};
use crate::ratchet::{self, CorrelationSchema, MapList};
use crate::schema::{old_field, prune_all, prune_items_unknown, record_pruned};
use serde_json::{Map, Value};

/// One schema node of a generated type, as static data.
#[derive(Debug)]
pub struct Shape {
    /// For a node of another generated type: that type's shape, which gives the
    /// structure. Of such a node only the field's own keywords are set here
    /// (`nullable`, `default`, and the `has_*` summaries).
    pub of_type: Option<fn() -> &'static Shape>,
    /// The node's own value keywords (type, format, bounds, `enum`, ...).
    pub node: &'static Node<'static>,
    /// A generated type's own node: its compiled [`check`], which checks the
    /// object's properties with a `match` on the key instead of a lookup and takes
    /// the same decisions (and records the same [`Trail`]) as the walk over this data.
    pub is_valid: Option<fn(&Value, &mut Trail) -> bool>,
    /// Whether `node` has nothing but a `type` (one JSON type, no format): then a
    /// value of that type passes the node's own keywords without reading them.
    pub bare_node: bool,
    /// Set when the node's only keyword is a `type`: a value of that type is valid
    /// with nothing more to check. A shortcut for the common leaf; any other value
    /// takes the full check.
    pub plain: Option<JsonType>,
    pub nullable: bool,
    pub default: Option<Lit<'static>>,
    /// Sorted by length, then by name (see `cmp_names`).
    pub properties: &'static [Property],
    /// Where each name length starts in `properties`: the properties of length `n`
    /// are `properties[by_len[n]..by_len[n + 1]]`, so a lookup is one index and a
    /// compare or two. Generated code fills it; left empty, lookups binary-search.
    pub by_len: &'static [u16],
    pub additional: Additional,
    pub items: Option<&'static Shape>,
    pub required: &'static [&'static str],
    pub all_of: &'static [&'static Shape],
    pub any_of: &'static [&'static Shape],
    pub one_of: &'static [&'static Shape],
    pub not: Option<&'static Shape>,
    pub preserve_unknown_fields: bool,
    pub embedded_resource: bool,
    /// The root of a resource: pruned as an embedded resource (its `apiVersion`,
    /// `kind` and `metadata` kept).
    pub resource_root: bool,
    pub list_type: Option<ListType>,
    pub list_map_keys: &'static [&'static str],
    /// Whether defaulting can change anything at or below this node.
    pub has_defaults: bool,
    /// Whether a list of type `set` or `map` is at or below this node.
    pub has_lists: bool,
}

/// A property: its name and schema, and whether it is `required`.
#[derive(Debug)]
pub struct Property {
    pub name: &'static str,
    pub shape: &'static Shape,
    pub required: bool,
}

impl Property {
    /// What generated code writes for each property (shorter than the struct literal).
    pub const fn new(name: &'static str, shape: &'static Shape, required: bool) -> Property {
        Property { name, shape, required }
    }
}

/// `additionalProperties`.
#[derive(Clone, Copy, Debug)]
pub enum Additional {
    /// Not given.
    None,
    /// `true` or `false`.
    Bool(bool),
    Schema(&'static Shape),
}

impl Shape {
    /// A node with nothing set, to start `static` definitions from.
    pub const EMPTY: Shape = Shape {
        of_type: None,
        node: &Node::ANY,
        is_valid: None,
        plain: None,
        bare_node: false,
        nullable: false,
        default: None,
        properties: &[],
        by_len: &[],
        additional: Additional::None,
        items: None,
        required: &[],
        all_of: &[],
        any_of: &[],
        one_of: &[],
        not: None,
        preserve_unknown_fields: false,
        embedded_resource: false,
        resource_root: false,
        list_type: None,
        list_map_keys: &[],
        has_defaults: false,
        has_lists: false,
    };

    /// A node of another generated type, of which `shape` gives the structure: what
    /// generated code starts such a node's static from.
    pub const fn typed(shape: fn() -> &'static Shape) -> Shape {
        Shape {
            of_type: Some(shape),
            ..Shape::EMPTY
        }
    }

    /// A node with the value keywords `node`: what generated code starts a node's
    /// static from.
    pub const fn with_node(node: &'static Node<'static>) -> Shape {
        Shape { node, ..Shape::EMPTY }
    }

    /// [`Shape::with_node`] for a node whose only keyword is its one JSON type
    /// (`bare_node`).
    pub const fn bare(node: &'static Node<'static>) -> Shape {
        Shape {
            node,
            bare_node: true,
            ..Shape::EMPTY
        }
    }

    const fn leaf(node: &'static Node<'static>) -> Shape {
        let plain = match node.types {
            Types::One(t) if node.format.is_empty() => Some(t),
            _ => None,
        };
        Shape {
            node,
            plain,
            bare_node: plain.is_some(),
            ..Shape::EMPTY
        }
    }

    // Leaves whose only keywords are a type (and an integer format): what most
    // properties are, shared instead of a static each. They set `plain` and
    // `bare_node`, so other definitions start from `EMPTY`, not from these.
    /// `type: string`.
    pub const STRING: Shape = Shape::leaf(&Node::STRING);
    /// `type: integer`.
    pub const INTEGER: Shape = Shape::leaf(&Node::INTEGER);
    /// `type: integer`, `format: int32`.
    pub const INT32: Shape = Shape::leaf(&Node::INT32);
    /// `type: integer`, `format: int64`.
    pub const INT64: Shape = Shape::leaf(&Node::INT64);
    /// `type: number`.
    pub const NUMBER: Shape = Shape::leaf(&Node::NUMBER);
    /// `type: boolean`.
    pub const BOOLEAN: Shape = Shape::leaf(&Node::BOOLEAN);
    /// `type: object` and nothing else.
    pub const OBJECT: Shape = Shape::leaf(&Node::OBJECT);
    /// `type: array` and nothing else.
    pub const ARRAY: Shape = Shape::leaf(&Node::ARRAY);
    /// `x-kubernetes-int-or-string`.
    pub const INT_OR_STRING: Shape = Shape::leaf(&Node::INT_OR_STRING);
    /// No keywords.
    pub const ANY: Shape = Shape::EMPTY;

    /// The shape that gives this node's structure: the named type's for a node of
    /// another type, else this one.
    #[inline]
    pub fn resolved(&'static self) -> &'static Shape {
        match self.of_type {
            Some(shape) => shape(),
            None => self,
        }
    }

    /// The schema of property `name`.
    #[inline]
    pub fn property(&self, name: &str) -> Option<&'static Shape> {
        self.property_entry(name).map(|p| p.shape)
    }

    /// The property entry of `name`.
    #[inline]
    fn property_entry(&self, name: &str) -> Option<&'static Property> {
        let props = self.properties;
        if self.by_len.is_empty() {
            return props
                .binary_search_by(|p| cmp_names(p.name, name))
                .ok()
                .and_then(|i| props.get(i));
        }
        let n = name.len();
        let (Some(&start), Some(&end)) = (self.by_len.get(n), self.by_len.get(n + 1)) else {
            return None;
        };
        props
            .get(usize::from(start)..usize::from(end))?
            .iter()
            .find(|p| same_name(p.name.as_bytes(), name.as_bytes()))
    }

    fn has_junctors(&self) -> bool {
        !self.all_of.is_empty() || !self.any_of.is_empty() || !self.one_of.is_empty() || self.not.is_some()
    }

    /// A node of a derived type whose field is `nullable` while the type's own node
    /// is not: `null` there is valid and not validated further.
    #[inline]
    fn null_allowed_by_field(&'static self, value: &Value) -> bool {
        self.of_type.is_some() && self.nullable && value.is_null() && !self.resolved().nullable
    }

    fn additional_schema(&self) -> Option<&'static Shape> {
        match self.additional {
            Additional::Schema(s) => Some(s),
            _ => None,
        }
    }

    /// Whether a `null` at this node is dropped (non-nullable, no default).
    #[inline]
    fn drops_null(&self) -> bool {
        !self.nullable && self.default.is_none()
    }
}

/// `a == b` inline, a word at a time: property names are short, and a call to
/// `memcmp` per lookup was a quarter of the time spent checking a valid object.
#[inline(always)]
fn same_name(a: &[u8], b: &[u8]) -> bool {
    fn word<const N: usize>(s: &[u8], at: usize) -> Option<[u8; N]> {
        s.get(at..at + N).and_then(|w| w.try_into().ok())
    }
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n >= 8 {
        // Whole words from the front, then the word ending at the last byte.
        let mut at = 0;
        while at + 8 < n {
            if word::<8>(a, at) != word::<8>(b, at) {
                return false;
            }
            at += 8;
        }
        word::<8>(a, n - 8) == word::<8>(b, n - 8)
    } else if n >= 4 {
        word::<4>(a, 0) == word::<4>(b, 0) && word::<4>(a, n - 4) == word::<4>(b, n - 4)
    } else {
        a.iter().zip(b).all(|(x, y)| x == y)
    }
}

/// The order of [`Shape::properties`]: by length, then by bytes. A lookup then
/// compares lengths (integers) until it meets names of the key's length, as a
/// `match` on strings does, instead of comparing bytes at every step.
#[inline]
fn cmp_names(a: &str, b: &str) -> std::cmp::Ordering {
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

// ---- prune ----

/// `prune` at a node of `shape` (a generated type's own node, or a child), dropping
/// non-nullable nulls without defaults below it.
pub fn prune(shape: &'static Shape, value: &mut Value, path: &Path, pruned: &mut Vec<String>) {
    let s = shape.resolved();
    let embedded = s.embedded_resource || s.resource_root;
    if s.preserve_unknown_fields {
        skip_prune(s, value, path, pruned, embedded);
        return;
    }
    match value {
        Value::Object(map) => {
            map.retain(|key, child| prune_key(s, s.property(key), key, child, path, pruned, embedded, false))
        }
        Value::Array(items) => match s.items {
            Some(item) => {
                for (i, v) in items.iter_mut().enumerate() {
                    prune(item, v, &path.index(i), pruned);
                }
            }
            None => prune_items_unknown(items, path, pruned),
        },
        _ => {}
    }
}

/// `skipPrune` (`x-kubernetes-preserve-unknown-fields`): unknown fields stay; known
/// ones are pruned and their nulls dropped.
fn skip_prune(s: &'static Shape, value: &mut Value, path: &Path, pruned: &mut Vec<String>, embedded: bool) {
    match value {
        Value::Object(map) if !s.properties.is_empty() || !matches!(s.additional, Additional::None) => {
            map.retain(|key, child| prune_key(s, s.property(key), key, child, path, pruned, embedded, true))
        }
        Value::Array(items) => {
            if let Some(item) = s.items {
                let item = item.resolved();
                for (i, v) in items.iter_mut().enumerate() {
                    skip_prune(item, v, &path.index(i), pruned, item.embedded_resource);
                }
            }
        }
        _ => {}
    }
}

/// Prunes the value of `key` of an object of `s` (`prop` its property's schema, if
/// it is one); returns whether to keep the key.
#[allow(clippy::too_many_arguments, reason = "the walk's state, passed down")]
fn prune_key(
    s: &'static Shape,
    prop: Option<&'static Shape>,
    key: &str,
    child: &mut Value,
    path: &Path,
    pruned: &mut Vec<String>,
    embedded: bool,
    keep_unknown: bool,
) -> bool {
    if embedded && matches!(key, "apiVersion" | "kind" | "metadata") {
        // Meta fields are not pruned; their nulls are dropped by their schema.
        return match prop.or(s.additional_schema()) {
            Some(c) => {
                drop_nulls(c, child);
                !(c.drops_null() && child.is_null())
            }
            None => true,
        };
    }
    let (c, child_path) = match prop {
        Some(c) => (c, path.field(key)),
        None => match s.additional {
            Additional::Schema(c) => (c, path.key(key)),
            Additional::Bool(_) => {
                prune_all(child, &path.key(key), pruned);
                return true;
            }
            Additional::None if keep_unknown => return true,
            Additional::None => {
                record_pruned(pruned, path, key);
                return false;
            }
        },
    };
    prune(c, child, &child_path, pruned);
    !(c.drops_null() && child.is_null())
}

/// `PruneNonNullableNullsWithoutDefaults` below an embedded resource's meta field
/// (which pruning leaves alone).
fn drop_nulls(shape: &'static Shape, value: &mut Value) {
    let s = shape.resolved();
    match value {
        Value::Object(map) => map.retain(|key, child| match s.property(key).or(s.additional_schema()) {
            Some(c) => {
                if c.drops_null() && child.is_null() {
                    return false;
                }
                drop_nulls(c, child);
                true
            }
            None => true,
        }),
        Value::Array(items) => {
            if let Some(item) = s.items {
                for v in items {
                    drop_nulls(item, v);
                }
            }
        }
        _ => {}
    }
}

// ---- default ----

/// `Default` at a node of `shape`.
pub fn default(shape: &'static Shape, value: &mut Value) {
    if !shape.has_defaults {
        return;
    }
    let s = shape.resolved();
    match value {
        Value::Object(map) => default_object(s, map),
        Value::Array(items) => {
            if let Some(item) = s.items {
                for v in items.iter_mut() {
                    if v.is_null()
                        && !item.nullable
                        && let Some(d) = item.default
                    {
                        *v = d.to_value();
                    }
                    default(item, v);
                }
            }
        }
        _ => {}
    }
}

fn default_object(s: &'static Shape, map: &mut Map<String, Value>) {
    // One pass over the properties: a property's default is inserted, then the
    // defaults below it applied (Go inserts every property's first, then walks the
    // keys; no property's defaulting reads another's). Properties and
    // additionalProperties never come together (structural schemas).
    for p in s.properties {
        let (own, below) = (p.shape.default, p.shape.has_defaults);
        if own.is_none() && !below {
            continue;
        }
        // One lookup when the key is there; an absent key's default is inserted
        // through `entry` (the key is allocated then anyway).
        let child = match (map.get_mut(p.name), own) {
            (Some(child), Some(d)) => {
                // `x[k] = default` also for `null` in a non-nullable property.
                if child.is_null() && !p.shape.nullable {
                    *child = d.to_value();
                }
                child
            }
            (Some(child), None) => child,
            (None, Some(d)) => map.entry(p.name.to_string()).or_insert_with(|| d.to_value()),
            (None, None) => continue,
        };
        if below {
            default(p.shape, child);
        }
    }
    if let Some(c) = s.additional_schema() {
        for (key, child) in map.iter_mut() {
            if s.property_entry(key).is_none() {
                if child.is_null() && !c.nullable {
                    *child = c.default.map(Lit::to_value).unwrap_or(Value::Null);
                }
                default(c, child);
            }
        }
    }
}

// ---- ratchet equality ----

/// `CorrelatedObject.CachedDeepEqual` of `value` and `old` at a node of `shape`.
pub fn ratchet_equal(shape: &'static Shape, value: &Value, old: &Value) -> bool {
    ratchet::deep_equal(value, old, shape.resolved())
}

impl CorrelationSchema for Shape {
    type Key = &'static str;

    fn field_schema(&self, name: &str) -> Option<&Shape> {
        self.property(name).or(self.additional_schema()).map(Shape::resolved)
    }

    fn items_schema(&self) -> Option<&Shape> {
        self.items.map(Shape::resolved)
    }

    fn list_type(&self) -> Option<ListType> {
        self.list_type
    }

    fn list_map_keys(&self) -> &[&'static str] {
        self.list_map_keys
    }

    fn is_array(&self) -> bool {
        self.items.is_some()
    }
}

// ---- list sets and maps ----

/// `ValidateListSetsAndMaps` for a value of `shape` at `path`: lists of type `set`
/// must not repeat an element, lists of type `map` an element's keys.
pub fn validate_lists(shape: &'static Shape, value: &Value, path: &Path, errs: &mut ErrorList) {
    if !shape.has_lists {
        return;
    }
    let s = shape.resolved();
    match value {
        Value::Array(items) => {
            if matches!(s.list_type, Some(ListType::Set | ListType::Map)) {
                listtype::validate_list(path, s.list_type, s.list_map_keys, items, errs);
            }
            if let Some(item) = s.items {
                for (i, v) in items.iter().enumerate() {
                    validate_lists(item, v, &path.index(i), errs);
                }
            }
        }
        Value::Object(map) => {
            // Go walks additionalProperties and properties in two separate loops.
            if let Some(c) = s.additional_schema() {
                for (key, v) in map {
                    validate_lists(c, v, &path.key(key), errs);
                }
            }
            for (key, v) in map {
                if let Some(c) = s.property(key) {
                    validate_lists(c, v, &path.field(key), errs);
                }
            }
        }
        _ => {}
    }
}

// ---- validation ----

/// OpenAPI validation of a generated type's node (`ObjectSchema::validate_value`):
/// its result merged into `res`, with ratcheting against `old` (the correlated old
/// value on update).
///
/// The fast [`check`] runs first: a valid value has no errors to report, ratcheted
/// or not. On an invalid one, the walk starts from where the check failed (its
/// [`Trail`]) and checks each remaining value once. Returns whether the check passed,
/// which also means that [`validate_lists`] finds nothing.
pub fn validate(shape: &'static Shape, value: &Value, old: Option<&Value>, path: &Path, res: &mut Res) -> bool {
    let mut trail = Trail::new();
    if check(shape, value, &mut trail) {
        return true;
    }
    validate_in(Walk::SkipValid, &trail.outermost_first(), shape, value, old, path, res);
    false
}

/// How the error walk treats a subtree that [`is_valid`] passes.
#[derive(Clone, Copy, PartialEq)]
enum Walk {
    /// Skip a value that passes: it has no errors to report, ratcheted or not, and
    /// the fast check is much cheaper than the walk, which runs every keyword's
    /// error-reporting step.
    /// A failing value is walked from where its check failed.
    SkipValid,
    /// Walk it: below a junctor branch, whose results are compared by how many
    /// checks they counted (`match_count`), which a skipped subtree would not add.
    Count,
}

/// [`validate`] of the entry at position `i` of a node (an object's entry or a list's
/// element), skipped as `walk` says. `trail` is where the fast check of the node
/// failed, outermost first: the failing entry is walked without another check (the
/// callers skip the entries before it, see [`passed`]).
#[allow(clippy::too_many_arguments, reason = "the walk's state, passed down")]
fn validate_entry(
    walk: Walk,
    trail: &[u32],
    i: usize,
    shape: &'static Shape,
    value: &Value,
    old: Option<&Value>,
    path: &Path,
    res: &mut Res,
) {
    if walk == Walk::SkipValid {
        if let Some((&at, below)) = trail.split_first()
            && i == at as usize
        {
            return validate_in(walk, below, shape, value, old, path, res);
        }
        let mut failed = Trail::new();
        if check(shape, value, &mut failed) {
            return;
        }
        return validate_in(walk, &failed.outermost_first(), shape, value, old, path, res);
    }
    validate_in(walk, &[], shape, value, old, path, res)
}

fn validate_in(
    walk: Walk,
    trail: &[u32],
    shape: &'static Shape,
    value: &Value,
    old: Option<&Value>,
    path: &Path,
    res: &mut Res,
) {
    if shape.null_allowed_by_field(value) {
        return;
    }
    let s = shape.resolved();
    let start = res.errors.len();
    node(walk, trail, s, value, old, path, res);
    // Ratcheting: a node with errors that equals its old value reports none of them.
    if res.errors.len() > start && old.is_some_and(|old| ratchet_equal(s, value, old)) {
        res.errors.truncate(start);
    }
}

/// The status subresource's validation: the root's `status` property alone, as the
/// root's walk validates it.
pub fn validate_status(shape: &'static Shape, value: &Value, old: Option<&Value>, res: &mut Res) {
    let s = shape.resolved();
    if let (Some(child), Some(c)) = (value.get("status"), s.property("status")) {
        validate(c, child, old_field(old, "status"), &Path::Root.field("status"), res);
    }
}

/// `SchemaValidator.Validate` of one node: its own keywords, junctor branches
/// (validated plainly, as kube-openapi validates sub-schemas: nothing below them
/// ratchets), items, then the object walk.
#[allow(clippy::too_many_arguments, reason = "the walk's state, passed down")]
fn node(walk: Walk, trail: &[u32], s: &'static Shape, v: &Value, old: Option<&Value>, path: &Path, r: &mut Res) {
    if walk == Walk::SkipValid && !trail.is_empty() {
        // The fast check failed at an entry of this node, past its own keywords and
        // junctors: only the entries (and `required`) can have errors.
        match v {
            Value::Object(map) => object(walk, trail, s, map, old, path, r),
            Value::Array(items) => elements(walk, trail, s, items, old, path, r),
            _ => {}
        }
        return;
    }
    let branch = |b: &'static Shape| {
        move |bv: &Value, bp: &Path, br: &mut Res| node(Walk::Count, &[], b.resolved(), bv, None, bp, br)
    };
    let closures = |bs: &'static [&'static Shape]| bs.iter().map(|b| branch(b)).collect::<Vec<_>>();
    let (all_of, any_of, one_of) = if s.has_junctors() {
        (closures(s.all_of), closures(s.any_of), closures(s.one_of))
    } else {
        (Vec::new(), Vec::new(), Vec::new())
    };
    let not = s.not.map(branch);
    let all_of: Vec<Branch> = all_of.iter().map(|b| b as Branch).collect();
    let any_of: Vec<Branch> = any_of.iter().map(|b| b as Branch).collect();
    let one_of: Vec<Branch> = one_of.iter().map(|b| b as Branch).collect();
    let junctors = Junctors {
        all_of: &all_of,
        any_of: &any_of,
        one_of: &one_of,
        not: not.as_ref().map(|b| b as Branch),
    };
    openapi::node(
        v,
        path,
        s.node,
        s.has_junctors().then_some(&junctors),
        &mut |items, r| elements(walk, trail, s, items, old, path, r),
        &mut |map, r| object(walk, trail, s, map, old, path, r),
        r,
    )
}

/// The array validator's walk: each element against `items`.
#[allow(clippy::too_many_arguments, reason = "the walk's state, passed down")]
fn elements(
    walk: Walk,
    trail: &[u32],
    s: &'static Shape,
    items: &[Value],
    old: Option<&Value>,
    path: &Path,
    r: &mut Res,
) {
    let Some(item) = s.items else {
        return;
    };
    // Elements correlate with old ones only in a list of type map, by keys.
    let old_list = match old {
        Some(Value::Array(o)) if s.list_type == Some(ListType::Map) && !s.list_map_keys.is_empty() => {
            Some(MapList::with_keys(s.list_map_keys, o))
        }
        _ => None,
    };
    for (i, e) in items.iter().enumerate().skip(passed(walk, trail)) {
        let old_e = old_list.as_ref().and_then(|l| l.get(e));
        validate_entry(walk, trail, i, item, e, old_e, &path.index(i), r);
    }
}

/// How many entries of a node the walk skips: those before the one its fast check
/// failed at passed it, so none has an error to report (nor is a forbidden key).
fn passed(walk: Walk, trail: &[u32]) -> usize {
    match (walk, trail.first()) {
        (Walk::SkipValid, Some(&at)) => at as usize,
        _ => 0,
    }
}

/// The object validator's walk: additionalProperties values (keys that are not
/// properties), then properties (one pass over the entries), then `required`. At the
/// resource root, `apiVersion` and `kind` do not ratchet.
#[allow(clippy::too_many_arguments, reason = "the walk's state, passed down")]
fn object(
    walk: Walk,
    trail: &[u32],
    s: &'static Shape,
    map: &Map<String, Value>,
    old: Option<&Value>,
    path: &Path,
    r: &mut Res,
) {
    let passed = passed(walk, trail);
    match s.additional {
        Additional::Bool(false) => {
            for key in map.keys().skip(passed) {
                if s.property_entry(key).is_none() {
                    openapi::forbidden_property(key, path, r);
                }
            }
        }
        Additional::Schema(c) => {
            for (i, (key, child)) in map.iter().enumerate().skip(passed) {
                if s.property_entry(key).is_none() {
                    validate_entry(walk, trail, i, c, child, old_field(old, key), &path.key(key), r);
                }
            }
        }
        _ => {}
    }
    if !s.properties.is_empty() {
        for (i, (key, child)) in map.iter().enumerate().skip(passed) {
            if let Some(c) = s.property(key) {
                let old = match key.as_str() {
                    "apiVersion" | "kind" if s.resource_root => None,
                    _ => old_field(old, key),
                };
                validate_entry(walk, trail, i, c, child, old, &path.field(key), r);
            }
        }
    }
    if !s.required.is_empty() {
        openapi::required(map, s.required, path, r);
    }
}

// ---- the fast validity check ----

/// Where [`check`] found a value invalid: the position of the failing entry (an
/// object's entry in iteration order, or a list's element) at each level, recorded
/// innermost first as the check returns. A failure at a node's own keywords, its
/// `required` or its junctors records nothing more. The error walk starts from it
/// instead of checking again what the check already passed.
#[derive(Clone, Debug)]
pub struct Trail {
    at: [u32; Trail::DEPTH],
    len: usize,
    /// Deeper than `DEPTH` levels: the outer levels are lost, so none is used.
    lost: bool,
}

impl Trail {
    const DEPTH: usize = 16;

    pub const fn new() -> Self {
        Trail {
            at: [0; Trail::DEPTH],
            len: 0,
            lost: false,
        }
    }

    /// Records that the entry at position `i` of the node being checked failed, and
    /// returns the check's answer (`false`). Cold: valid objects never get here.
    #[cold]
    #[inline(never)]
    pub fn failed_at(&mut self, i: usize) -> bool {
        match (self.at.get_mut(self.len), u32::try_from(i)) {
            (Some(slot), Ok(i)) => {
                *slot = i;
                self.len += 1;
            }
            _ => self.lost = true,
        }
        false
    }

    /// The recorded positions from the checked node down (none if any was lost).
    fn outermost_first(&self) -> Steps {
        let mut steps = Steps {
            at: [0; Trail::DEPTH],
            len: 0,
        };
        if let (false, Some(at)) = (self.lost, self.at.get(..self.len)) {
            for (slot, &i) in steps.at.iter_mut().zip(at.iter().rev()) {
                *slot = i;
            }
            steps.len = at.len();
        }
        steps
    }
}

/// A [`Trail`]'s positions, outermost first.
struct Steps {
    at: [u32; Trail::DEPTH],
    len: usize,
}

impl std::ops::Deref for Steps {
    type Target = [u32];

    fn deref(&self) -> &[u32] {
        self.at.get(..self.len).unwrap_or_default()
    }
}

impl Default for Trail {
    fn default() -> Self {
        Trail::new()
    }
}

/// Whether [`validate`] and [`validate_lists`] would find nothing at a node of
/// `shape` (without ratcheting).
#[inline]
pub fn is_valid(shape: &'static Shape, value: &Value) -> bool {
    check(shape, value, &mut Trail::new())
}

/// [`is_valid`], recording where a failure is in `trail`.
#[inline(always)]
pub fn check(shape: &'static Shape, value: &Value, trail: &mut Trail) -> bool {
    if shape.plain.is_some_and(|t| openapi::json_type(value) == t) {
        return true;
    }
    check_node(shape, value, trail)
}

/// [`check`] past the shortcut for plain leaves (which callers take inline).
#[inline]
fn check_node(shape: &'static Shape, value: &Value, trail: &mut Trail) -> bool {
    if shape.null_allowed_by_field(value) {
        return true;
    }
    let s = shape.resolved();
    match s.is_valid {
        Some(compiled) => compiled(value, trail),
        None => check_data(s, value, trail),
    }
}

/// [`check`] by walking the data (`s` resolved). A string at a string node without
/// a format and an integer at an integer node (most leaves that are not plain) take
/// a short path; the general check is a large function, whose entry alone cost more
/// than that path.
fn check_data(s: &'static Shape, value: &Value, trail: &mut Trail) -> bool {
    let n = s.node;
    match value {
        Value::String(text) if n.types == Types::One(JsonType::String) && n.format.is_empty() && !s.has_junctors() => {
            openapi::string_ok(value, text, n)
        }
        Value::Number(number)
            if n.types == Types::One(JsonType::Integer)
                && matches!(n.format, "" | "int32" | "int64")
                && !s.has_junctors() =>
        {
            match number.as_i64() {
                Some(i) => openapi::integer_ok(value, i, n),
                None => check_general(s, value, trail),
            }
        }
        _ => check_general(s, value, trail),
    }
}

/// [`check_data`] of any node and value. Never inlined, so that its large frame is
/// not set up for the short path.
#[inline(never)]
fn check_general(s: &'static Shape, value: &Value, trail: &mut Trail) -> bool {
    if !node_ok(s, value) {
        return false;
    }
    if s.has_junctors() && !junctors_ok(s, value, trail) {
        return false;
    }
    match value {
        Value::Object(map) => object_ok(s, map, trail),
        Value::Array(items) => {
            if let Some(item) = s.items {
                for (i, v) in items.iter().enumerate() {
                    if !check(item, v, trail) {
                        return trail.failed_at(i);
                    }
                }
            }
            // A repeated element of a set or key of a map list fails the node itself
            // (the error walk finds no OpenAPI error there; `validate_lists` reports it).
            listtype::list_ok(s.list_type, s.list_map_keys, items)
        }
        _ => true,
    }
}

/// `value` passes the node's own keywords (its type, format, bounds, `enum`, ...).
#[inline(always)]
fn node_ok(s: &Shape, value: &Value) -> bool {
    let bare_match = s.bare_node && matches!(s.node.types, Types::One(t) if openapi::json_type(value) == t);
    bare_match || keywords_ok(value, s.node)
}

/// [`openapi::leaf_ok`], not inlined: most nodes that get here are objects and
/// arrays with only a type, which `node_ok` decides without it, and its code made
/// the frame of every caller large.
#[inline(never)]
fn keywords_ok(value: &Value, node: &Node) -> bool {
    openapi::leaf_ok(value, node)
}

// What a type's compiled check (`Shape::is_valid`) calls: `object_valid`, given a
// `match` on the key that checks each property.

/// The start of a type's compiled check at its node `s`: the object's entries when
/// `value` is an object that passes the node's own keywords, whose properties are
/// then left to check; else the whole answer.
fn object_start<'v>(s: &'static Shape, value: &'v Value, trail: &mut Trail) -> Result<&'v Map<String, Value>, bool> {
    match value {
        Value::Object(map) if !s.has_junctors() => match node_ok(s, value) {
            true => Ok(map),
            false => Err(false),
        },
        _ => Err(check_data(s, value, trail)),
    }
}

/// The compiled check of a generated type's object node (its `is_valid`): what the
/// data-driven check of an object does with a lookup per key, with a `match` on the name instead.
/// `property` checks one entry: a property by its shape (a required one through
/// [`check_required`], which counts it in `seen`), any other name by
/// [`other_key_ok`]. Inlined into each type's function, so the `match` is as fast as
/// one written out there.
#[inline(always)]
pub fn object_valid(
    s: &'static Shape,
    value: &Value,
    trail: &mut Trail,
    mut property: impl FnMut(&str, &Value, &mut Trail, &mut usize) -> bool,
) -> bool {
    let map = match object_start(s, value, trail) {
        Ok(map) => map,
        Err(valid) => return valid,
    };
    let mut seen = 0;
    for (i, (key, child)) in map.iter().enumerate() {
        if !property(key, child, trail, &mut seen) {
            return trail.failed_at(i);
        }
    }
    required_ok(s, map, seen)
}

/// [`check`] of a required property in [`object_valid`]: counted as met.
#[inline(always)]
pub fn check_required(shape: &'static Shape, value: &Value, trail: &mut Trail, seen: &mut usize) -> bool {
    *seen += 1;
    check(shape, value, trail)
}

/// A key of an object at node `s` that is not one of its properties.
#[inline]
pub fn other_key_ok(s: &'static Shape, child: &Value, trail: &mut Trail) -> bool {
    match s.additional {
        Additional::Schema(c) => check(c, child, trail),
        Additional::Bool(false) => false,
        _ => true,
    }
}

/// Whether `map` has the properties `s` requires, of which the pass over its
/// entries met `seen` (names beyond the properties are looked up).
#[inline]
fn required_ok(s: &'static Shape, map: &Map<String, Value>, seen: usize) -> bool {
    seen == s.required.len() || s.required.iter().all(|k| map.contains_key(*k))
}

/// anyOf needs one valid branch, oneOf exactly one, allOf all, not none. (A
/// branch's failures are not where the node fails: what they record is dropped.)
fn junctors_ok(s: &Shape, value: &Value, trail: &mut Trail) -> bool {
    let (len, lost) = (trail.len, trail.lost);
    let mut branch = |b: &&'static Shape| {
        let valid = check(b, value, trail);
        (trail.len, trail.lost) = (len, lost);
        valid
    };
    (s.any_of.is_empty() || s.any_of.iter().any(&mut branch))
        && (s.one_of.is_empty() || s.one_of.iter().filter(|b| branch(b)).count() == 1)
        && s.all_of.iter().all(&mut branch)
        && !s.not.as_ref().is_some_and(&mut branch)
}

fn object_ok(s: &'static Shape, map: &Map<String, Value>, trail: &mut Trail) -> bool {
    if s.properties.is_empty() && matches!(s.additional, Additional::None | Additional::Bool(true)) {
        return s.required.iter().all(|k| map.contains_key(*k));
    }
    // Required properties are counted as the pass meets them, which saves a lookup
    // each; names beyond the properties (or repeated) are looked up. (The same pass as
    // `object_valid`'s, written out: through `object_valid`'s closure form the error
    // path measured 5-10% slower.)
    let mut seen = 0;
    for (i, (key, child)) in map.iter().enumerate() {
        let ok = match s.property_entry(key) {
            Some(p) => {
                seen += usize::from(p.required);
                check(p.shape, child, trail)
            }
            None => other_key_ok(s, child, trail),
        };
        if !ok {
            return trail.failed_at(i);
        }
    }
    required_ok(s, map, seen)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    static NAME: Shape = Shape::STRING;
    static PORT: Shape = Shape {
        node: &Node::INT32,
        default: Some(Lit::Int(80)),
        has_defaults: false,
        ..Shape::EMPTY
    };
    /// `{name: string (required), port: int32 = 80}`, and `required` naming `host`,
    /// which is not a property.
    static SERVER: Shape = Shape {
        node: &Node::OBJECT,
        properties: &[
            Property {
                name: "name",
                shape: &NAME,
                required: true,
            },
            Property {
                name: "port",
                shape: &PORT,
                required: false,
            },
        ],
        required: &["name", "host"],
        has_defaults: true,
        ..Shape::EMPTY
    };
    static SERVERS: Shape = Shape {
        node: &Node::ARRAY,
        items: Some(&SERVER),
        has_defaults: true,
        ..Shape::EMPTY
    };
    fn server() -> &'static Shape {
        &SERVER
    }
    /// A field of the `SERVER` type that is nullable while the type is not.
    static NULLABLE_SERVER: Shape = Shape {
        of_type: Some(server),
        nullable: true,
        has_defaults: true,
        ..Shape::EMPTY
    };

    #[test]
    fn required_names_beyond_the_properties_are_looked_up() {
        assert!(is_valid(&SERVER, &json!({"name": "a", "host": "h"})));
        assert!(!is_valid(&SERVER, &json!({"name": "a"})), "host is required");
        assert!(!is_valid(&SERVER, &json!({"host": "h"})), "name is required");
        let mut res = Res::default();
        validate(&SERVER, &json!({"name": "a"}), None, &Path::Root, &mut res);
        let messages: Vec<String> = res.errors.iter().map(|e| e.message()).collect();
        // kube-openapi joins with a dot even at the root.
        assert_eq!(messages, [".host in body is required"]);
    }

    #[test]
    fn a_nullable_field_of_a_type_that_is_not_accepts_null() {
        assert!(is_valid(&NULLABLE_SERVER, &Value::Null));
        assert!(!is_valid(&SERVER, &Value::Null));
        let mut res = Res::default();
        validate(&NULLABLE_SERVER, &Value::Null, None, &Path::Root, &mut res);
        assert!(res.is_valid());
        // A value is validated by the type's shape.
        validate(&NULLABLE_SERVER, &json!({"port": "x"}), None, &Path::Root, &mut res);
        assert_eq!(res.errors.len(), 3, "{:?}", res.errors);
    }

    #[test]
    fn prune_records_unknown_fields_and_drops_non_nullable_nulls() {
        let mut v = json!([{"name": "a", "extra": {"x": 1}, "port": null}, {"name": null}]);
        let mut pruned = Vec::new();
        prune(&SERVERS, &mut v, &Path::Root, &mut pruned);
        // `port` has a default, so its null stays (defaulting replaces it).
        assert_eq!(v, json!([{"name": "a", "port": null}, {}]));
        assert_eq!(pruned, ["[0].extra"]);
    }

    #[test]
    fn defaults_fill_absent_and_null_properties_below_arrays() {
        let mut v = json!([{"name": "a"}, {"port": null}, {"port": 8080}]);
        default(&SERVERS, &mut v);
        assert_eq!(v, json!([{"name": "a", "port": 80}, {"port": 80}, {"port": 8080}]));
        let mut v = json!({"name": "a"});
        default(&NULLABLE_SERVER, &mut v);
        assert_eq!(v, json!({"name": "a", "port": 80}), "through the field's type");
    }

    #[test]
    fn lookups_by_length_find_the_same_properties_as_a_binary_search() {
        let names = ["a", "bc", "de", "fgh", "ijklmnop", "ijklmnoq", "qrstuvwxyzabcdefg"];
        let properties: Vec<Property> = names
            .iter()
            .map(|&name| Property {
                name,
                shape: &NAME,
                required: false,
            })
            .collect();
        let properties: &'static [Property] = Box::leak(properties.into_boxed_slice());
        // Entry n counts the names shorter than n, up to one past the longest.
        let mut by_len = vec![0u16; 19];
        for (n, entry) in by_len.iter_mut().enumerate() {
            *entry = names.iter().filter(|name| name.len() < n).count() as u16;
        }
        let indexed = Shape {
            properties,
            by_len: Box::leak(by_len.into_boxed_slice()),
            ..Shape::EMPTY
        };
        let searched = Shape {
            properties,
            ..Shape::EMPTY
        };
        let absent = [
            "",
            "b",
            "bd",
            "fgi",
            "ijklmnor",
            "ijklmno",
            "qrstuvwxyzabcdefh",
            "qrstuvwxyzabcdefgh",
        ];
        for key in names.iter().chain(&absent) {
            let found = indexed.property_entry(key).map(|p| p.name);
            assert_eq!(found, searched.property_entry(key).map(|p| p.name), "{key}");
            assert_eq!(found.is_some(), names.contains(key), "{key}");
        }
    }

    #[test]
    fn names_compare_equal_only_when_every_byte_does() {
        for len in 0..20 {
            let a: Vec<u8> = (0..len).map(|i| b'a' + i as u8).collect();
            assert!(same_name(&a, &a.clone()));
            for at in 0..len {
                let mut b = a.clone();
                b[at] = b'Z';
                assert!(!same_name(&a, &b), "{len} bytes, differing at {at}");
            }
        }
        assert!(!same_name(b"abc", b"abcd"));
    }

    #[test]
    fn the_check_records_where_it_failed() {
        let mut trail = Trail::new();
        // Element 1 fails at its first entry (`name`, position 0).
        assert!(!check(
            &SERVERS,
            &json!([{"name": "a", "host": "h"}, {"name": 1, "port": "x"}]),
            &mut trail
        ));
        assert_eq!(*trail.outermost_first(), [1, 0]);
        // A missing required property fails the element itself: nothing below it.
        let mut trail = Trail::new();
        assert!(!check(
            &SERVERS,
            &json!([{"name": "a", "host": "h"}, {"port": 1}]),
            &mut trail
        ));
        assert_eq!(*trail.outermost_first(), [1]);
        // Deeper than the trail holds: nothing is used.
        let mut deep = Trail::new();
        for _ in 0..=Trail::DEPTH {
            deep.failed_at(0);
        }
        assert!(deep.outermost_first().is_empty());
    }

    /// `SERVER`s as a list of type map keyed by `name`.
    static SERVER_MAP: Shape = Shape {
        node: &Node::ARRAY,
        items: Some(&SERVER),
        list_type: Some(ListType::Map),
        list_map_keys: &["name"],
        has_lists: true,
        ..Shape::EMPTY
    };

    #[test]
    fn the_check_covers_list_maps_and_sets() {
        let unique = json!([{"name": "a", "host": "h"}, {"name": "b", "host": "h"}]);
        let repeated = json!([{"name": "a", "host": "h"}, {"name": "a", "host": "i"}]);
        let lists = |v: &Value| {
            let mut errs = ErrorList::new();
            validate_lists(&SERVER_MAP, v, &Path::Root, &mut errs);
            errs.iter().map(|e| e.to_string()).collect::<Vec<_>>()
        };
        let mut res = Res::default();
        assert!(validate(&SERVER_MAP, &unique, None, &Path::Root, &mut res));
        assert!(res.is_valid() && lists(&unique).is_empty());
        // A repeated key fails the check, and so the caller runs `validate_lists`; the
        // error walk finds no OpenAPI error.
        assert!(!is_valid(&SERVER_MAP, &repeated));
        assert!(!validate(&SERVER_MAP, &repeated, None, &Path::Root, &mut res));
        assert!(res.is_valid(), "{:?}", res.errors);
        assert_eq!(lists(&repeated), ["[1]: Duplicate value: {\"name\":\"a\"}"]);
    }

    #[test]
    fn the_error_walk_reports_what_it_reported_without_skipping() {
        // A list whose first element is valid (skipped), and whose later ones fail
        // at their first entry, at `required`, and past an entry that passes.
        let mut res = Res::default();
        let v =
            json!([{"name": "a", "host": "h"}, {"name": 1, "port": "x"}, {"host": "h"}, {"name": "b", "port": 1.5}]);
        validate(&SERVERS, &v, None, &Path::Root, &mut res);
        let messages: Vec<String> = res.errors.iter().map(|e| e.message()).collect();
        let mut counted = Res::default();
        validate_in(Walk::Count, &[], &SERVERS, &v, None, &Path::Root, &mut counted);
        assert_eq!(messages, counted.errors.iter().map(|e| e.message()).collect::<Vec<_>>());
        assert!(
            messages
                .iter()
                .any(|m| m.starts_with("[1].name in body must be of type string")),
            "{messages:?}"
        );
        assert_eq!(messages.len(), 7, "{messages:?}");
    }
}
