//! client-go's JSONPath (`k8s.io/client-go/util/jsonpath`), as the API server runs a
//! printer column's `jsonPath` (`{<path>}` with missing keys allowed) on an object.
//!
//! The language inside one action: fields (`.spec.replicas`, `\.` escapes a dot in a
//! name), bracketed keys (`['app\.kubernetes\.io/name']`), indexes and slices
//! (`[0]`, `[-1]`, `[1:3]`, `[::2]`), wildcards (`[*]`, `.*`), unions (`[0,2]`),
//! recursive descent (`..name`) and filters (`[?(@.type=="Ready")]`, `[?(@.x)]`,
//! with `==`, `!=`, `<`, `>`, `<=`, `>=`). `range`/`end` and text outside the action
//! are refused: a column's path is a single action.
//!
//! Values are seen as Go sees unstructured JSON: maps, slices, strings, bool, int64
//! (integers that fit) and float64; a comparison between an int64 and a float64 is an
//! error, as in Go's `text/template` comparisons. Maps are walked in key order
//! (Go's order is random; only a wildcard over a map can tell).

use serde_json::Value;
use std::borrow::Cow;

/// A parsed path.
#[derive(Clone, Debug, PartialEq)]
pub struct JsonPath {
    nodes: Vec<Node>,
}

#[derive(Clone, Debug, PartialEq)]
enum Node {
    Field(String),
    Wildcard,
    Recursive,
    Array([Param; 3]),
    Union(Vec<Vec<Node>>),
    Filter { left: Vec<Node>, op: Op, right: Vec<Node> },
    Text(String),
    Int(i64),
    Float(f64),
    Bool(bool),
}

/// A slice bound: `known` when written (or derived, for `[n]`'s end).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Param {
    value: i64,
    known: bool,
    derived: bool,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Op {
    Exists,
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
}

/// The deepest nesting of filters and unions accepted (each nests a parse).
const MAX_NESTING: usize = 32;

impl JsonPath {
    /// Parses a printer column's `jsonPath` as the API server does (`{` + path + `}`).
    pub fn parse(path: &str) -> Result<JsonPath, String> {
        let mut p = Parser { s: path, pos: 0 };
        let nodes = p.action(0)?;
        if p.pos < path.len() {
            return Err(format!(
                "unsupported JSONPath {path:?}: text after the path at offset {}",
                p.pos
            ));
        }
        Ok(JsonPath { nodes })
    }

    /// The values the path selects in `object`, in order (`FindResults` with missing
    /// keys allowed, first template node). An error is what client-go reports, e.g.
    /// an index out of bounds.
    pub fn find<'a>(&self, object: &'a Value) -> Result<Vec<Cow<'a, Value>>, String> {
        eval_list(vec![Cow::Borrowed(object)], &self.nodes)
    }
}

struct Parser<'s> {
    s: &'s str,
    pos: usize,
}

impl<'s> Parser<'s> {
    fn rest(&self) -> &'s str {
        &self.s[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    /// `parseInsideAction` until the end of the text (the closing `}` is implied).
    fn action(&mut self, depth: usize) -> Result<Vec<Node>, String> {
        if depth > MAX_NESTING {
            return Err("JSONPath nested too deeply".into());
        }
        let mut nodes = Vec::new();
        loop {
            let rest = self.rest();
            if rest.is_empty() {
                return Ok(nodes);
            }
            if rest.starts_with('}') {
                return Err(format!("unsupported JSONPath {:?}: more than one action", self.s));
            }
            if rest.starts_with("[?(") {
                nodes.push(self.filter(depth)?);
                continue;
            }
            if rest.starts_with("..") {
                if nodes.last() == Some(&Node::Recursive) {
                    return Err("invalid multiple recursive descent".into());
                }
                self.pos += 2;
                nodes.push(Node::Recursive);
                if self.peek().is_some_and(is_alphanumeric) {
                    nodes.push(self.field());
                }
                continue;
            }
            let Some(c) = self.peek() else {
                return Ok(nodes);
            };
            match c {
                '\r' | '\n' => return Err("unclosed action".into()),
                ' ' | '@' | '$' => self.pos += 1,
                '[' => {
                    self.pos += 1;
                    nodes.extend(self.array(depth)?);
                }
                '"' | '\'' => nodes.push(self.quote(c)?),
                '.' => {
                    self.pos += 1;
                    nodes.push(self.field());
                }
                '+' | '-' | '0'..='9' => nodes.push(self.number()?),
                c if is_alphanumeric(c) => {
                    let word = self.take_while(|c| !is_terminator(c));
                    match word {
                        "true" => nodes.push(Node::Bool(true)),
                        "false" => nodes.push(Node::Bool(false)),
                        other => {
                            return Err(format!(
                                "unsupported JSONPath {:?}: identifier {other:?} (range/end are not column paths)",
                                self.s
                            ));
                        }
                    }
                }
                c => return Err(format!("unrecognized character in action: {}", go_rune(c))),
            }
        }
    }

    fn take_while(&mut self, keep: impl Fn(char) -> bool) -> &'s str {
        let start = self.pos;
        while let Some(c) = self.peek() {
            if !keep(c) {
                break;
            }
            self.pos += c.len_utf8();
        }
        &self.s[start..self.pos]
    }

