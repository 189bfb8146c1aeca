//! Go's `regexp.Compile` syntax check (RE2 as implemented by Go's `regexp/syntax`),
//! for the structural-schema rule `pattern: must be a valid regular expression, but
//! isn't: <err>`.
//!
//! The `regex` crate accepts a different language than Go (it has `\<`, `\u{..}`,
//! `(?x)`, nested classes with `&&`, Unicode properties such as `\p{Alphabetic}`,
//! unlimited `{n}` counts; it lacks `\Q..\E`, octal `\12`, `\0`, `(?)`), and its error
//! texts are its own. So this module re-implements the checks of Go's parser
//! (`regexp/syntax/parse.go`, `Parse` with the `Perl` flags that `regexp.Compile`
//! uses) and produces Go's message:
//! ``error parsing regexp: <code>: `<offending text>` ``.
//!
//! It mirrors Go's parse stack (pseudo-operators `(` and `|`, concatenation,
//! alternation, char-class merging in `swapVerticalBar`), because validity depends on
//! it: a repetition operator needs an operand on the stack (`^*` and `a(?i)*` are
//! valid, `(*` and `|*` are not), a stacked repetition is an error (`a**`,
//! `a{2}{3}`), nested counted repetitions may not exceed 1000 copies
//! (`(a{10}){200}`), `{n,m}` counts are at most 1000.
//!
//! Known approximations (only pathological patterns can tell): Go's size limit
//! (`expression too large`, 3,355,443 instructions) is computed without Go's
//! factoring of common alternation prefixes (so a huge alternation may be reported
//! as too large where Go factors it below the limit), and checked when repetitions,
//! groups and the whole expression are built rather than at every push; the limit on
//! the total number of runes in character classes (32M) is not checked. Unicode
//! class names are Go 1.27's tables (Unicode 17.0.0); names added in later Unicode
//! versions would be rejected.

use std::fmt;

/// Go's `*syntax.Error`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoRegexpError {
    /// The `ErrorCode` text, e.g. `missing closing ]`.
    pub code: &'static str,
    /// The offending part of the expression.
    pub expr: String,
}

impl fmt::Display for GoRegexpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error parsing regexp: {}: `{}`", self.code, self.expr)
    }
}

impl std::error::Error for GoRegexpError {}

const ERR_INVALID_CHAR_RANGE: &str = "invalid character class range";
const ERR_INVALID_ESCAPE: &str = "invalid escape sequence";
const ERR_INVALID_NAMED_CAPTURE: &str = "invalid named capture";
const ERR_INVALID_PERL_OP: &str = "invalid or unsupported Perl syntax";
const ERR_INVALID_REPEAT_OP: &str = "invalid nested repetition operator";
const ERR_INVALID_REPEAT_SIZE: &str = "invalid repeat count";
const ERR_MISSING_BRACKET: &str = "missing closing ]";
const ERR_MISSING_PAREN: &str = "missing closing )";
const ERR_MISSING_REPEAT_ARGUMENT: &str = "missing argument to repetition operator";
const ERR_TRAILING_BACKSLASH: &str = "trailing backslash at end of expression";
const ERR_UNEXPECTED_PAREN: &str = "unexpected )";
const ERR_NESTING_DEPTH: &str = "expression nests too deeply";
const ERR_LARGE: &str = "expression too large";

/// Go's `maxHeight`.
const MAX_HEIGHT: i64 = 1000;
/// Go's `maxSize` (128 MiB of 40-byte instructions).
const MAX_SIZE: i64 = (128 << 20) / 40;

/// `regexp.Compile(expr)`'s error, if any.
pub fn compile(expr: &str) -> Result<(), GoRegexpError> {
    Parser {
        s: expr,
        nodes: Vec::new(),
        stack: Vec::new(),
    }
    .parse()
}

