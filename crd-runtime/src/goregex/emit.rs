//! The tree as a pattern for the `regex` crate with the same matches.

use super::ast::{CharClass, ClassPart, MAX_RUNE, Regexp, Set, UnicodeTable};
use super::unicode::SCRIPTS_NEWER_THAN_REGEX_CRATE;
use std::collections::HashSet;
use std::fmt::Write;

/// Matches no character: an empty class.
const NO_MATCH: &str = r"[^\x{0}-\x{10FFFF}]";
/// Matches any character.
const ANY_CHAR: &str = "(?s:.)";

/// The `regex` crate pattern for a Go syntax tree, with the same matches and the
/// same capture group numbers.
///
/// Everything whose meaning differs between the two syntaxes is spelled out:
/// classes are explicit ranges (ASCII `\d \s \w`, POSIX classes, negated ones as
/// nested `[^...]`) or Unicode property names, `.` is `[^\n]` or `(?s:.)`, anchors
/// are `\A`, `\z`, `(?m:^)`, `(?m:$)`, word boundaries are ASCII (`(?-u:\b)`,
/// `(?-u:\B)`), case folding is `(?i:...)` exactly where Go folds, each repetition
/// carries its own greediness, literal metacharacters are escaped. No global flag
/// is set. Capture names the `regex` crate refuses (a leading digit, a repeated
/// name) are dropped; the groups keep their numbers. Surrogates (`\x{D800}`), which
/// no string contains, match nothing.
pub fn to_rust_syntax(re: &Regexp) -> String {
    let mut e = Emitter {
        out: String::new(),
        names: HashSet::new(),
    };
    e.emit(re);
    e.out
}

struct Emitter {
    out: String,
    /// Capture names already used (the `regex` crate rejects duplicates, Go does not).
    names: HashSet<String>,
}

impl Emitter {
    fn emit(&mut self, re: &Regexp) {
        match re {
            Regexp::NoMatch => self.out.push_str(NO_MATCH),
            Regexp::EmptyMatch => self.out.push_str("(?:)"),
            Regexp::Literal { rune, fold } => self.literals(&[*rune], *fold),
            Regexp::CharClass(c) => self.class(c),
            Regexp::AnyCharNotNL => self.out.push_str(r"[^\n]"),
            Regexp::AnyChar => self.out.push_str(ANY_CHAR),
            Regexp::BeginLine => self.out.push_str("(?m:^)"),
            Regexp::EndLine => self.out.push_str("(?m:$)"),
            Regexp::BeginText => self.out.push_str(r"\A"),
            Regexp::EndText { .. } => self.out.push_str(r"\z"),
            Regexp::WordBoundary => self.out.push_str(r"(?-u:\b)"),
            Regexp::NoWordBoundary => self.out.push_str(r"(?-u:\B)"),
            Regexp::Capture { name, sub, .. } => {
                // The regex crate wants unique names not starting with a digit; the
                // group keeps its number either way.
                match name {
                    Some(n) if !n.starts_with(|c: char| c.is_ascii_digit()) && self.names.insert(n.clone()) => {
                        let _ = write!(self.out, "(?P<{n}>");
                    }
                    _ => self.out.push('('),
                }
                self.emit(sub);
                self.out.push(')');
            }
            Regexp::Star { greedy, sub } => self.repeat(sub, "*", *greedy),
            Regexp::Plus { greedy, sub } => self.repeat(sub, "+", *greedy),
            Regexp::Quest { greedy, sub } => self.repeat(sub, "?", *greedy),
            Regexp::Repeat { min, max, greedy, sub } => {
                let op = match max {
                    Some(max) if max == min => format!("{{{min}}}"),
                    Some(max) => format!("{{{min},{max}}}"),
                    None => format!("{{{min},}}"),
                };
                self.repeat(sub, &op, *greedy);
            }
            Regexp::Concat(subs) => {
                let mut i = 0;
                while i < subs.len() {
                    if let Regexp::Literal { fold, .. } = subs[i] {
                        // A run of literals with the same folding.
                        let mut run = Vec::new();
                        while let Some(Regexp::Literal { rune, fold: f }) = subs.get(i)
                            && *f == fold
                        {
                            run.push(*rune);
                            i += 1;
                        }
                        self.literals(&run, fold);
                        continue;
                    }
                    if matches!(subs[i], Regexp::Alternate(_)) {
                        self.group(&subs[i]);
                    } else {
                        self.emit(&subs[i]);
                    }
                    i += 1;
                }
            }
            Regexp::Alternate(subs) => {
                for (i, sub) in subs.iter().enumerate() {
                    if i > 0 {
                        self.out.push('|');
                    }
                    self.emit(sub);
                }
            }
        }
    }

    fn group(&mut self, re: &Regexp) {
        self.out.push_str("(?:");
        self.emit(re);
        self.out.push(')');
    }