    /// `parseField`: up to a terminator, `\x` taking the next character literally; all
    /// backslashes are then removed.
    fn field(&mut self) -> Node {
        let start = self.pos;
        let mut chars = self.rest().char_indices();
        let mut end = self.rest().len();
        while let Some((i, c)) = chars.next() {
            if c == '\\' {
                chars.next();
            } else if is_terminator(c) {
                end = i;
                break;
            }
        }
        self.pos += end;
        let name = &self.s[start..self.pos];
        if name == "*" {
            Node::Wildcard
        } else {
            Node::Field(name.replace('\\', ""))
        }
    }

    fn number(&mut self) -> Result<Node, String> {
        let start = self.pos;
        if matches!(self.peek(), Some('+' | '-')) {
            self.pos += 1;
        }
        self.take_while(|c| c == '.' || c.is_ascii_digit());
        let text = &self.s[start..self.pos];
        if let Ok(i) = text.parse::<i64>() {
            return Ok(Node::Int(i));
        }
        text.parse::<f64>()
            .map(Node::Float)
            .map_err(|_| format!("cannot parse number {text}"))
    }

    /// `parseQuote`: a quoted literal, unquoted as Go's `strconv.UnquoteChar` does
    /// for the common escapes.
    fn quote(&mut self, end: char) -> Result<Node, String> {
        let start = self.pos;
        self.pos += 1;
        let mut prev = end;
        loop {
            let Some(c) = self.peek() else {
                return Err("unterminated quoted string".into());
            };
            self.pos += c.len_utf8();
            if c == '\n' {
                return Err("unterminated quoted string".into());
            }
            if c == end && prev != '\\' {
                break;
            }
            prev = c;
        }
        let raw = &self.s[start..self.pos];
        unquote(raw)
            .map(Node::Text)
            .ok_or_else(|| format!("unquote string {raw} error invalid syntax"))
    }

    /// `parseArray`, after the `[`.
    fn array(&mut self, depth: usize) -> Result<Vec<Node>, String> {
        let Some(len) = self
            .rest()
            .find(['\n', ']'])
            .filter(|&i| self.rest().as_bytes()[i] == b']')
        else {
            return Err("unterminated array".into());
        };
        let text = &self.s[self.pos..self.pos + len];
        self.pos += len + 1;
        let text = if text == "*" { ":" } else { text };
        let parts: Vec<&str> = text.split(',').collect();
        if parts.len() > 1 {
            let union = parts
                .iter()
                .map(|part| {
                    let inner = format!("[{}]", part.trim_matches(' '));
                    Parser { s: &inner, pos: 0 }.action(depth + 1)
                })
                .collect::<Result<_, _>>()?;
            return Ok(vec![Node::Union(union)]);
        }
        if let Some(key) = text
            .strip_prefix('\'')
            .and_then(|t| t.strip_suffix('\''))
            .filter(|k| !k.contains('\''))
        {
            let inner = format!(".{key}");
            let mut p = Parser { s: &inner, pos: 0 };
            return p.action(depth + 1);
        }
        slice(text).map(|params| vec![Node::Array(params)])
    }