fn err(code: &'static str, expr: &str) -> GoRegexpError {
    GoRegexpError {
        code,
        expr: expr.to_string(),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    /// A leaf matching one character (single-rune literal, class, `.`): these merge
    /// across `|` in `swapVerticalBar`.
    CharLike,
    /// Any other leaf (anchors, empty match, no match).
    Leaf,
    Capture,
    Star,
    Plus,
    Quest,
    Repeat,
    Concat,
    Alternate,
    /// Pseudo-operators on the parse stack.
    LeftParen,
    VerticalBar,
}

impl Op {
    fn is_pseudo(self) -> bool {
        matches!(self, Op::LeftParen | Op::VerticalBar)
    }
}

struct Node {
    op: Op,
    min: i64,
    max: i64,
    /// For `LeftParen`: whether the group captures.
    capture: bool,
    subs: Vec<usize>,
    /// Go's `calcSize`.
    size: i64,
    /// Go's `calcHeight`.
    height: i64,
}

struct Parser<'a> {
    s: &'a str,
    nodes: Vec<Node>,
    stack: Vec<usize>,
}

impl<'a> Parser<'a> {
    fn new_node(&mut self, op: Op, subs: Vec<usize>, min: i64, max: i64) -> usize {
        let sub_size = |p: &Self, i: usize| p.nodes[i].size;
        let size = match op {
            Op::Capture | Op::Star => 2 + sub_size(self, subs[0]),
            Op::Plus | Op::Quest => 1 + sub_size(self, subs[0]),
            Op::Concat => subs.iter().map(|&i| sub_size(self, i)).sum(),
            Op::Alternate => subs.iter().map(|&i| sub_size(self, i)).sum::<i64>() + subs.len() as i64 - 1,
            Op::Repeat => {
                let sub = sub_size(self, subs[0]);
                if max == -1 {
                    if min == 0 { 2 + sub } else { 1 + min * sub }
                } else {
                    max * sub + (max - min)
                }
            }
            _ => 1,
        }
        .max(1);
        let height = 1 + subs.iter().map(|&i| self.nodes[i].height).max().unwrap_or(0);
        self.nodes.push(Node {
            op,
            min,
            max,
            capture: false,
            subs,
            size,
            height,
        });
        self.nodes.len() - 1
    }

    fn leaf(&mut self, op: Op) -> usize {
        self.new_node(op, Vec::new(), 0, 0)
    }

    /// Go's `checkLimits` for a node being put on the stack.
    fn check_limits(&self, i: usize) -> Result<(), GoRegexpError> {
        if self.nodes[i].size > MAX_SIZE {
            return Err(err(ERR_LARGE, self.s));
        }
        if self.nodes[i].height > MAX_HEIGHT {
            return Err(err(ERR_NESTING_DEPTH, self.s));
        }
        Ok(())
    }

    fn push(&mut self, i: usize) -> Result<(), GoRegexpError> {
        self.stack.push(i);
        self.check_limits(i)
    }

    fn push_leaf(&mut self, op: Op) -> Result<(), GoRegexpError> {
        let i = self.leaf(op);
        self.push(i)
    }

    fn top_op(&self, from_top: usize) -> Option<Op> {
        let n = self.stack.len();
        (n > from_top).then(|| self.nodes[self.stack[n - 1 - from_top]].op)
    }

    /// Go's `collapse`: one sub stays itself; nested nodes of the same op are hoisted.
    fn collapse(&mut self, subs: Vec<usize>, op: Op) -> usize {
        if subs.len() == 1 {
            return subs[0];
        }
        let mut flat = Vec::with_capacity(subs.len());
        for s in subs {
            if self.nodes[s].op == op {
                flat.extend(self.nodes[s].subs.clone());
            } else {
                flat.push(s);
            }
        }
        self.new_node(op, flat, 0, 0)
    }

    /// Pops everything above the topmost pseudo-operator.
    fn pop_above_pseudo(&mut self) -> Vec<usize> {
        let mut i = self.stack.len();
        while i > 0 && !self.nodes[self.stack[i - 1]].op.is_pseudo() {
            i -= 1;
        }
        self.stack.split_off(i)
    }

    fn concat(&mut self) -> Result<(), GoRegexpError> {
        let subs = self.pop_above_pseudo();
        let i = if subs.is_empty() {
            self.leaf(Op::Leaf)
        } else {
            self.collapse(subs, Op::Concat)
        };
        self.push(i)
    }

    fn alternate(&mut self) -> Result<(), GoRegexpError> {
        let subs = self.pop_above_pseudo();
        let i = if subs.is_empty() {
            self.leaf(Op::Leaf)
        } else {
            self.collapse(subs, Op::Alternate)
        };
        self.push(i)
    }

