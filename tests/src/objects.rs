//! Random objects for a CRD schema, for differential tests: "valid" objects that
//! follow the schema's types and constraints as far as a generator reasonably can
//! (patterns, formats, ranges, lengths, list sets and maps), with a sprinkling of
//! what admission must handle (unknown fields, nulls), and mutations that each break
//! one constraint.
//!
//! The generated objects need not be valid: the generated code and the reference
//! engine must agree on every input. Validity only makes the interesting paths
//! (defaulting, nested rules) reachable.

use crd_codegen::ir::{AdditionalProperties, ListType, Schema, Type};
use rand::rngs::StdRng;
use rand::{Rng, RngExt, SeedableRng};
use serde_json::{Map, Value, json};

pub struct Gen {
    rng: StdRng,
    /// Objects deeper than this get only their required properties.
    max_depth: usize,
}

impl Gen {
    pub fn new(seed: u64) -> Self {
        Gen {
            rng: StdRng::seed_from_u64(seed),
            max_depth: 6,
        }
    }

    fn chance(&mut self, p: f64) -> bool {
        self.rng.random_bool(p)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { self.rng.random_range(0..n) }
    }

    /// A resource object for `schema` (the version's root schema).
    pub fn resource(&mut self, api_version: &str, kind: &str, schema: &Schema) -> Value {
        let mut v = self.value(schema, 0);
        if !v.is_object() {
            v = json!({});
        }
        // A name of the form the schema asks for, if it asks (openshift's IP-named
        // kinds); otherwise one that is a valid name of any kind.
        let name_schema = schema.properties.get("metadata").and_then(|m| m.properties.get("name"));
        let name = match name_schema.map(|n| self.value(n, 1)) {
            Some(Value::String(name)) if !name.is_empty() => name,
            _ => format!("obj-{}", self.below(1000)),
        };
        // Singletons: a root rule `self.metadata.name == 'cluster'` names the object.
        let singleton = (schema.validations.iter()).find_map(|r| quoted_after(&r.rule, "self.metadata.name == '"));
        let name = singleton.unwrap_or(name);
        let map = v.as_object_mut().unwrap();
        map.insert("apiVersion".into(), json!(api_version));
        map.insert("kind".into(), json!(kind));
        map.insert("metadata".into(), json!({"name": name}));
        v
    }

    /// A value for `s`.
    pub fn value(&mut self, s: &Schema, depth: usize) -> Value {
        if s.nullable && self.chance(0.05) {
            return Value::Null;
        }
        // `anyOf` / `oneOf`: mostly a value for one branch, its value keywords laid
        // over the node's (`name: {type: string, anyOf: [{format: ipv4}, {pattern: ...}]}`).
        let branches = if s.any_of.is_empty() { &s.one_of } else { &s.any_of };
        if !branches.is_empty() && self.chance(0.9) {
            let branch = &branches[self.below(branches.len())];
            let mut merged = s.clone();
            merged.any_of.clear();
            merged.one_of.clear();
            overlay(&mut merged, branch);
            return self.value(&merged, depth);
        }
        if !s.enum_.is_empty() && self.chance(0.9) {
            let i = self.below(s.enum_.len());
            return s.enum_[i].clone();
        }
        if s.int_or_string {
            return if self.chance(0.5) {
                json!(self.rng.random_range(0..100))
            } else {
                json!(format!("{}%", self.rng.random_range(0..100)))
            };
        }
        match s.type_ {
            None => self.any(depth),
            Some(Type::Boolean) => json!(self.chance(0.5)),
            Some(Type::Integer) => self.integer(s),
            Some(Type::Number) => self.number(s),
            Some(Type::String) => json!(self.string(s)),
            Some(Type::Array) => self.array(s, depth),
            Some(Type::Object) => self.object(s, depth),
        }
    }

    fn any(&mut self, depth: usize) -> Value {
        match self.below(if depth > 3 { 4 } else { 6 }) {
            0 => json!(self.rng.random_range(-5..50)),
            1 => json!("text"),
            2 => json!(self.chance(0.5)),
            3 => Value::Null,
            4 => json!({"a": self.any(depth + 1), "b": [1, "x"]}),
            _ => json!([self.any(depth + 1)]),
        }
    }

