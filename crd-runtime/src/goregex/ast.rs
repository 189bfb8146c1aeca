//! The syntax tree: Go's `syntax.Regexp` with every parse-time flag resolved.
//!
//! Go records flags (`FoldCase`, `NonGreedy`, `OneLine`, `DotNL`) on its nodes and
//! interprets them later; here they are folded into the nodes themselves: `^` is
//! already [`Regexp::BeginText`] or [`Regexp::BeginLine`], a repetition knows whether
//! it is greedy, a literal or class knows whether it folds case.

/// The largest rune (`unicode.MaxRune`).
pub const MAX_RUNE: u32 = 0x10_FFFF;

/// A parsed Go regular expression (Go's `syntax.Regexp`, one variant per `Op`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Regexp {
    /// Matches nothing (`OpNoMatch`).
    NoMatch,
    /// Matches the empty string (`OpEmptyMatch`): `()`, `a|`, `(?:)`.
    EmptyMatch,
    /// One rune (`OpLiteral`; Go keeps runs of them as one string, here each rune is
    /// its own node). A rune may be a surrogate (`\x{D800}`), which no string
    /// contains. With `fold`, it matches every rune of its simple case-folding orbit
    /// (`(?i)`).
    Literal { rune: u32, fold: bool },
    /// A character class (`OpCharClass`), also `\d`, `\pL`, `[[:alpha:]]`.
    CharClass(CharClass),
    /// `.` without `(?s)` (`OpAnyCharNotNL`).
    AnyCharNotNL,
    /// `.` with `(?s)` (`OpAnyChar`).
    AnyChar,
    /// `^` with `(?m)` (`OpBeginLine`).
    BeginLine,
    /// `$` with `(?m)` (`OpEndLine`).
    EndLine,
    /// `\A`, or `^` without `(?m)` (`OpBeginText`).
    BeginText,
    /// `\z`, or `$` without `(?m)` (`OpEndText`; Go's `WasDollar` flag is `was_dollar`).
    /// Go's `$` has no "before a final newline" rule.
    EndText { was_dollar: bool },
    /// `\b`, ASCII word characters only (`OpWordBoundary`).
    WordBoundary,
    /// `\B` (`OpNoWordBoundary`).
    NoWordBoundary,
    /// A capturing group, numbered from 1 in order of its `(` (`OpCapture`).
    Capture {
        index: usize,
        name: Option<String>,
        sub: Box<Regexp>,
    },
    /// `x*` (`OpStar`); `greedy` is false for `x*?` or under `(?U)`.
    Star { greedy: bool, sub: Box<Regexp> },
    /// `x+` (`OpPlus`).
    Plus { greedy: bool, sub: Box<Regexp> },
    /// `x?` (`OpQuest`).
    Quest { greedy: bool, sub: Box<Regexp> },
    /// `x{min}`, `x{min,}` (`max == None`), `x{min,max}` (`OpRepeat`).
    Repeat {
        min: u32,
        max: Option<u32>,
        greedy: bool,
        sub: Box<Regexp>,
    },
    /// `OpConcat`, at least two elements.
    Concat(Vec<Regexp>),
    /// `OpAlternate`, at least two elements, leftmost-first.
    Alternate(Vec<Regexp>),
}

/// A set of runes: the union of its parts.
///
/// One bracket expression is one part. Go merges single-character alternatives
/// (`a|[0-9]|(?i:b)`) into one class, whose parts can then differ in case folding.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CharClass {
    pub parts: Vec<ClassPart>,
}

/// One bracket expression: `negated ? ¬S : S` where `S` is the union of `ranges`
/// and `sets`; with `fold`, `ranges` are closed under simple case folding (Go's
/// `appendFoldedRange`) and each set is folded before its own negation.
///
/// ASCII groups (`\d \s \w`, `[:alpha:]`, `\p{ASCII}`) are resolved into runes
/// with Go's folding (`(?i)\w` has the Kelvin sign U+212A and the long s U+017F,
/// which fold to `k` and `s`); a positive one is in `ranges`, a negated one (`\W`,
/// `[:^alpha:]`) is a negated [`Set::Runes`] (`(?i)\W` excludes U+212A and U+017F).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClassPart {
    pub negated: bool,
    pub fold: bool,
    /// Sorted, non-overlapping, non-adjacent inclusive ranges.
    pub ranges: Vec<(u32, u32)>,
    pub sets: Vec<ClassSet>,
}

