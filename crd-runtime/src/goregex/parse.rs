//! A port of Go's `regexp/syntax` parser (`parse.go`), with the `Perl` flags that
//! `regexp.Compile` uses (`ClassNL | OneLine | PerlX | UnicodeGroups`).
//!
//! It mirrors Go's parse stack (pseudo-operators `(` and `|`, concatenation,
//! alternation, merging single-character alternatives in `swapVerticalBar`),
//! because validity depends on it: a repetition operator needs an operand on the
//! stack (`^*` and `a(?i)*` are valid, `(*` and `|*` are not), a stacked repetition
//! is an error (`a**`, `a{2}{3}`), nested counted repetitions may not exceed 1000
//! copies (`(a{10}){200}`), `{n,m}` counts are at most 1000. Go's limits on nesting
//! depth (1000) and program size (3,355,443 instructions) are checked with Go's
//! size formula.

use super::ast::{CharClass, ClassPart, ClassSet, MAX_RUNE, Regexp, Set, clean};
use super::unicode::{self, UnicodeName};
use super::{GoRegexpError, codes::*};

/// Go's `maxHeight`.
const MAX_HEIGHT: i64 = 1000;
/// Go's `maxSize` (128 MiB of 40-byte instructions).
const MAX_SIZE: i64 = (128 << 20) / 40;
/// Go's `maxRepeat`.
const MAX_REPEAT: i64 = 1000;

/// Parse-time flags (the part of Go's `Flags` that `(?imsU)` can change).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Flags {
    fold: bool,
    dot_nl: bool,
    one_line: bool,
    non_greedy: bool,
}

/// `regexp.Compile`'s parse: the tree, or Go's error.
pub fn parse(expr: &str) -> Result<Regexp, GoRegexpError> {
    let mut p = Parser {
        s: expr,
        nodes: Vec::new(),
        stack: Vec::new(),
        flags: Flags {
            one_line: true,
            ..Flags::default()
        },
        num_cap: 0,
    };
    let root = p.parse()?;
    Ok(p.build(root))
}

fn err(code: &'static str, expr: &str) -> GoRegexpError {
    GoRegexpError {
        code,
        expr: expr.to_string(),
    }
}

#[derive(Debug)]
enum Op {
    NoMatch,
    EmptyMatch,
    Literal(u32, bool),
    Class(CharClass),
    AnyCharNotNL,
    AnyChar,
    BeginLine,
    EndLine,
    BeginText,
    EndText(bool),
    WordBoundary,
    NoWordBoundary,
    Capture(usize, Option<String>),
    Star(bool),
    Plus(bool),
    Quest(bool),
    Repeat(i64, i64, bool),
    Concat,
    Alternate,
    /// Pseudo-operators on the parse stack. A `(` remembers the flags to restore
    /// at its `)` and, if it captures, its index and name.
    LeftParen(Option<(usize, Option<String>)>, Flags),
    VerticalBar,
}

impl Op {
    fn is_pseudo(&self) -> bool {
        matches!(self, Op::LeftParen(..) | Op::VerticalBar)
    }

    /// Go's `isCharClass`: one-rune literal, class, `.`.
    fn is_char_like(&self) -> bool {
        matches!(self, Op::Literal(..) | Op::Class(_) | Op::AnyChar | Op::AnyCharNotNL)
    }
}

struct Node {
    op: Op,
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
    flags: Flags,
    num_cap: usize,
}