    /// Go's `swapVerticalBar`.
    fn swap_vertical_bar(&mut self) -> bool {
        let n = self.stack.len();
        if n >= 3
            && self.top_op(1) == Some(Op::VerticalBar)
            && self.top_op(0) == Some(Op::CharLike)
            && self.top_op(2) == Some(Op::CharLike)
        {
            // The two single-character alternatives merge into one class.
            self.stack.pop();
            return true;
        }
        if n >= 2 && self.top_op(1) == Some(Op::VerticalBar) {
            self.stack.swap(n - 1, n - 2);
            return true;
        }
        false
    }

    fn parse_vertical_bar(&mut self) -> Result<(), GoRegexpError> {
        self.concat()?;
        if !self.swap_vertical_bar() {
            let i = self.leaf(Op::VerticalBar);
            self.stack.push(i);
        }
        Ok(())
    }

    fn parse_right_paren(&mut self) -> Result<(), GoRegexpError> {
        self.concat()?;
        if self.swap_vertical_bar() {
            self.stack.pop();
        }
        self.alternate()?;
        if self.stack.len() < 2 {
            return Err(err(ERR_UNEXPECTED_PAREN, self.s));
        }
        let re1 = self.stack.pop().unwrap_or_default();
        let re2 = self.stack.pop().unwrap_or_default();
        if self.nodes[re2].op != Op::LeftParen {
            return Err(err(ERR_UNEXPECTED_PAREN, self.s));
        }
        if self.nodes[re2].capture {
            let c = self.new_node(Op::Capture, vec![re1], 0, 0);
            self.push(c)
        } else {
            self.push(re1)
        }
    }

    fn open_paren(&mut self, capture: bool) {
        let i = self.leaf(Op::LeftParen);
        self.nodes[i].capture = capture;
        self.stack.push(i);
    }

    /// Go's `repeat`: `before` is where the operator starts, `after` where it ends;
    /// `last_repeat` the start of the previous token if it was a repetition too.
    fn repeat(
        &mut self,
        op: Op,
        min: i64,
        max: i64,
        before: usize,
        mut after: usize,
        last_repeat: Option<usize>,
    ) -> Result<usize, GoRegexpError> {
        if self.s.as_bytes().get(after) == Some(&b'?') {
            after += 1;
        }
        if let Some(lr) = last_repeat {
            return Err(err(ERR_INVALID_REPEAT_OP, &self.s[lr..after]));
        }
        let Some(&sub) = self.stack.last() else {
            return Err(err(ERR_MISSING_REPEAT_ARGUMENT, &self.s[before..after]));
        };
        if self.nodes[sub].op.is_pseudo() {
            return Err(err(ERR_MISSING_REPEAT_ARGUMENT, &self.s[before..after]));
        }
        let re = self.new_node(op, vec![sub], min, max);
        let n = self.stack.len();
        self.stack[n - 1] = re;
        self.check_limits(re)?;
        if op == Op::Repeat && (min >= 2 || max >= 2) && !self.repeat_is_valid(re, 1000) {
            return Err(err(ERR_INVALID_REPEAT_SIZE, &self.s[before..after]));
        }
        Ok(after)
    }

    /// Go's `repeatIsValid`.
    fn repeat_is_valid(&self, i: usize, mut n: i64) -> bool {
        let node = &self.nodes[i];
        if node.op == Op::Repeat {
            let mut m = node.max;
            if m == 0 {
                return true;
            }
            if m < 0 {
                m = node.min;
            }
            if m > n {
                return false;
            }
            if m > 0 {
                n /= m;
            }
        }
        node.subs.iter().all(|&s| self.repeat_is_valid(s, n))
    }