    /// `parseFilter`: `[?(left op right)]` or `[?(path)]` (exists).
    fn filter(&mut self, depth: usize) -> Result<Node, String> {
        self.pos += 3;
        let start = self.pos;
        let (mut begin, mut end, mut pair, mut prev) = (false, false, '"', ' ');
        loop {
            let Some(c) = self.peek() else {
                return Err("unterminated filter".into());
            };
            self.pos += c.len_utf8();
            match c {
                '\n' => return Err("unterminated filter".into()),
                '"' | '\'' if !begin => {
                    begin = true;
                    pair = c;
                }
                '"' | '\'' if prev != '\\' && c == pair => end = true,
                ')' if begin == end => break,
                _ => {}
            }
            prev = c;
        }
        if self.peek() != Some(']') {
            return Err("unclosed array expect ]".into());
        }
        self.pos += 1;
        let text = &self.s[start..self.pos - 2];
        let parse = |s: &str| {
            let mut p = Parser { s, pos: 0 };
            p.action(depth + 1)
        };
        // `^([^!<>=]+)([!<>=]+)(.+?)$`
        let split = text.find(['!', '<', '>', '=']).filter(|&i| i > 0).and_then(|i| {
            let op_len = text[i..].find(|c| !"!<>=".contains(c))?;
            (op_len > 0 && i + op_len < text.len()).then_some((i, i + op_len))
        });
        Ok(match split {
            None => Node::Filter {
                left: parse(text)?,
                op: Op::Exists,
                right: Vec::new(),
            },
            Some((a, b)) => Node::Filter {
                left: parse(&text[..a])?,
                op: match &text[a..b] {
                    "==" => Op::Eq,
                    "!=" => Op::Ne,
                    "<" => Op::Lt,
                    ">" => Op::Gt,
                    "<=" => Op::Le,
                    ">=" => Op::Ge,
                    other => return Err(format!("unrecognized filter operator {other}")),
                },
                right: parse(&text[b..])?,
            },
        })
    }
}

/// `sliceOperatorRex` (`^(-?\d*)(:-?\d*)?(:-?\d*)?$`) and the parameters `parseArray`
/// makes of its groups.
fn slice(text: &str) -> Result<[Param; 3], String> {
    let parts: Vec<&str> = text.split(':').collect();
    let matches = |s: &str| s.strip_prefix('-').unwrap_or(s).bytes().all(|b| b.is_ascii_digit());
    if parts.len() > 3 || !parts.iter().all(|p| matches(p)) {
        return Err(format!("invalid array index {text}"));
    }
    let mut params = [Param::default(); 3];
    for i in 0..3 {
        // The regex group: absent, or present (after its `:` for i > 0).
        match parts.get(i).filter(|p| i > 0 || !p.is_empty()) {
            Some(&"") => {}
            Some(p) => {
                let value = p
                    .parse::<i64>()
                    .map_err(|_| format!("array index {p} is not a number"))?;
                params[i] = Param {
                    value,
                    known: true,
                    derived: false,
                };
            }
            None if i == 1 => {
                params[1] = Param {
                    value: params[0].value + 1,
                    known: true,
                    derived: true,
                };
            }
            None => {}
        }
    }
    Ok(params)
}

fn is_terminator(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t' | '\r' | '\n' | '.' | ',' | '[' | ']' | '$' | '@' | '{' | '}'
    )
}

fn is_alphanumeric(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// Go's `%#U` of a rune.
fn go_rune(c: char) -> String {
    format!("U+{:04X} '{c}'", c as u32)
}

/// Go's `strconv` unquoting of a `"..."` or `'...'` literal (the escapes JSONPath
/// literals use).
fn unquote(raw: &str) -> Option<String> {
    let quote = raw.chars().next()?;
    let inner = raw.strip_prefix(quote)?.strip_suffix(quote)?;
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            if c == quote {
                return None;
            }
            out.push(c);
            continue;
        }
        out.push(match chars.next()? {
            'n' => '\n',
            't' => '\t',
            'r' => '\r',
            '\\' => '\\',
            '\'' => '\'',
            '"' => '"',
            'a' => '\u{7}',
            'b' => '\u{8}',
            'f' => '\u{c}',
            'v' => '\u{b}',
            _ => return None,
        });
    }
    Some(out)
}