impl Parser<'_> {
    fn new_node(&mut self, op: Op, subs: Vec<usize>) -> usize {
        let sub_size = |p: &Self, i: usize| p.nodes[i].size;
        let size = match op {
            Op::Capture(..) | Op::Star(_) => 2 + sub_size(self, subs[0]),
            Op::Plus(_) | Op::Quest(_) => 1 + sub_size(self, subs[0]),
            Op::Concat => subs.iter().map(|&i| sub_size(self, i)).sum(),
            Op::Alternate => subs.iter().map(|&i| sub_size(self, i)).sum::<i64>() + subs.len() as i64 - 1,
            Op::Repeat(min, max, _) => {
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
        self.nodes.push(Node { op, subs, size, height });
        self.nodes.len() - 1
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

    fn push_op(&mut self, op: Op) -> Result<(), GoRegexpError> {
        let i = self.new_node(op, Vec::new());
        self.push(i)
    }

    /// Go's `literal`.
    fn literal(&mut self, r: u32) -> Result<(), GoRegexpError> {
        self.push_op(Op::Literal(r, self.flags.fold))
    }

    fn push_class(&mut self, part: ClassPart) -> Result<(), GoRegexpError> {
        self.push_op(Op::Class(CharClass { parts: vec![part] }))
    }

    fn top_is(&self, from_top: usize, f: impl Fn(&Op) -> bool) -> bool {
        let n = self.stack.len();
        n > from_top && f(&self.nodes[self.stack[n - 1 - from_top]].op)
    }

    /// Go's `collapse`: one sub stays itself; nested nodes of the same op are hoisted.
    fn collapse(&mut self, subs: Vec<usize>, concat: bool) -> usize {
        if subs.len() == 1 {
            return subs[0];
        }
        let mut flat = Vec::with_capacity(subs.len());
        for s in subs {
            let same = match self.nodes[s].op {
                Op::Concat => concat,
                Op::Alternate => !concat,
                _ => false,
            };
            if same {
                flat.extend(std::mem::take(&mut self.nodes[s].subs));
            } else {
                flat.push(s);
            }
        }
        self.new_node(if concat { Op::Concat } else { Op::Alternate }, flat)
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
            self.new_node(Op::EmptyMatch, Vec::new())
        } else {
            self.collapse(subs, true)
        };
        self.push(i)
    }

    fn alternate(&mut self) -> Result<(), GoRegexpError> {
        let subs = self.pop_above_pseudo();
        let i = if subs.is_empty() {
            self.new_node(Op::NoMatch, Vec::new())
        } else {
            self.collapse(subs, false)
        };
        self.push(i)
    }

    /// Go's `swapVerticalBar`.
    fn swap_vertical_bar(&mut self) -> bool {
        let n = self.stack.len();
        if n >= 3
            && self.top_is(1, |op| matches!(op, Op::VerticalBar))
            && self.top_is(0, Op::is_char_like)
            && self.top_is(2, Op::is_char_like)
        {
            // The two single-character alternatives merge into one class.
            let top = self.stack.pop().unwrap_or_default();
            let below = self.stack[n - 3];
            let a = self.class_of(below);
            let b = self.class_of(top);
            let mut merged = a;
            merged.merge(b);
            self.nodes[below].op = Op::Class(merged);
            return true;
        }
        if n >= 2 && self.top_is(1, |op| matches!(op, Op::VerticalBar)) {
            self.stack.swap(n - 1, n - 2);
            return true;
        }
        false
    }

    fn class_of(&self, i: usize) -> CharClass {
        let re = match &self.nodes[i].op {
            Op::Literal(r, f) => Regexp::Literal { rune: *r, fold: *f },
            Op::AnyChar => Regexp::AnyChar,
            Op::AnyCharNotNL => Regexp::AnyCharNotNL,
            Op::Class(c) => return c.clone(),
            _ => return CharClass::default(),
        };
        CharClass::of_char_like(&re).unwrap_or_default()
    }

    fn parse_vertical_bar(&mut self) -> Result<(), GoRegexpError> {
        self.concat()?;
        if !self.swap_vertical_bar() {
            let i = self.new_node(Op::VerticalBar, Vec::new());
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
        let Op::LeftParen(capture, flags) = &mut self.nodes[re2].op else {
            return Err(err(ERR_UNEXPECTED_PAREN, self.s));
        };
        // Restore the flags at the time of the paren.
        self.flags = *flags;
        match capture.take() {
            Some((index, name)) => {
                let c = self.new_node(Op::Capture(index, name), vec![re1]);
                self.push(c)
            }
            None => self.push(re1),
        }
    }

    fn open_paren(&mut self, capture: Option<(usize, Option<String>)>) {
        let i = self.new_node(Op::LeftParen(capture, self.flags), Vec::new());
        self.stack.push(i);
    }

    /// Go's `repeat`: `before` is where the operator starts, `after` where it ends;
    /// `last_repeat` the start of the previous token if it was a repetition too.
    fn repeat(
        &mut self,
        kind: u8,
        min: i64,
        max: i64,
        before: usize,
        mut after: usize,
        last_repeat: Option<usize>,
    ) -> Result<usize, GoRegexpError> {
        let mut non_greedy = self.flags.non_greedy;
        if self.s.as_bytes().get(after) == Some(&b'?') {
            after += 1;
            non_greedy = !non_greedy;
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
        let greedy = !non_greedy;
        let op = match kind {
            b'*' => Op::Star(greedy),
            b'+' => Op::Plus(greedy),
            b'?' => Op::Quest(greedy),
            _ => Op::Repeat(min, max, greedy),
        };
        let re = self.new_node(op, vec![sub]);
        let n = self.stack.len();
        self.stack[n - 1] = re;
        self.check_limits(re)?;
        if kind == b'{' && (min >= 2 || max >= 2) && !self.repeat_is_valid(re, MAX_REPEAT) {
            return Err(err(ERR_INVALID_REPEAT_SIZE, &self.s[before..after]));
        }
        Ok(after)
    }

    /// Go's `repeatIsValid`.
    fn repeat_is_valid(&self, i: usize, mut n: i64) -> bool {
        let node = &self.nodes[i];
        if let Op::Repeat(min, max, _) = node.op {
            let mut m = max;
            if m == 0 {
                return true;
            }
            if m < 0 {
                m = min;
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

    fn parse(&mut self) -> Result<usize, GoRegexpError> {
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
                        self.num_cap += 1;
                        self.open_paren(Some((self.num_cap, None)));
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
                b'^' => {
                    self.push_op(if self.flags.one_line {
                        Op::BeginText
                    } else {
                        Op::BeginLine
                    })?;
                    t += 1;
                }
                b'$' => {
                    self.push_op(if self.flags.one_line {
                        Op::EndText(true)
                    } else {
                        Op::EndLine
                    })?;
                    t += 1;
                }
                b'.' => {
                    self.push_op(if self.flags.dot_nl {
                        Op::AnyChar
                    } else {
                        Op::AnyCharNotNL
                    })?;
                    t += 1;
                }
                b'[' => {
                    t = self.parse_class(t)?;
                }
                c @ (b'*' | b'+' | b'?') => {
                    let before = t;
                    t = self.repeat(c, 0, 0, before, t + 1, last_repeat)?;
                    repeat = Some(before);
                }
                b'{' => {
                    let before = t;
                    match parse_repeat(s, t) {
                        None => {
                            // Not a repetition: `{` is a literal.
                            self.literal(u32::from(b'{'))?;
                            t += 1;
                        }
                        Some((min, max, after)) => {
                            if !(0..=MAX_REPEAT).contains(&min) || max > MAX_REPEAT || (max >= 0 && min > max) {
                                return Err(err(ERR_INVALID_REPEAT_SIZE, &s[before..after]));
                            }
                            t = self.repeat(b'{', min, max, before, after, last_repeat)?;
                            repeat = Some(before);
                        }
                    }
                }
                b'\\' => {
                    t = self.parse_backslash(t)?;
                }
                _ => {
                    let c = next_char(s, t);
                    self.literal(c as u32)?;
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
        Ok(self.stack[0])
    }

    /// A `\` outside a class (the `'\\'` case of Go's main loop).
    fn parse_backslash(&mut self, t: usize) -> Result<usize, GoRegexpError> {
        let s = self.s;
        let b = s.as_bytes();
        if let Some(&c) = b.get(t + 1) {
            let op = match c {
                b'A' => Some(Op::BeginText),
                b'b' => Some(Op::WordBoundary),
                b'B' => Some(Op::NoWordBoundary),
                b'z' => Some(Op::EndText(false)),
                b'C' => return Err(err(ERR_INVALID_ESCAPE, &s[t..t + 2])),
                b'Q' => {
                    // \Q ... \E: literals up to \E or the end.
                    let rest = &s[t + 2..];
                    let (lit, after) = match rest.find("\\E") {
                        Some(i) => (&rest[..i], t + 2 + i + 2),
                        None => (rest, s.len()),
                    };
                    for c in lit.chars() {
                        self.literal(c as u32)?;
                    }
                    return Ok(after);
                }
                _ => None,
            };
            if let Some(op) = op {
                self.push_op(op)?;
                return Ok(t + 2);
            }
        }
        let fold = self.flags.fold;
        if let Some((part, rest)) = parse_unicode_class(s, t, fold)? {
            self.push_class(part)?;
            return Ok(rest);
        }
        if let Some((part, rest)) = parse_perl_class_escape(s, t, fold) {
            self.push_class(part)?;
            return Ok(rest);
        }
        let (r, rest) = parse_escape(s, t)?;
        self.literal(r)?;
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
            self.num_cap += 1;
            self.open_paren(Some((self.num_cap, Some(name.to_string()))));
            return Ok(start + end + 1);
        }
        // Non-capturing group, possibly with flag changes.
        let mut flags = self.flags;
        let mut pos = start + 2;
        let mut negated = false;
        let mut saw_flag = false;
        while pos < s.len() {
            let c = next_char(s, pos);
            pos += c.len_utf8();
            let on = !negated;
            match c {
                'i' => flags.fold = on,
                // `m` turns Go's OneLine off.
                'm' => flags.one_line = !on,
                's' => flags.dot_nl = on,
                'U' => flags.non_greedy = on,
                '-' => {
                    if negated {
                        break;
                    }
                    negated = true;
                    saw_flag = false;
                    continue;
                }
                ':' | ')' => {
                    if negated && !saw_flag {
                        break;
                    }
                    if c == ':' {
                        // The group restores the flags from before its own.
                        self.open_paren(None);
                    }
                    self.flags = flags;
                    return Ok(pos);
                }
                _ => break,
            }
            saw_flag = true;
        }
        Err(err(ERR_INVALID_PERL_OP, &s[start..pos]))
    }

    /// Go's `parseClass`: `start` is at `[`; returns the position after `]`.
    fn parse_class(&mut self, start: usize) -> Result<usize, GoRegexpError> {
        let s = self.s;
        let b = s.as_bytes();
        let whole = &s[start..];
        let fold = self.flags.fold;
        let mut part = ClassPart {
            fold,
            ..ClassPart::default()
        };
        let mut t = start + 1;
        if b.get(t) == Some(&b'^') {
            part.negated = true;
            t += 1;
        }
        let mut first = true;
        while t >= b.len() || b[t] != b']' || first {
            first = false;
            // POSIX [:alnum:] etc.
            if b.len() > t + 2
                && b[t] == b'['
                && b[t + 1] == b':'
                && let Some((p, rest)) = parse_named_class(s, t, fold)?
            {
                absorb(&mut part, p);
                t = rest;
                continue;
            }
            if let Some((p, rest)) = parse_unicode_class(s, t, fold)? {
                absorb(&mut part, p);
                t = rest;
                continue;
            }
            if let Some((p, rest)) = parse_perl_class_escape(s, t, fold) {
                absorb(&mut part, p);
                t = rest;
                continue;
            }
            // A single character or a range.
            let range_start = t;
            let (lo, rest) = parse_class_char(s, t, whole)?;
            t = rest;
            let mut hi = lo;
            if b.len() >= t + 2 && b[t] == b'-' && b[t + 1] != b']' {
                let (h, rest) = parse_class_char(s, t + 1, whole)?;
                t = rest;
                if h < lo {
                    return Err(err(ERR_INVALID_CHAR_RANGE, &s[range_start..t]));
                }
                hi = h;
            }
            // Under (?i) the ranges are closed under case folding when matched.
            part.ranges.push((lo, hi));
        }
        part.ranges = clean(std::mem::take(&mut part.ranges));
        self.push_class(part)?;
        Ok(t + 1)
    }

    /// The tree below node `i`.
    fn build(&mut self, i: usize) -> Regexp {
        let subs = std::mem::take(&mut self.nodes[i].subs);
        let op = std::mem::replace(&mut self.nodes[i].op, Op::NoMatch);
        let mut subs: Vec<Regexp> = subs.into_iter().map(|s| self.build(s)).collect();
        if !matches!(op, Op::Concat | Op::Alternate) {
            subs.truncate(1);
        }
        let sub = |subs: Vec<Regexp>| Box::new(subs.into_iter().next().unwrap_or(Regexp::EmptyMatch));
        match op {
            Op::NoMatch | Op::LeftParen(..) | Op::VerticalBar => Regexp::NoMatch,
            Op::EmptyMatch => Regexp::EmptyMatch,
            Op::Literal(rune, fold) => Regexp::Literal { rune, fold },
            Op::Class(c) => Regexp::CharClass(c),
            Op::AnyCharNotNL => Regexp::AnyCharNotNL,
            Op::AnyChar => Regexp::AnyChar,
            Op::BeginLine => Regexp::BeginLine,
            Op::EndLine => Regexp::EndLine,
            Op::BeginText => Regexp::BeginText,
            Op::EndText(was_dollar) => Regexp::EndText { was_dollar },
            Op::WordBoundary => Regexp::WordBoundary,
            Op::NoWordBoundary => Regexp::NoWordBoundary,
            Op::Capture(index, name) => Regexp::Capture {
                index,
                name,
                sub: sub(subs),
            },
            Op::Star(greedy) => Regexp::Star { greedy, sub: sub(subs) },
            Op::Plus(greedy) => Regexp::Plus { greedy, sub: sub(subs) },
            Op::Quest(greedy) => Regexp::Quest { greedy, sub: sub(subs) },
            Op::Repeat(min, max, greedy) => Regexp::Repeat {
                min: min as u32,
                max: u32::try_from(max).ok(),
                greedy,
                sub: sub(subs),
            },
            Op::Concat => Regexp::Concat(subs),
            Op::Alternate => Regexp::Alternate(subs),
        }
    }
}

/// Adds a named class (`[:alpha:]`, `\pL`, `\d`) to the class being parsed.
fn absorb(part: &mut ClassPart, sub: ClassPart) {
    part.ranges.extend(sub.ranges);
    part.sets.extend(sub.sets);
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
    let (mut min, rest) = parse_int(b, t)?;
    t = rest;
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
        // A single non-zero digit is a backreference: not supported.
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
                    if r > MAX_RUNE {
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
fn parse_perl_class_escape(s: &str, t: usize, fold: bool) -> Option<(ClassPart, usize)> {
    let b = s.as_bytes();
    if b.len() < t + 2 || b[t] != b'\\' {
        return None;
    }
    let (class, negated) = unicode::perl_group(b[t + 1])?;
    Some((unicode::ascii_group(class, negated, fold), t + 2))
}

/// Go's `parseNamedClass` at `[:`: the class's runes and the position after it for
/// a known name, `None` when there is no closing `:]`.
fn parse_named_class(s: &str, t: usize, fold: bool) -> Result<Option<(ClassPart, usize)>, GoRegexpError> {
    let Some(i) = s[t + 2..].find(":]") else {
        return Ok(None);
    };
    let end = t + 2 + i + 2;
    let name = &s[t..end];
    let inner = &name[2..name.len() - 2];
    let (inner, negated) = match inner.strip_prefix('^') {
        Some(n) => (n, true),
        None => (inner, false),
    };
    match unicode::posix_group(inner) {
        Some(class) => Ok(Some((unicode::ascii_group(class, negated, fold), end))),
        None => Err(err(ERR_INVALID_CHAR_RANGE, name)),
    }
}

/// Go's `parseUnicodeClass` at `\p` / `\P`: the class and the position after it,
/// or `None` if `t` does not start one.
fn parse_unicode_class(s: &str, t: usize, fold: bool) -> Result<Option<(ClassPart, usize)>, GoRegexpError> {
    let b = s.as_bytes();
    if b.len() < t + 2 || b[t] != b'\\' || (b[t + 1] != b'p' && b[t + 1] != b'P') {
        return Ok(None);
    }
    let mut negated = b[t + 1] == b'P';
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
    let name = match name.strip_prefix('^') {
        Some(n) => {
            negated = !negated;
            n
        }
        None => name,
    };
    let part = match unicode::lookup(name) {
        None => return Err(err(ERR_INVALID_CHAR_RANGE, seq)),
        Some(UnicodeName::Any) => {
            let ranges = if negated { Vec::new() } else { vec![(0, MAX_RUNE)] };
            ClassPart::from_ranges(ranges, fold)
        }
        Some(UnicodeName::Ascii) => unicode::ascii_group(unicode::ASCII, negated, fold),
        Some(UnicodeName::Table {
            table,
            negated: inverted,
        }) => ClassPart {
            fold,
            sets: vec![ClassSet {
                set: Set::Unicode(table),
                negated: negated != inverted,
            }],
            ..ClassPart::default()
        },
    };
    Ok(Some((part, after)))
}