    fn integer(&mut self, s: &Schema) -> Value {
        let (mut lo, mut hi) = (-3i64, 100i64);
        if let Some(min) = s.minimum {
            lo = min.ceil() as i64 + i64::from(s.exclusive_minimum && min.fract() == 0.0);
            hi = hi.max(lo + 10);
        }
        if let Some(max) = s.maximum {
            hi = max.floor() as i64 - i64::from(s.exclusive_maximum && max.fract() == 0.0);
            if s.minimum.is_none() {
                lo = lo.min(hi - 10);
            }
        }
        if hi < lo {
            return json!(lo);
        }
        let mut n = self.rng.random_range(lo..=hi);
        if let Some(m) = s.multiple_of.filter(|m| *m >= 1.0) {
            n = (n / m as i64) * m as i64;
        }
        json!(n)
    }

    fn number(&mut self, s: &Schema) -> Value {
        let lo = s.minimum.unwrap_or(-10.0);
        let hi = s.maximum.unwrap_or(lo + 100.0).max(lo);
        let f = self.rng.random_range(lo..=hi);
        let f = (f * 4.0).round() / 4.0;
        serde_json::Number::from_f64(f.clamp(lo, hi))
            .map(Value::Number)
            .unwrap_or(json!(0))
    }

    fn string(&mut self, s: &Schema) -> String {
        let min = s.min_length.unwrap_or(0).max(0) as usize;
        // Without maxLength, words stay short; a pattern's strings may need more room.
        let unbounded = if s.pattern.is_some() { 256 } else { min.max(12) };
        let max = s.max_length.map(|m| m.max(0) as usize).unwrap_or(unbounded);
        // A rule `self.matches('...')` constrains the string as a pattern would.
        let rule_pattern = (s.pattern.is_none())
            .then(|| {
                s.validations
                    .iter()
                    .find_map(|r| quoted_after(&r.rule, "self.matches('"))
            })
            .flatten();
        let pattern = s.pattern.clone().or(rule_pattern);
        if pattern.is_none() && s.format.is_none() && self.chance(0.1) {
            // Exactly at a bound: where an off-by-one check would differ.
            let at = match (s.min_length, s.max_length) {
                (_, Some(m)) if m <= 4096 && self.chance(0.5) => m as usize,
                (Some(m), _) => m.max(0) as usize,
                _ => min,
            };
            return self.word(at, at);
        }
        for _ in 0..8 {
            let candidate = match (&pattern, s.format.as_deref()) {
                (Some(p), _) => self.matching(p).unwrap_or_else(|| self.word(min, max)),
                (None, Some(f)) => self.formatted(f).unwrap_or_else(|| self.word(min, max)),
                _ => self.word(min, max),
            };
            let n = candidate.chars().count();
            if n >= min && n <= max {
                return candidate;
            }
        }
        self.word(min, max)
    }

    fn word(&mut self, min: usize, max: usize) -> String {
        let len = if max <= min {
            min
        } else {
            self.rng.random_range(min..=max.min(min + 12))
        };
        (0..len).map(|_| (b'a' + self.below(26) as u8) as char).collect()
    }

    /// A string matching a Go pattern, when the generator can make one.
    fn matching(&mut self, pattern: &str) -> Option<String> {
        // rand_regex refuses anchors; a string generated for the whole pattern matches
        // it anchored or not.
        let pattern = pattern.strip_prefix('^').unwrap_or(pattern);
        let pattern = match pattern.strip_suffix('$') {
            Some(p) if !p.ends_with('\\') => p,
            _ => pattern,
        };
        let translated = crd_runtime::goregex::translate(pattern).ok()?;
        let hir = regex_syntax::ParserBuilder::new().build().parse(&translated).ok()?;
        let generator = rand_regex::Regex::with_hir(hir, 8).ok()?;
        let s: String = self.rng.sample(&generator);
        Some(s)
    }