type Values<'a> = Vec<Cow<'a, Value>>;

fn eval_list<'a>(mut values: Values<'a>, nodes: &[Node]) -> Result<Values<'a>, String> {
    for node in nodes {
        values = eval(values, node)?;
    }
    Ok(values)
}

fn eval<'a>(input: Values<'a>, node: &Node) -> Result<Values<'a>, String> {
    let constant = |v: Value| input.iter().map(|_| Cow::Owned(v.clone())).collect();
    Ok(match node {
        Node::Text(s) => vec![Cow::Owned(Value::from(s.as_str()))],
        Node::Int(i) => constant(Value::from(*i)),
        Node::Float(f) => constant(serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number)),
        Node::Bool(b) => constant(Value::Bool(*b)),
        Node::Field(name) => input
            .into_iter()
            .filter_map(|v| match v {
                Cow::Borrowed(Value::Object(m)) => m.get(name).map(Cow::Borrowed),
                Cow::Owned(Value::Object(mut m)) => m.remove(name).map(Cow::Owned),
                _ => None,
            })
            .collect(),
        Node::Wildcard => input.into_iter().flat_map(children).collect(),
        Node::Recursive => {
            let mut out = Vec::new();
            for v in input {
                recursive(v, &mut out);
            }
            out
        }
        Node::Array(params) => {
            let mut out = Vec::new();
            for v in input {
                if v.is_null() {
                    continue;
                }
                let Some(items) = v.as_array() else {
                    return Err(format!("{} is not array or slice", crate::objectmeta::go_type_name(&v)));
                };
                let Some(range) = slice_range(params, items.len())? else {
                    // Zero elements requested: client-go returns what it has so far.
                    return Ok(out);
                };
                for i in range {
                    out.push(match &v {
                        Cow::Borrowed(Value::Array(items)) => Cow::Borrowed(&items[i]),
                        _ => Cow::Owned(items[i].clone()),
                    });
                }
            }
            out
        }
        Node::Union(branches) => {
            let mut out = Vec::new();
            for branch in branches {
                out.extend(eval_list(input.clone(), branch)?);
            }
            out
        }
        Node::Filter { left, op, right } => {
            let mut out = Vec::new();
            for v in input {
                let Some(items) = v.as_array() else {
                    return Err(format!(
                        "{} is not array or slice and cannot be filtered",
                        crate::objectmeta::go_print_v(&v)
                    ));
                };
                for (i, item) in items.iter().enumerate() {
                    let item = match &v {
                        Cow::Borrowed(Value::Array(items)) => Cow::Borrowed(&items[i]),
                        _ => Cow::Owned(item.clone()),
                    };
                    if filter_passes(&item, left, *op, right)? {
                        out.push(item);
                    }
                }
            }
            out
        }
    })
}

/// `evalFilter` on one item.
#[allow(clippy::unreachable, reason = "`Exists` is handled before the comparison")]
fn filter_passes(item: &Value, left: &[Node], op: Op, right: &[Node]) -> Result<bool, String> {
    let lefts = eval_list(vec![Cow::Borrowed(item)], left);
    if op == Op::Exists {
        return Ok(lefts.is_ok_and(|l| !l.is_empty()));
    }
    let lefts = lefts?;
    let l = match lefts.as_slice() {
        [] => return Ok(false),
        [l] => l,
        _ => return Err("can only compare one element at a time".into()),
    };
    let rights = eval_list(vec![Cow::Borrowed(item)], right)?;
    let r = match rights.as_slice() {
        [] => return Ok(false),
        [r] => r,
        _ => return Err("can only compare one element at a time".into()),
    };
    let less = |a: &Value, b: &Value| compare(a, b, true);
    let equal = |a: &Value, b: &Value| compare(a, b, false);
    Ok(match op {
        Op::Eq => equal(l, r)?,
        Op::Ne => !equal(l, r)?,
        Op::Lt => less(l, r)?,
        Op::Le => less(l, r)? || equal(l, r)?,
        Op::Gt => !(less(l, r)? || equal(l, r)?),
        Op::Ge => !less(l, r)?,
        Op::Exists => unreachable!("handled above"),
    })
}