    fn parse(mut self) -> Result<(), GoRegexpError> {
        let s = self.s;
        let b = s.as_bytes();
        let mut t = 0usize;
        let mut last_repeat: Option<usize> = None;
        while t < b.len() {
            let mut repeat: Option<usize> = None;
            match b[t] {
                b'(' => {
                    if b.get(t + 1) == Some(&b'?') {
                        t = self.parse_perl_flags(t)?;
                    } else {
                        self.open_paren(true);
                        t += 1;
                    }
                }
                b'|' => {
                    self.parse_vertical_bar()?;
                    t += 1;
                }
                b')' => {
                    self.parse_right_paren()?;
                    t += 1;
                }
                b'^' | b'$' => {
                    self.push_leaf(Op::Leaf)?;
                    t += 1;
                }
                b'.' => {
                    self.push_leaf(Op::CharLike)?;
                    t += 1;
                }
                b'[' => {
                    t = self.parse_class(t)?;
                }
                c @ (b'*' | b'+' | b'?') => {
                    let op = match c {
                        b'*' => Op::Star,
                        b'+' => Op::Plus,
                        _ => Op::Quest,
                    };
                    let before = t;
                    t = self.repeat(op, 0, 0, before, t + 1, last_repeat)?;
                    repeat = Some(before);
                }
                b'{' => {
                    let before = t;
                    match parse_repeat(s, t) {
                        None => {
                            // Not a repetition: `{` is a literal.
                            self.push_leaf(Op::CharLike)?;
                            t += 1;
                        }
                        Some((min, max, after)) => {
                            if !(0..=1000).contains(&min) || max > 1000 || (max >= 0 && min > max) {
                                return Err(err(ERR_INVALID_REPEAT_SIZE, &s[before..after]));
                            }
                            t = self.repeat(Op::Repeat, min, max, before, after, last_repeat)?;
                            repeat = Some(before);
                        }
                    }
                }
                b'\\' => {
                    t = self.parse_backslash(t)?;
                }
                _ => {
                    let c = next_char(s, t);
                    self.push_leaf(Op::CharLike)?;
                    t += c.len_utf8();
                }
            }
            last_repeat = repeat;
        }
        self.concat()?;
        if self.swap_vertical_bar() {
            self.stack.pop();
        }
        self.alternate()?;
        if self.stack.len() != 1 {
            return Err(err(ERR_MISSING_PAREN, s));
        }
        Ok(())
    }

    /// A `\` outside a class (the `'\\'` case of Go's main loop).
    fn parse_backslash(&mut self, t: usize) -> Result<usize, GoRegexpError> {
        let s = self.s;
        let b = s.as_bytes();
        if let Some(&c) = b.get(t + 1) {
            match c {
                b'A' | b'b' | b'B' | b'z' => {
                    self.push_leaf(Op::Leaf)?;
                    return Ok(t + 2);
                }
                b'C' => return Err(err(ERR_INVALID_ESCAPE, &s[t..t + 2])),
                b'Q' => {
                    // \Q ... \E: literals up to \E or the end.
                    let rest = &s[t + 2..];
                    let (lit, after) = match rest.find("\\E") {
                        Some(i) => (&rest[..i], t + 2 + i + 2),
                        None => (rest, s.len()),
                    };
                    for _ in lit.chars() {
                        self.push_leaf(Op::CharLike)?;
                    }
                    return Ok(after);
                }
                _ => {}
            }
        }
        if let Some(rest) = parse_unicode_class(s, t)? {
            self.push_leaf(Op::CharLike)?;
            return Ok(rest);
        }
        if let Some(rest) = parse_perl_class_escape(s, t) {
            self.push_leaf(Op::CharLike)?;
            return Ok(rest);
        }
        let (_, rest) = parse_escape(s, t)?;
        self.push_leaf(Op::CharLike)?;
        Ok(rest)
    }