    fn formatted(&mut self, format: &str) -> Option<String> {
        let n = self.below(250);
        Some(match format {
            "date-time" | "datetime" => format!("2024-0{}-1{}T12:3{}:00Z", 1 + n % 9, n % 10, n % 10),
            "date" => format!("2024-0{}-1{}", 1 + n % 9, n % 10),
            "uuid" => format!("123e4567-e89b-12d3-a456-4266141740{:02}", n % 100),
            "ipv4" => format!("10.0.{}.{}", n % 256, (n * 7) % 256),
            "ipv6" => format!("2001:db8::{:x}", n),
            "cidr" => format!("10.{}.0.0/16", n % 256),
            "mac" => format!("00:1a:2b:3c:4d:{:02x}", n % 256),
            "hostname" => format!("host-{n}.example.com"),
            "email" => format!("user{n}@example.com"),
            "uri" => format!("https://example.com/path/{n}"),
            "byte" => "aGVsbG8=".into(),
            "duration" => format!("{}m", 1 + n % 60),
            "int-or-string" => format!("{n}"),
            _ => return None,
        })
    }

    fn array(&mut self, s: &Schema, depth: usize) -> Value {
        let Some(items) = s.items.as_deref() else {
            return json!([]);
        };
        let min = s.min_items.unwrap_or(0).max(0) as usize;
        let max = s.max_items.map(|m| m.max(0) as usize).unwrap_or(min + 3).min(min + 3);
        let len = if depth >= self.max_depth {
            min
        } else if s.max_items.is_some_and(|m| m <= 64) && self.chance(0.1) {
            // Exactly at the bound: where an off-by-one check would differ.
            s.max_items.unwrap_or(0).max(0) as usize
        } else {
            self.rng.random_range(min..=max.max(min))
        };
        let mut out: Vec<Value> = Vec::with_capacity(len);
        for i in 0..len {
            let mut v = self.value(items, depth + 1);
            match s.list_type {
                Some(ListType::Set) => {
                    for _ in 0..5 {
                        if !out.contains(&v) {
                            break;
                        }
                        v = self.value(items, depth + 1);
                    }
                }
                Some(ListType::Map) => {
                    // Distinct keys: string keys get the index appended.
                    if let Value::Object(m) = &mut v {
                        for k in &s.list_map_keys {
                            match m.get_mut(k) {
                                Some(Value::String(x)) => x.push_str(&i.to_string()),
                                Some(Value::Number(_)) => {
                                    m.insert(k.clone(), json!(i));
                                }
                                _ => {}
                            }
                        }
                    }
                }
                _ => {}
            }
            out.push(v);
        }
        Value::Array(out)
    }

    fn object(&mut self, s: &Schema, depth: usize) -> Value {
        let mut m = Map::new();
        if s.embedded_resource {
            m.insert("apiVersion".into(), json!("v1"));
            m.insert("kind".into(), json!("ConfigMap"));
            m.insert("metadata".into(), json!({"name": "embedded"}));
        }
        for (k, p) in &s.properties {
            if s.embedded_resource && matches!(k.as_str(), "apiVersion" | "kind" | "metadata") {
                continue;
            }
            let required = s.required.contains(k);
            if required || (depth < self.max_depth && self.chance(0.5)) {
                let v = self.value(p, depth + 1);
                m.insert(k.clone(), v);
            }
        }
        match &s.additional_properties {
            Some(AdditionalProperties::Schema(ap)) if depth < self.max_depth => {
                for _ in 0..self.below(3) {
                    let v = self.value(ap, depth + 1);
                    let key = format!("key{}", self.below(100));
                    m.insert(key, v);
                }
            }
            Some(AdditionalProperties::Bool(true)) => {
                m.insert("free".into(), json!({"x": 1}));
            }
            _ => {}
        }
        if s.preserve_unknown_fields && self.chance(0.3) {
            m.insert("unknownKept".into(), self.any(depth + 1));
        }
        // Unknown fields and nulls that admission must prune.
        if self.chance(0.1) {
            m.insert("unknownField".into(), json!({"nested": 1}));
        }
        if self.chance(0.05) && !s.properties.is_empty() {
            let i = self.below(s.properties.len());
            let k = s.properties.keys().nth(i).unwrap().clone();
            m.insert(k, Value::Null);
        }
        Value::Object(m)
    }