/// Go template's `eq` (`less` false) or `lt` (`less` true) on unstructured values.
fn compare(a: &Value, b: &Value, less: bool) -> Result<bool, String> {
    const BAD_TYPE: &str = "invalid type for comparison";
    const INCOMPATIBLE: &str = "incompatible types for comparison";
    let kind = |v: &Value| match v {
        Value::Bool(_) => Ok(0),
        Value::Number(n) if n.is_i64() => Ok(1),
        Value::Number(_) => Ok(2),
        Value::String(_) => Ok(3),
        _ => Err(BAD_TYPE.to_string()),
    };
    if kind(a)? != kind(b)? {
        return Err(INCOMPATIBLE.into());
    }
    Ok(match (a, b) {
        (Value::Bool(_), Value::Bool(_)) if less => return Err(BAD_TYPE.into()),
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::String(x), Value::String(y)) => {
            if less {
                x < y
            } else {
                x == y
            }
        }
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => {
                if less {
                    x < y
                } else {
                    x == y
                }
            }
            _ => {
                let (x, y) = (x.as_f64().unwrap_or(f64::NAN), y.as_f64().unwrap_or(f64::NAN));
                if less { x < y } else { x == y }
            }
        },
        _ => return Err(INCOMPATIBLE.into()),
    })
}

/// The items `[start:end:step]` selects from `len` items (`evalArray`), `None` when the
/// request is for zero elements.
fn slice_range(params: &[Param; 3], len: usize) -> Result<Option<std::iter::StepBy<std::ops::Range<usize>>>, String> {
    let len = len as i64;
    let [mut start, mut end, step] = *params;
    if !start.known {
        start.value = 0;
    }
    if start.value < 0 {
        start.value += len;
    }
    if !end.known {
        end.value = len;
    }
    if end.value < 0 || (end.value == 0 && end.derived) {
        end.value += len;
    }
    if end.value == start.value {
        return Ok(None);
    }
    if start.value >= len || start.value < 0 {
        return Err(format!(
            "array index out of bounds: index {}, length {len}",
            start.value
        ));
    }
    if end.value > len || end.value < 0 {
        return Err(format!(
            "array index out of bounds: index {}, length {len}",
            end.value - 1
        ));
    }
    if start.value > end.value {
        return Err(format!(
            "starting index {} is greater than ending index {}",
            start.value, end.value
        ));
    }
    let step = if step.known {
        if step.value <= 0 {
            return Err("step must be > 0".into());
        }
        step.value as usize
    } else {
        1
    };
    Ok(Some((start.value as usize..end.value as usize).step_by(step)))
}