    /// Go's `parsePerlFlags`: `t` is at `(?`.
    fn parse_perl_flags(&mut self, start: usize) -> Result<usize, GoRegexpError> {
        let s = self.s;
        let t = &s[start..];
        let tb = t.as_bytes();
        let starts_with_p = tb.len() > 4 && tb[2] == b'P' && tb[3] == b'<';
        let starts_with_name = tb.len() > 3 && tb[2] == b'<';
        if starts_with_p || starts_with_name {
            let expr_start = if starts_with_name { 3 } else { 4 };
            let Some(end) = t.find('>') else {
                return Err(err(ERR_INVALID_NAMED_CAPTURE, t));
            };
            let capture = &t[..end + 1];
            let name = &t[expr_start..end];
            if name.is_empty() || !name.chars().all(|c| c == '_' || c.is_ascii_alphanumeric()) {
                return Err(err(ERR_INVALID_NAMED_CAPTURE, capture));
            }
            self.open_paren(true);
            return Ok(start + end + 1);
        }
        // Non-capturing group, possibly with flag changes.
        let mut pos = start + 2;
        let mut negated = false;
        let mut saw_flag = false;
        while pos < s.len() {
            let c = next_char(s, pos);
            pos += c.len_utf8();
            match c {
                'i' | 'm' | 's' | 'U' => saw_flag = true,
                '-' => {
                    if negated {
                        break;
                    }
                    negated = true;
                    saw_flag = false;
                }
                ':' | ')' => {
                    if negated && !saw_flag {
                        break;
                    }
                    if c == ':' {
                        self.open_paren(false);
                    }
                    return Ok(pos);
                }
                _ => break,
            }
        }
        Err(err(ERR_INVALID_PERL_OP, &s[start..pos]))
    }

    /// Go's `parseClass`: `start` is at `[`; returns the position after `]`.
    fn parse_class(&mut self, start: usize) -> Result<usize, GoRegexpError> {
        let s = self.s;
        let b = s.as_bytes();
        let whole = &s[start..];
        let mut t = start + 1;
        if b.get(t) == Some(&b'^') {
            t += 1;
        }
        let mut first = true;
        while t >= b.len() || b[t] != b']' || first {
            first = false;
            // POSIX [:alnum:] etc.
            if b.len() > t + 2
                && b[t] == b'['
                && b[t + 1] == b':'
                && let Some(rest) = parse_named_class(s, t)?
            {
                t = rest;
                continue;
            }
            if let Some(rest) = parse_unicode_class(s, t)? {
                t = rest;
                continue;
            }
            if let Some(rest) = parse_perl_class_escape(s, t) {
                t = rest;
                continue;
            }
            // A single character or a range.
            let range_start = t;
            let (lo, rest) = parse_class_char(s, t, whole)?;
            t = rest;
            if b.len() >= t + 2 && b[t] == b'-' && b[t + 1] != b']' {
                let (hi, rest) = parse_class_char(s, t + 1, whole)?;
                t = rest;
                if hi < lo {
                    return Err(err(ERR_INVALID_CHAR_RANGE, &s[range_start..t]));
                }
            }
        }
        self.push_leaf(Op::CharLike)?;
        Ok(t + 1)
    }
}

/// The character at byte offset `i` (which must be a char boundary).
fn next_char(s: &str, i: usize) -> char {
    s[i..].chars().next().unwrap_or('\u{FFFD}')
}

/// Go's `parseRepeat` at `{`: `(min, max, after)`; `max == -1` for `{n,}`; a number
/// too large gives `min == -1`. `None` when this is not a repetition.
fn parse_repeat(s: &str, start: usize) -> Option<(i64, i64, usize)> {
    let b = s.as_bytes();
    let mut t = start + 1;
    let (min, rest) = parse_int(b, t)?;
    t = rest;
    let mut min = min;
    let max;
    if t >= b.len() {
        return None;
    }
    if b[t] != b',' {
        max = min;
    } else {
        t += 1;
        if t >= b.len() {
            return None;
        }
        if b[t] == b'}' {
            max = -1;
        } else {
            let (m, rest) = parse_int(b, t)?;
            t = rest;
            max = m;
            if max < 0 {
                min = -1;
            }
        }
    }
    if t >= b.len() || b[t] != b'}' {
        return None;
    }
    Some((min, max, t + 1))
}

/// Go's `parseInt`: decimal digits without leading zeros; `-1` when ≥ 1e8.
fn parse_int(b: &[u8], start: usize) -> Option<(i64, usize)> {
    if start >= b.len() || !b[start].is_ascii_digit() {
        return None;
    }
    if b.len() >= start + 2 && b[start] == b'0' && b[start + 1].is_ascii_digit() {
        return None;
    }
    let mut t = start;
    while t < b.len() && b[t].is_ascii_digit() {
        t += 1;
    }
    let mut n: i64 = 0;
    for &d in &b[start..t] {
        if n >= 100_000_000 {
            n = -1;
            break;
        }
        n = n * 10 + i64::from(d - b'0');
    }
    Some((n, t))
}