    /// Draws again the part of `v` (a resource for the root schema `s`) that an
    /// admission error at `field` (`spec.rules[0].port`, `<nil>` for the root) names:
    /// the deepest node on that path which exists, or, half the time when that node is
    /// an optional property, leaves it out. Random objects satisfy the OpenAPI
    /// keywords but not CEL rules or cross-field constraints; changing the offending
    /// part until the engine admits the object is how valid objects of rule-heavy
    /// CRDs are found. Returns false when the path leads nowhere.
    pub fn redraw_at(&mut self, v: &mut Value, s: &Schema, field: &str) -> bool {
        // The walkable part of the path, with each step's schema.
        let mut steps: Vec<(Segment, &Schema)> = Vec::new();
        {
            let (mut node, mut schema) = (&*v, s);
            for segment in field_segments(field) {
                let next = match (node, &segment) {
                    (Value::Object(m), Segment::Key(k)) => m.get(k.as_str()).zip(
                        schema
                            .properties
                            .get(k.as_str())
                            .or(schema.additional_properties_schema()),
                    ),
                    (Value::Array(a), Segment::Index(i)) => a.get(*i).zip(schema.items.as_deref()),
                    _ => None,
                };
                let Some((child, child_schema)) = next else { break };
                steps.push((segment, child_schema));
                (node, schema) = (child, child_schema);
            }
        }
        let Some((last, last_schema)) = steps.pop() else {
            // The root: everything but what names the object.
            let kept: Vec<(String, Value)> = ["apiVersion", "kind", "metadata"]
                .iter()
                .filter_map(|k| Some((k.to_string(), v.get(*k)?.clone())))
                .collect();
            let mut fresh = self.value(s, 0);
            let Some(map) = fresh.as_object_mut() else {
                return false;
            };
            map.extend(kept);
            *v = fresh;
            return true;
        };
        let depth = steps.len() + 1;
        let parent_schema = steps.last().map_or(s, |(_, schema)| *schema);
        let mut parent = &mut *v;
        for (segment, _) in &steps {
            let next = match (parent, segment) {
                (Value::Object(m), Segment::Key(k)) => m.get_mut(k.as_str()),
                (Value::Array(a), Segment::Index(i)) => a.get_mut(*i),
                _ => None,
            };
            let Some(next) = next else { return false };
            parent = next;
        }
        match (parent, last) {
            (Value::Object(m), Segment::Key(k)) => {
                let optional = depth > 1 && !parent_schema.required.contains(&k);
                if optional && self.chance(0.5) {
                    m.remove(&k);
                } else if let Some(node) = m.get_mut(&k) {
                    *node = self.value(last_schema, depth);
                }
                true
            }
            (Value::Array(a), Segment::Index(i)) => match a.get_mut(i) {
                Some(node) => {
                    *node = self.value(last_schema, depth);
                    true
                }
                None => false,
            },
            _ => false,
        }
    }