/// A value's children for `*` and `..`: map values (in key order), list items, and a
/// string's bytes (Go indexes a string by byte).
fn children(v: Cow<'_, Value>) -> Values<'_> {
    match v {
        Cow::Borrowed(Value::Object(m)) => m.values().map(Cow::Borrowed).collect(),
        Cow::Borrowed(Value::Array(a)) => a.iter().map(Cow::Borrowed).collect(),
        Cow::Owned(Value::Object(m)) => m.into_iter().map(|(_, v)| Cow::Owned(v)).collect(),
        Cow::Owned(Value::Array(a)) => a.into_iter().map(Cow::Owned).collect(),
        v => match v.as_str() {
            Some(s) => s.bytes().map(|b| Cow::Owned(Value::from(b))).collect(),
            None => Vec::new(),
        },
    }
}

/// `evalRecursive`: a value with children, then its descendants.
fn recursive<'a>(v: Cow<'a, Value>, out: &mut Values<'a>) {
    let kids = children(v.clone());
    if kids.is_empty() {
        return;
    }
    out.push(v);
    for kid in kids {
        recursive(kid, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn find(path: &str, object: &Value) -> Result<Vec<Value>, String> {
        let p = JsonPath::parse(path)?;
        Ok(p.find(object)?.into_iter().map(Cow::into_owned).collect())
    }

    #[test]
    fn fields_keys_indexes_and_filters() {
        let o = json!({
            "metadata": {"labels": {"app.kubernetes.io/name": "web"}},
            "spec": {"replicas": 3, "ports": [{"port": 80}, {"port": 443}]},
            "status": {"conditions": [
                {"type": "Ready", "status": "True", "n": 2},
                {"type": "Synced", "status": "False", "n": 7}
            ]}
        });
        assert_eq!(find(".spec.replicas", &o), Ok(vec![json!(3)]));
        assert_eq!(
            find(".metadata.labels.app\\.kubernetes\\.io/name", &o),
            Ok(vec![json!("web")])
        );
        assert_eq!(
            find(".metadata.labels['app\\.kubernetes\\.io/name']", &o),
            Ok(vec![json!("web")])
        );
        assert_eq!(find(".spec.ports[1].port", &o), Ok(vec![json!(443)]));
        assert_eq!(find(".spec.ports[-1].port", &o), Ok(vec![json!(443)]));
        assert_eq!(find(".spec.ports[*].port", &o), Ok(vec![json!(80), json!(443)]));
        assert_eq!(find(".spec.ports[0,1].port", &o), Ok(vec![json!(80), json!(443)]));
        assert_eq!(
            find(".status.conditions[?(@.type==\"Ready\")].status", &o),
            Ok(vec![json!("True")])
        );
        assert_eq!(
            find(".status.conditions[?(@.type == 'Synced')].status", &o),
            Ok(vec![json!("False")])
        );
        assert_eq!(
            find(".status.conditions[?(@.type!=\"Ready\")].type", &o),
            Ok(vec![json!("Synced")])
        );
        assert_eq!(find(".status.conditions[?(@.n>5)].type", &o), Ok(vec![json!("Synced")]));
        assert_eq!(find(".status.conditions[?(@.n<=2)].type", &o), Ok(vec![json!("Ready")]));
        assert_eq!(find(".status.conditions[?(@.missing)].type", &o), Ok(vec![]));
        assert_eq!(find(".status.conditions[?(@.n)].type", &o).map(|v| v.len()), Ok(2));
        assert_eq!(find("..port", &o), Ok(vec![json!(80), json!(443)]));
    }

    #[test]
    fn missing_keys_select_nothing_and_bad_shapes_are_errors() {
        let o = json!({"spec": {"list": [], "n": 1, "f": 1.5}});
        assert_eq!(find(".spec.nothing.deeper", &o), Ok(vec![]));
        assert_eq!(find(".status.replicas", &o), Ok(vec![]));
        assert_eq!(
            find(".spec.list[0]", &o),
            Err("array index out of bounds: index 0, length 0".into())
        );
        assert_eq!(find(".spec.n[0]", &o), Err("int64 is not array or slice".into()));
        // An int64 compared with a float64 is an error in Go's templates.
        let o = json!({"items": [{"v": 1}]});
        assert_eq!(
            find(".items[?(@.v==1.5)]", &o),
            Err("incompatible types for comparison".into())
        );
        assert_eq!(find(".items[?(@.v==1)].v", &o), Ok(vec![json!(1)]));
    }

    #[test]
    fn unsupported_paths_are_refused_at_parse_time() {
        assert!(JsonPath::parse(".a}{.b").is_err());
        assert!(JsonPath::parse("range .items").is_err());
        assert!(JsonPath::parse(".a[1").is_err());
        assert!(JsonPath::parse(".a[?(@.b==\"c\"").is_err());
        assert!(JsonPath::parse(".a[x]").is_err());
        assert_eq!(
            JsonPath::parse(".a{").unwrap_err(),
            "unrecognized character in action: U+007B '{'"
        );
    }
}