/// Go's `parseEscape`: `t` is at `\`; returns the rune and the position after it.
fn parse_escape(s: &str, t: usize) -> Result<(u32, usize), GoRegexpError> {
    let b = s.as_bytes();
    let mut pos = t + 1;
    if pos >= b.len() {
        return Err(err(ERR_TRAILING_BACKSLASH, ""));
    }
    let c = next_char(s, pos);
    pos += c.len_utf8();
    let invalid = |end: usize| Err(err(ERR_INVALID_ESCAPE, &s[t..end]));
    let is_octal = |i: usize| i < b.len() && (b'0'..=b'7').contains(&b[i]);
    match c {
        '1'..='7' if !is_octal(pos) => invalid(pos),
        '0'..='7' => {
            // Up to three octal digits in all.
            let mut r = c as u32 - '0' as u32;
            for _ in 1..3 {
                if !is_octal(pos) {
                    break;
                }
                r = r * 8 + u32::from(b[pos] - b'0');
                pos += 1;
            }
            Ok((r, pos))
        }
        'x' => {
            if pos >= b.len() {
                return invalid(pos);
            }
            let c = next_char(s, pos);
            pos += c.len_utf8();
            if c == '{' {
                let mut nhex = 0;
                let mut r: u32 = 0;
                loop {
                    if pos >= b.len() {
                        return invalid(pos);
                    }
                    let c = next_char(s, pos);
                    pos += c.len_utf8();
                    if c == '}' {
                        break;
                    }
                    let Some(v) = c.to_digit(16) else {
                        return invalid(pos);
                    };
                    r = r * 16 + v;
                    if r > 0x10FFFF {
                        return invalid(pos);
                    }
                    nhex += 1;
                }
                if nhex == 0 {
                    return invalid(pos);
                }
                return Ok((r, pos));
            }
            let x = c.to_digit(16);
            if pos >= b.len() {
                // Go decodes the missing second digit as an error rune.
                return invalid(pos);
            }
            let c2 = next_char(s, pos);
            pos += c2.len_utf8();
            match (x, c2.to_digit(16)) {
                (Some(x), Some(y)) => Ok((x * 16 + y, pos)),
                _ => invalid(pos),
            }
        }
        'a' => Ok((7, pos)),
        'f' => Ok((12, pos)),
        'n' => Ok((10, pos)),
        'r' => Ok((13, pos)),
        't' => Ok((9, pos)),
        'v' => Ok((11, pos)),
        c if c.is_ascii() && !c.is_ascii_alphanumeric() => Ok((c as u32, pos)),
        _ => invalid(pos),
    }
}

/// Go's `parseClassChar`.
fn parse_class_char(s: &str, t: usize, whole_class: &str) -> Result<(u32, usize), GoRegexpError> {
    if t >= s.len() {
        return Err(err(ERR_MISSING_BRACKET, whole_class));
    }
    if s.as_bytes()[t] == b'\\' {
        return parse_escape(s, t);
    }
    let c = next_char(s, t);
    Ok((c as u32, t + c.len_utf8()))
}

/// Go's `parsePerlClassEscape`: `\d \D \s \S \w \W`.
fn parse_perl_class_escape(s: &str, t: usize) -> Option<usize> {
    let b = s.as_bytes();
    (b.len() >= t + 2 && b[t] == b'\\' && matches!(b[t + 1], b'd' | b'D' | b's' | b'S' | b'w' | b'W')).then_some(t + 2)
}

const POSIX_CLASSES: &[&str] = &[
    "alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space", "upper", "word",
    "xdigit",
];

/// Go's `parseNamedClass` at `[:`: `Some(after)` for a known name, `None` when there
/// is no closing `:]`.
fn parse_named_class(s: &str, t: usize) -> Result<Option<usize>, GoRegexpError> {
    let Some(i) = s[t + 2..].find(":]") else {
        return Ok(None);
    };
    let end = t + 2 + i + 2;
    let name = &s[t..end];
    let inner = &name[2..name.len() - 2];
    let inner = inner.strip_prefix('^').unwrap_or(inner);
    if POSIX_CLASSES.contains(&inner) {
        Ok(Some(end))
    } else {
        Err(err(ERR_INVALID_CHAR_RANGE, name))
    }
}