    /// Breaks one constraint somewhere in `v` (a value for `s`); returns what it did.
    pub fn mutate(&mut self, v: &mut Value, s: &Schema) -> String {
        // Mostly: break, just past its bound, a constraint of a node chosen among all
        // the constrained nodes of the value, so that every check is reached in time.
        // A quarter of those break the type of a node chosen among all typed nodes
        // (most have no other constraint, and each has its own type check).
        if self.chance(0.7) {
            let typed = self.chance(0.25);
            let mut nodes = Vec::new();
            constrained_nodes(v, s, typed, &mut Vec::new(), &mut nodes);
            if !nodes.is_empty() {
                let (path, schema) = nodes.swap_remove(self.below(nodes.len()));
                if let Some(node) = pointer_mut(v, &path) {
                    let what = if typed {
                        *node = wrong_type(node);
                        "wrong type"
                    } else {
                        self.break_constraint(node, schema)
                    };
                    return format!("{what} at /{}", path.join("/"));
                }
            }
        }
        // Otherwise: walk down to a random node that exists in the value.
        let mut node = v;
        let mut schema = s;
        let mut path = String::new();
        for _ in 0..self.below(8) {
            let next: Option<(String, &Schema)> = match (&*node, schema) {
                (Value::Object(m), s) if !m.is_empty() => {
                    let keys: Vec<String> = m.keys().cloned().collect();
                    let k = keys[self.below(keys.len())].clone();
                    let child = s.properties.get(&k).or(s.additional_properties_schema());
                    child.map(|c| (k, c))
                }
                (Value::Array(a), s) if !a.is_empty() => {
                    s.items.as_deref().map(|c| (self.below(a.len()).to_string(), c))
                }
                _ => None,
            };
            let Some((seg, child)) = next else { break };
            node = match node {
                Value::Object(m) => m.get_mut(&seg).unwrap(),
                Value::Array(a) => &mut a[seg.parse::<usize>().unwrap()],
                _ => unreachable!(),
            };
            schema = child;
            path.push('/');
            path.push_str(&seg);
        }
        let what = match self.below(12) {
            0 => {
                *node = wrong_type(node);
                "wrong type"
            }
            1 => {
                *node = Value::Null;
                "null"
            }
            2 if schema.maximum.is_some() => {
                *node = json!(schema.maximum.unwrap_or(0.0) as i64 + 1000);
                "above maximum"
            }
            3 if schema.minimum.is_some() => {
                *node = json!(schema.minimum.unwrap_or(0.0) as i64 - 1000);
                "below minimum"
            }
            4 if schema.max_length.is_some() => {
                *node = json!("x".repeat(schema.max_length.unwrap_or(0) as usize + 3));
                "too long"
            }
            5 if schema.pattern.is_some() || !schema.enum_.is_empty() || schema.format.is_some() => {
                *node = json!("!!not-matching value!!");
                "pattern, enum or format"
            }
            6 => match node {
                Value::Object(m) if !schema.required.is_empty() => {
                    let i = self.below(schema.required.len());
                    m.remove(&schema.required[i]);
                    "required removed"
                }
                Value::Object(m) => {
                    m.insert("unknownMutation".into(), json!({"deep": [1, 2]}));
                    "unknown field"
                }
                _ => "nothing",
            },
            7 => match node {
                Value::Array(a) if !a.is_empty() => {
                    let first = a[0].clone();
                    a.push(first);
                    "duplicate item"
                }
                _ => "nothing",
            },
            8 if schema.max_items.is_some() => {
                if let Value::Array(a) = node {
                    let fill = a.first().cloned().unwrap_or(Value::Null);
                    while a.len() as i64 <= schema.max_items.unwrap_or(0) {
                        a.push(fill.clone());
                    }
                }
                "too many items"
            }
            9 => {
                *node = json!(1.5);
                "non-integral number"
            }
            10 => {
                *node = json!({});
                "empty object"
            }
            _ => {
                *node = json!("");
                "empty string"
            }
        };
        format!("{what} at {}", if path.is_empty() { "/" } else { &path })
    }
}