    fn repeat(&mut self, sub: &Regexp, op: &str, greedy: bool) {
        let atom = matches!(
            sub,
            Regexp::Literal { .. }
                | Regexp::CharClass(_)
                | Regexp::AnyChar
                | Regexp::AnyCharNotNL
                | Regexp::Capture { .. }
                | Regexp::EmptyMatch
                | Regexp::NoMatch
        );
        if atom {
            self.emit(sub);
        } else {
            self.group(sub);
        }
        self.out.push_str(op);
        if !greedy {
            self.out.push('?');
        }
    }

    fn literals(&mut self, runes: &[u32], fold: bool) {
        if fold {
            self.out.push_str("(?i:");
        }
        for &r in runes {
            match char::from_u32(r) {
                Some(c) => push_literal_char(&mut self.out, c),
                // A surrogate: no string contains one.
                None => self.out.push_str(NO_MATCH),
            }
        }
        if fold {
            self.out.push(')');
        }
    }

    fn class(&mut self, c: &CharClass) {
        match c.parts.as_slice() {
            [] => self.out.push_str(NO_MATCH),
            [part] => self.part(part),
            parts => {
                self.out.push_str("(?:");
                for (i, part) in parts.iter().enumerate() {
                    if i > 0 {
                        self.out.push('|');
                    }
                    self.part(part);
                }
                self.out.push(')');
            }
        }
    }

    fn part(&mut self, p: &ClassPart) {
        let mut ranges = without_surrogates(&p.ranges);
        let mut sets = Vec::new();
        for set in &p.sets {
            match &set.set {
                Set::Unicode(t) if empty_here(*t) => {
                    if set.negated {
                        ranges = without_surrogates(&[(0, MAX_RUNE)]);
                    }
                }
                Set::Runes(r) if set.negated && without_surrogates(r).is_empty() => {
                    ranges = without_surrogates(&[(0, MAX_RUNE)]);
                }
                Set::Runes(r) if !set.negated => ranges.extend(without_surrogates(r)),
                _ => sets.push(set),
            }
        }
        if ranges.is_empty() && sets.is_empty() {
            self.out.push_str(if p.negated { ANY_CHAR } else { NO_MATCH });
            return;
        }
        if ranges == without_surrogates(&[(0, MAX_RUNE)]) {
            // Every character (and nothing for the regex crate to case-fold).
            self.out.push_str(if p.negated { NO_MATCH } else { ANY_CHAR });
            return;
        }
        if p.fold {
            self.out.push_str("(?i:");
        }
        self.out.push('[');
        if p.negated {
            self.out.push('^');
        }
        push_ranges(&mut self.out, &ranges);
        for set in sets {
            match &set.set {
                Set::Unicode(t) => {
                    let _ = write!(self.out, r"\{}{{{}}}", if set.negated { 'P' } else { 'p' }, t.name());
                }
                Set::Runes(r) => {
                    // A nested negated class: under (?i) the regex crate folds the
                    // (small) set before negating it, as Go does.
                    self.out.push_str("[^");
                    push_ranges(&mut self.out, &without_surrogates(r));
                    self.out.push(']');
                }
            }
        }
        self.out.push(']');
        if p.fold {
            self.out.push(')');
        }
    }
}

fn push_ranges(out: &mut String, ranges: &[(u32, u32)]) {
    for &(lo, hi) in ranges {
        push_class_char(out, lo);
        if hi != lo {
            out.push('-');
            push_class_char(out, hi);
        }
    }
}

/// Tables the regex crate cannot name and that match nothing here: the surrogates
/// (`Cs`, which no string contains) and scripts newer than its Unicode version.
fn empty_here(t: UnicodeTable) -> bool {
    match t {
        UnicodeTable::Category(c) => c == "Cs",
        UnicodeTable::Script(s) => SCRIPTS_NEWER_THAN_REGEX_CRATE.contains(&s),
    }
}

/// Ranges without the surrogates U+D800..U+DFFF, which no string contains and the
/// regex crate cannot name.
fn without_surrogates(ranges: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut out = Vec::with_capacity(ranges.len() + 1);
    for &(lo, hi) in ranges {
        if hi < 0xD800 || lo > 0xDFFF {
            out.push((lo, hi));
            continue;
        }
        if lo < 0xD800 {
            out.push((lo, 0xD7FF));
        }
        if hi > 0xDFFF {
            out.push((0xE000, hi));
        }
    }
    out
}

/// A character outside a class.
fn push_literal_char(out: &mut String, c: char) {
    if c.is_ascii_alphanumeric() {
        out.push(c);
    } else if c.is_ascii_punctuation() {
        if matches!(
            c,
            '\\' | '.' | '+' | '*' | '?' | '(' | ')' | '|' | '[' | ']' | '{' | '}' | '^' | '$' | '#' | '&' | '-' | '~'
        ) {
            out.push('\\');
        }
        out.push(c);
    } else if c.is_ascii() || c.is_whitespace() || c.is_control() {
        let _ = write!(out, r"\x{{{:X}}}", c as u32);
    } else {
        out.push(c);
    }
}

/// A range end inside a class.
fn push_class_char(out: &mut String, r: u32) {
    match char::from_u32(r) {
        Some(c) if c.is_ascii_alphanumeric() => out.push(c),
        _ => {
            let _ = write!(out, r"\x{{{r:X}}}");
        }
    }
}