/// Go's `parseUnicodeClass` at `\p` / `\P`: `Some(after)`, or `None` if `t` does not
/// start one.
fn parse_unicode_class(s: &str, t: usize) -> Result<Option<usize>, GoRegexpError> {
    let b = s.as_bytes();
    if b.len() < t + 2 || b[t] != b'\\' || (b[t + 1] != b'p' && b[t + 1] != b'P') {
        return Ok(None);
    }
    let rest_at = t + 2;
    let (seq, name, after) = if rest_at >= b.len() {
        // Go decodes the missing rune as U+FFFD of width 0: the name is empty.
        (&s[t..rest_at], "", rest_at)
    } else if b[rest_at] != b'{' {
        let c = next_char(s, rest_at);
        let end = rest_at + c.len_utf8();
        (&s[t..end], &s[rest_at..end], end)
    } else {
        let Some(end) = s[t..].find('}') else {
            return Err(err(ERR_INVALID_CHAR_RANGE, &s[t..]));
        };
        let end = t + end;
        (&s[t..end + 1], &s[t + 3..end], end + 1)
    };
    let name = name.strip_prefix('^').unwrap_or(name);
    if is_unicode_class_name(name) {
        Ok(Some(after))
    } else {
        Err(err(ERR_INVALID_CHAR_RANGE, seq))
    }
}

/// Go's `canonicalName`: first letter upper case, the rest lower case, without `_`,
/// `-` and spaces (byte-wise, ASCII only).
fn canonical_name(name: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(name.len());
    let mut first = true;
    for &c in name.as_bytes() {
        if c == b'_' || c == b'-' || c == b' ' {
            continue;
        }
        if first {
            out.push(c.to_ascii_uppercase());
            first = false;
        } else {
            out.push(c.to_ascii_lowercase());
        }
    }
    out
}

/// Whether Go's `unicodeTable(name)` knows the name.
fn is_unicode_class_name(name: &str) -> bool {
    let canon = canonical_name(name);
    if [&b"Any"[..], b"Assigned", b"Ascii", b"Lc"].contains(&canon.as_slice()) {
        return true;
    }
    UNICODE_CATEGORIES
        .iter()
        .chain(UNICODE_SCRIPTS)
        .chain(UNICODE_CATEGORY_ALIASES)
        .any(|n| canonical_name(n) == canon)
}

/// `unicode.Categories` keys (Go 1.27).
const UNICODE_CATEGORIES: &[&str] = &[
    "C", "Cc", "Cf", "Cn", "Co", "Cs", "L", "LC", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn", "N", "Nd", "Nl",
    "No", "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "S", "Sc", "Sk", "Sm", "So", "Z", "Zl", "Zp", "Zs",
];

/// `unicode.CategoryAliases` keys (Go 1.27).
const UNICODE_CATEGORY_ALIASES: &[&str] = &[
    "Cased_Letter",
    "Close_Punctuation",
    "Combining_Mark",
    "Connector_Punctuation",
    "Control",
    "Currency_Symbol",
    "Dash_Punctuation",
    "Decimal_Number",
    "Enclosing_Mark",
    "Final_Punctuation",
    "Format",
    "Initial_Punctuation",
    "Letter",
    "Letter_Number",
    "Line_Separator",
    "Lowercase_Letter",
    "Mark",
    "Math_Symbol",
    "Modifier_Letter",
    "Modifier_Symbol",
    "Nonspacing_Mark",
    "Number",
    "Open_Punctuation",
    "Other",
    "Other_Letter",
    "Other_Number",
    "Other_Punctuation",
    "Other_Symbol",
    "Paragraph_Separator",
    "Private_Use",
    "Punctuation",
    "Separator",
    "Space_Separator",
    "Spacing_Mark",
    "Surrogate",
    "Symbol",
    "Titlecase_Letter",
    "Unassigned",
    "Uppercase_Letter",
    "cntrl",
    "digit",
    "punct",
];