impl Gen {
    /// Breaks one of the constraints `schema` puts on `node`, just past its bound.
    fn break_constraint(&mut self, node: &mut Value, schema: &Schema) -> &'static str {
        let mut breaks: Vec<&'static str> = Vec::new();
        let integer = schema.type_ == Some(Type::Integer);
        match node {
            Value::Number(_) => {
                if schema.maximum.is_some() {
                    breaks.push("above maximum");
                }
                if schema.minimum.is_some() {
                    breaks.push("below minimum");
                }
            }
            Value::String(_) => {
                if schema.max_length.is_some_and(|m| m <= 4096) {
                    breaks.push("too long");
                }
                if schema.min_length.is_some_and(|m| m > 0) {
                    breaks.push("too short");
                }
                if schema.pattern.is_some() || !schema.enum_.is_empty() || schema.format.is_some() {
                    breaks.push("pattern, enum or format");
                }
            }
            Value::Array(_) => {
                if schema.max_items.is_some_and(|m| m <= 64) {
                    breaks.push("too many items");
                }
                if schema.min_items.is_some_and(|m| m > 0) {
                    breaks.push("too few items");
                }
            }
            Value::Object(m) => {
                if schema.required.iter().any(|r| m.contains_key(r)) {
                    breaks.push("required removed");
                }
                if schema.max_properties.is_some_and(|m| m <= 64) {
                    breaks.push("too many properties");
                }
                if schema.min_properties.is_some_and(|m| m > 0) {
                    breaks.push("too few properties");
                }
            }
            _ => {}
        }
        let Some(&what) = breaks.get(self.below(breaks.len())) else {
            *node = wrong_type(node);
            return "wrong type";
        };
        let bound = |b: Option<f64>, step: f64| {
            let x = b.unwrap_or(0.0) + step;
            if integer { json!(x as i64) } else { json!(x) }
        };
        match (what, node) {
            ("above maximum", node) => *node = bound(schema.maximum, if schema.exclusive_maximum { 0.0 } else { 1.0 }),
            ("below minimum", node) => *node = bound(schema.minimum, if schema.exclusive_minimum { 0.0 } else { -1.0 }),
            ("too long", node) => *node = json!("x".repeat(schema.max_length.unwrap_or(0) as usize + 1)),
            ("too short", node) => *node = json!("x".repeat(schema.min_length.unwrap_or(1) as usize - 1)),
            ("pattern, enum or format", node) => *node = json!("!!not-matching value!!"),
            ("too many items", Value::Array(a)) => {
                let fill = a.first().cloned().unwrap_or(Value::Null);
                a.resize(schema.max_items.unwrap_or(0) as usize + 1, fill);
            }
            ("too few items", Value::Array(a)) => a.truncate(schema.min_items.unwrap_or(1) as usize - 1),
            ("required removed", Value::Object(m)) => {
                let present: Vec<&String> = schema.required.iter().filter(|r| m.contains_key(*r)).collect();
                let key = present[self.below(present.len())].clone();
                m.remove(&key);
            }
            ("too many properties", Value::Object(m)) => {
                let mut i = 0;
                while m.len() as i64 <= schema.max_properties.unwrap_or(0) {
                    m.insert(format!("extra{i}"), json!("x"));
                    i += 1;
                }
            }
            ("too few properties", Value::Object(m)) => {
                while m.len() as i64 >= schema.min_properties.unwrap_or(1) {
                    let Some(k) = m.keys().next().cloned() else { break };
                    m.remove(&k);
                }
            }
            _ => {}
        }
        what
    }
}

/// A value of another JSON type than `node`'s.
fn wrong_type(node: &Value) -> Value {
    match node {
        Value::String(_) => json!(42),
        Value::Number(_) => json!("forty-two"),
        Value::Bool(_) => json!("true"),
        Value::Array(_) => json!({"not": "a list"}),
        Value::Object(_) => json!(["not", "an", "object"]),
        Value::Null => json!(7),
    }
}