/// A named set inside a part (`\pL`, `\P{Greek}`, `\p{^Greek}`, `\W`): the set,
/// negated if `negated` after case folding when the part folds (Go adds the
/// table's `FoldCategory`/`FoldScript` before negating).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassSet {
    pub set: Set,
    pub negated: bool,
}

/// The runes of a [`ClassSet`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Set {
    /// A table of Go's `unicode` package.
    Unicode(UnicodeTable),
    /// Explicit runes, already closed under case folding if the part folds.
    Runes(Vec<(u32, u32)>),
}

/// A Unicode table of Go's `unicode` package.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnicodeTable {
    /// A `unicode.Categories` key (`L`, `Lu`, `LC`, `Cn`, ...); aliases such as
    /// `Letter` or `digit` are resolved to it.
    Category(&'static str),
    /// A `unicode.Scripts` key (`Greek`, `Old_Italic`, ...).
    Script(&'static str),
}

impl UnicodeTable {
    pub fn name(self) -> &'static str {
        match self {
            UnicodeTable::Category(n) | UnicodeTable::Script(n) => n,
        }
    }
}

impl ClassPart {
    /// A part matching exactly these runes.
    pub fn from_ranges(ranges: Vec<(u32, u32)>, fold: bool) -> Self {
        ClassPart {
            negated: false,
            fold,
            ranges: clean(ranges),
            sets: Vec::new(),
        }
    }
}

impl CharClass {
    /// This single-character node as a class (for merging alternatives).
    pub(crate) fn of_char_like(re: &Regexp) -> Option<CharClass> {
        let part = match re {
            Regexp::Literal { rune, fold } => ClassPart::from_ranges(vec![(*rune, *rune)], *fold),
            Regexp::AnyChar => ClassPart::from_ranges(vec![(0, MAX_RUNE)], false),
            Regexp::AnyCharNotNL => ClassPart::from_ranges(vec![(0, 9), (11, MAX_RUNE)], false),
            Regexp::CharClass(c) => return Some(c.clone()),
            _ => return None,
        };
        Some(CharClass { parts: vec![part] })
    }

    /// Adds the runes of `other` (a union).
    pub(crate) fn merge(&mut self, other: CharClass) {
        for part in other.parts {
            let same = (!part.negated)
                .then(|| self.parts.iter_mut().find(|p| !p.negated && p.fold == part.fold))
                .flatten();
            match same {
                Some(p) => {
                    let mut ranges = std::mem::take(&mut p.ranges);
                    ranges.extend(part.ranges);
                    p.ranges = clean(ranges);
                    for t in part.sets {
                        if !p.sets.contains(&t) {
                            p.sets.push(t);
                        }
                    }
                }
                None => self.parts.push(part),
            }
        }
    }
}

/// Go's `cleanClass`: sorts and merges overlapping or adjacent ranges.
pub(crate) fn clean(mut r: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    r.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    let mut out: Vec<(u32, u32)> = Vec::with_capacity(r.len());
    for (lo, hi) in r {
        match out.last_mut() {
            Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
            _ => out.push((lo, hi)),
        }
    }
    out
}

impl Regexp {
    /// Go's `Regexp.CapNames`: the name of each capture group by index (index 0 is
    /// the whole match), `""` for unnamed groups.
    pub fn capture_names(&self) -> Vec<String> {
        let mut names = vec![String::new(); self.max_capture() + 1];
        self.walk(&mut |re| {
            if let Regexp::Capture { index, name, .. } = re {
                names[*index] = name.clone().unwrap_or_default();
            }
        });
        names
    }

    /// Go's `Regexp.MaxCap`: the highest capture index.
    pub fn max_capture(&self) -> usize {
        let mut max = 0;
        self.walk(&mut |re| {
            if let Regexp::Capture { index, .. } = re {
                max = max.max(*index);
            }
        });
        max
    }

    /// The sub-expressions.
    pub fn subs(&self) -> &[Regexp] {
        match self {
            Regexp::Capture { sub, .. }
            | Regexp::Star { sub, .. }
            | Regexp::Plus { sub, .. }
            | Regexp::Quest { sub, .. }
            | Regexp::Repeat { sub, .. } => std::slice::from_ref(sub),
            Regexp::Concat(subs) | Regexp::Alternate(subs) => subs,
            _ => &[],
        }
    }

    /// Visits this node and every node below it, parents first.
    pub fn walk(&self, f: &mut dyn FnMut(&Regexp)) {
        // Iterative: a tree may be 1000 levels deep.
        let mut stack = vec![self];
        while let Some(re) = stack.pop() {
            f(re);
            stack.extend(re.subs().iter().rev());
        }
    }
}