/// `unicode.Scripts` keys (Go 1.27, Unicode 17.0.0).
const UNICODE_SCRIPTS: &[&str] = &[
    "Adlam",
    "Ahom",
    "Anatolian_Hieroglyphs",
    "Arabic",
    "Armenian",
    "Avestan",
    "Balinese",
    "Bamum",
    "Bassa_Vah",
    "Batak",
    "Bengali",
    "Beria_Erfe",
    "Bhaiksuki",
    "Bopomofo",
    "Brahmi",
    "Braille",
    "Buginese",
    "Buhid",
    "Canadian_Aboriginal",
    "Carian",
    "Caucasian_Albanian",
    "Chakma",
    "Cham",
    "Cherokee",
    "Chorasmian",
    "Common",
    "Coptic",
    "Cuneiform",
    "Cypriot",
    "Cypro_Minoan",
    "Cyrillic",
    "Deseret",
    "Devanagari",
    "Dives_Akuru",
    "Dogra",
    "Duployan",
    "Egyptian_Hieroglyphs",
    "Elbasan",
    "Elymaic",
    "Ethiopic",
    "Garay",
    "Georgian",
    "Glagolitic",
    "Gothic",
    "Grantha",
    "Greek",
    "Gujarati",
    "Gunjala_Gondi",
    "Gurmukhi",
    "Gurung_Khema",
    "Han",
    "Hangul",
    "Hanifi_Rohingya",
    "Hanunoo",
    "Hatran",
    "Hebrew",
    "Hiragana",
    "Imperial_Aramaic",
    "Inherited",
    "Inscriptional_Pahlavi",
    "Inscriptional_Parthian",
    "Javanese",
    "Kaithi",
    "Kannada",
    "Katakana",
    "Kawi",
    "Kayah_Li",
    "Kharoshthi",
    "Khitan_Small_Script",
    "Khmer",
    "Khojki",
    "Khudawadi",
    "Kirat_Rai",
    "Lao",
    "Latin",
    "Lepcha",
    "Limbu",
    "Linear_A",
    "Linear_B",
    "Lisu",
    "Lycian",
    "Lydian",
    "Mahajani",
    "Makasar",
    "Malayalam",
    "Mandaic",
    "Manichaean",
    "Marchen",
    "Masaram_Gondi",
    "Medefaidrin",
    "Meetei_Mayek",
    "Mende_Kikakui",
    "Meroitic_Cursive",
    "Meroitic_Hieroglyphs",
    "Miao",
    "Modi",
    "Mongolian",
    "Mro",
    "Multani",
    "Myanmar",
    "Nabataean",
    "Nag_Mundari",
    "Nandinagari",
    "New_Tai_Lue",
    "Newa",
    "Nko",
    "Nushu",
    "Nyiakeng_Puachue_Hmong",
    "Ogham",
    "Ol_Chiki",
    "Ol_Onal",
    "Old_Hungarian",
    "Old_Italic",
    "Old_North_Arabian",
    "Old_Permic",
    "Old_Persian",
    "Old_Sogdian",
    "Old_South_Arabian",
    "Old_Turkic",
    "Old_Uyghur",
    "Oriya",
    "Osage",
    "Osmanya",
    "Pahawh_Hmong",
    "Palmyrene",
    "Pau_Cin_Hau",
    "Phags_Pa",
    "Phoenician",
    "Psalter_Pahlavi",
    "Rejang",
    "Runic",
    "Samaritan",
    "Saurashtra",
    "Sharada",
    "Shavian",
    "Siddham",
    "Sidetic",
    "SignWriting",
    "Sinhala",
    "Sogdian",
    "Sora_Sompeng",
    "Soyombo",
    "Sundanese",
    "Sunuwar",
    "Syloti_Nagri",
    "Syriac",
    "Tagalog",
    "Tagbanwa",
    "Tai_Le",
    "Tai_Tham",
    "Tai_Viet",
    "Tai_Yo",
    "Takri",
    "Tamil",
    "Tangsa",
    "Tangut",
    "Telugu",
    "Thaana",
    "Thai",
    "Tibetan",
    "Tifinagh",
    "Tirhuta",
    "Todhri",
    "Tolong_Siki",
    "Toto",
    "Tulu_Tigalari",
    "Ugaritic",
    "Vai",
    "Vithkuqi",
    "Wancho",
    "Warang_Citi",
    "Yezidi",
    "Yi",
    "Zanabazar_Square",
];