/// The nodes of `v` (a value for `s`) whose schema has a constraint
/// [`Gen::break_constraint`] can break, or with `typed` those whose schema has a
/// `type`, with their paths.
fn constrained_nodes<'s>(
    v: &Value,
    s: &'s Schema,
    typed: bool,
    path: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, &'s Schema)>,
) {
    let constrained = if typed {
        s.type_.is_some()
    } else {
        s.maximum.is_some()
            || s.minimum.is_some()
            || s.max_length.is_some()
            || s.min_length.is_some_and(|m| m > 0)
            || s.pattern.is_some()
            || !s.enum_.is_empty()
            || s.format.is_some()
            || s.max_items.is_some()
            || s.min_items.is_some_and(|m| m > 0)
            || !s.required.is_empty()
            || s.max_properties.is_some()
            || s.min_properties.is_some_and(|m| m > 0)
    };
    if constrained && !path.is_empty() {
        out.push((path.clone(), s));
    }
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                // `metadata` is the API server's, not the schema's, to check.
                if path.is_empty() && matches!(k.as_str(), "apiVersion" | "kind" | "metadata") {
                    continue;
                }
                if let Some(cs) = s.properties.get(k).or(s.additional_properties_schema()) {
                    path.push(k.clone());
                    constrained_nodes(child, cs, typed, path, out);
                    path.pop();
                }
            }
        }
        Value::Array(a) => {
            if let Some(items) = s.items.as_deref() {
                for (i, child) in a.iter().enumerate() {
                    path.push(i.to_string());
                    constrained_nodes(child, items, typed, path, out);
                    path.pop();
                }
            }
        }
        _ => {}
    }
}

/// The node at `path` (keys, and indexes as decimal strings).
fn pointer_mut<'v>(v: &'v mut Value, path: &[String]) -> Option<&'v mut Value> {
    path.iter().try_fold(v, |node, seg| match node {
        Value::Object(m) => m.get_mut(seg),
        Value::Array(a) => a.get_mut(seg.parse::<usize>().ok()?),
        _ => None,
    })
}

/// Helpers so callers need not depend on `rand` directly.
impl Gen {
    pub fn seed_for(name: &str, i: u64) -> u64 {
        name.bytes().fold(i.wrapping_mul(0x9E37_79B9_7F4A_7C15), |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3)
        })
    }

    pub fn rng(&mut self) -> &mut impl Rng {
        &mut self.rng
    }
}

/// One step of a field path as admission errors print it.
enum Segment {
    Key(String),
    Index(usize),
}

/// `spec.rules[0].matches[1]` as keys and indexes (`<nil>`, the root, has none; a map
/// key printed in brackets is a key).
fn field_segments(field: &str) -> Vec<Segment> {
    let mut out = Vec::new();
    if field == "<nil>" {
        return out;
    }
    for part in field.split('.') {
        let (name, mut rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if !name.is_empty() {
            out.push(Segment::Key(name.to_string()));
        }
        while let Some(end) = rest.find(']') {
            let inner = &rest[1..end];
            out.push(match inner.parse() {
                Ok(i) => Segment::Index(i),
                Err(_) => Segment::Key(inner.to_string()),
            });
            rest = &rest[end + 1..];
        }
    }
    out
}

/// Lays the value keywords of `branch` (a junctor branch) over `s`.
fn overlay(s: &mut Schema, branch: &Schema) {
    if branch.type_.is_some() {
        s.type_ = branch.type_;
    }
    if branch.format.is_some() {
        s.format = branch.format.clone();
    }
    if branch.pattern.is_some() {
        s.pattern = branch.pattern.clone();
    }
    if !branch.enum_.is_empty() {
        s.enum_ = branch.enum_.clone();
    }
    s.min_length = branch.min_length.or(s.min_length);
    s.max_length = branch.max_length.or(s.max_length);
    s.minimum = branch.minimum.or(s.minimum);
    s.maximum = branch.maximum.or(s.maximum);
    s.min_items = branch.min_items.or(s.min_items);
    s.max_items = branch.max_items.or(s.max_items);
    for r in &branch.required {
        if !s.required.contains(r) {
            s.required.push(r.clone());
        }
    }
    for (k, p) in &branch.properties {
        s.properties.entry(k.clone()).or_insert_with(|| p.clone());
    }
}

/// The single-quoted CEL string literal that follows `prefix` in `rule` (`prefix` ends
/// with its opening quote), unescaped, if the rule has one.
fn quoted_after(rule: &str, prefix: &str) -> Option<String> {
    let rest = &rule[rule.find(prefix)? + prefix.len()..];
    let mut out = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(chars.next()?),
            '\'' => return Some(out),
            c => out.push(c),
        }
    }
    None
}
