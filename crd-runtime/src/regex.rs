//! Regular expressions with Go's (RE2) semantics, compiled once.
//!
//! The API server matches `pattern` and CEL's `matches()` with Go's `regexp`. A Go
//! pattern is parsed with Go's rules ([`crate::goregex`]: Go's error texts, Go's
//! meaning of `\d \s \w \b`, POSIX classes, `(?i)`, `$`, ...), translated to the
//! `regex` crate's syntax and compiled with limits that admit what Go admits.
//!
//! - [`Pattern`]: a pattern known at build time (generated code), compiled on
//!   first use.
//! - [`cached`]: a pattern known only at run time (CEL `matches` with a computed
//!   pattern), from a bounded process-wide cache.
//! - [`find_all`]: Go's `FindAllStringIndex`, for CEL `findAll`.

use regex::{Regex, RegexBuilder};
use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};
use std::ops::Range;
use std::sync::{Arc, Mutex, OnceLock};

pub use crate::goregex::{GoRegexpError, translate};

/// A pattern compiled on first use and kept. Usable in a `static`.
pub struct Pattern {
    source: Cow<'static, str>,
    compiled: OnceLock<Result<Regex, String>>,
    /// A fully built DFA for [`Pattern::is_match`], when the pattern is small enough
    /// for one: it needs no per-search cache, which makes short matches about twice
    /// as fast as `Regex::is_match`.
    dfa: OnceLock<Option<FastDfa>>,
}

type Dfa = regex_automata::dfa::dense::DFA<Vec<u32>>;

/// A DFA with the state every search from the start of a text begins in (it depends
/// only on the look-behind context at position 0, the same for every text).
struct FastDfa {
    dfa: Dfa,
    start: regex_automata::util::primitives::StateID,
}

/// The largest DFA built for [`Pattern::is_match`]; larger patterns use the `Regex`.
const DFA_SIZE_LIMIT: usize = 1 << 20;

impl Pattern {
    /// For generated code: `static P: Pattern = Pattern::new("^a+$");`.
    pub const fn new(source: &'static str) -> Self {
        Pattern {
            source: Cow::Borrowed(source),
            compiled: OnceLock::new(),
            dfa: OnceLock::new(),
        }
    }

    /// For patterns known only at run time (the reference engine, CEL literals).
    pub fn from_string(source: String) -> Self {
        Pattern {
            source: Cow::Owned(source),
            compiled: OnceLock::new(),
            dfa: OnceLock::new(),
        }
    }

    /// The Go pattern.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The compiled expression, or the reason it does not compile: Go's error text
    /// for a pattern Go rejects.
    pub fn regex(&self) -> Result<&Regex, &str> {
        self.compiled
            .get_or_init(|| compile(&self.source))
            .as_ref()
            .map_err(|e| e.as_str())
    }

    /// Whether the pattern matches somewhere in `s` (Go's `MatchString`).
    ///
    /// The DFA is built on the second match, not the first: a pattern matched once
    /// (as when the checks of a CRD's defaults read a pattern) does not pay for it.
    #[inline]
    pub fn is_match(&self, s: &str) -> Result<bool, &str> {
        // A DFA exists only for a valid pattern.
        if let Some(Some(fast)) = self.dfa.get()
            && let Some(m) = fast.is_match(s)
        {
            return Ok(m);
        }
        let used_before = self.compiled.get().is_some();
        let re = self.regex()?;
        if used_before
            && let Some(fast) = self.dfa.get_or_init(|| build_dfa(&self.source))
            && let Some(m) = fast.is_match(s)
        {
            return Ok(m);
        }
        Ok(re.is_match(s))
    }
}

impl FastDfa {
    /// Runs the DFA over `s` one transition per byte; `None` if it gives up.
    #[inline]
    fn is_match(&self, s: &str) -> Option<bool> {
        use regex_automata::dfa::Automaton;
        let dfa = &self.dfa;
        let mut state = self.start;
        for &b in s.as_bytes() {
            state = dfa.next_state(state, b);
            if dfa.is_special_state(state) {
                // Match states come one byte late: a match ended before this byte.
                if dfa.is_match_state(state) {
                    return Some(true);
                }
                if dfa.is_dead_state(state) {
                    return Some(false);
                }
                if dfa.is_quit_state(state) {
                    return None;
                }
            }
        }
        Some(dfa.is_match_state(dfa.next_eoi_state(state)))
    }
}

/// The DFA for a (valid) pattern, unless it would exceed [`DFA_SIZE_LIMIT`] or use
/// what DFAs cannot (Unicode word boundaries), and whether a search may start at the
/// beginning only (the pattern begins with `^` outside multi-line mode, the usual
/// shape of schema patterns).
fn build_dfa(source: &str) -> Option<FastDfa> {
    let tree = crate::goregex::parse(source).ok()?;
    let anchored = if begins_with_text_start(&tree) {
        regex_automata::Anchored::Yes
    } else {
        regex_automata::Anchored::No
    };
    let translated = translate(source).ok()?;
    let config = regex_automata::dfa::dense::Config::new()
        .dfa_size_limit(Some(DFA_SIZE_LIMIT))
        .determinize_size_limit(Some(DFA_SIZE_LIMIT));
    let dfa = regex_automata::dfa::dense::Builder::new()
        .configure(config)
        .build(&translated)
        .ok()?;
    use regex_automata::dfa::Automaton;
    let start = dfa
        .start_state_forward(&regex_automata::Input::new("").anchored(anchored))
        .ok()?;
    Some(FastDfa { dfa, start })
}

/// Whether every match must start at the beginning of the text.
fn begins_with_text_start(re: &crate::goregex::Regexp) -> bool {
    use crate::goregex::Regexp;
    match re {
        Regexp::BeginText => true,
        Regexp::Concat(parts) => parts.first().is_some_and(begins_with_text_start),
        Regexp::Capture { sub, .. } => begins_with_text_start(sub),
        _ => false,
    }
}

impl std::fmt::Debug for Pattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Pattern({:?})", self.source)
    }
}

/// The `regex` crate's limit on the size of a compiled program, Go's limit (128 MiB
/// of instructions). A class is one Go instruction but one NFA state per UTF-8
/// byte range here, so Unicode classes take far more room than in Go:
/// `^[\pL\pN._-]{1,253}$` needs 12 MiB (over the crate's default of 10 MiB),
/// `\pL{1000}` 42 MiB. Go accepts patterns that exceed even this (several
/// `\pL{1000}` in a row); [`compile`] reports them as not compilable here.
pub const SIZE_LIMIT: usize = 128 << 20;

/// The `regex` crate's nesting limit. Go allows 1000 levels of its tree; the
/// translation adds a group around some operands.
pub const NEST_LIMIT: u32 = 4000;

/// Compiles a Go regular expression: Go's error text if Go rejects it.
pub fn compile(source: &str) -> Result<Regex, String> {
    compile_within(source, SIZE_LIMIT, DEFAULT_DFA_CACHE)
}

/// [`compile`] with a limit on the compiled program and on the lazy DFA's cache
/// (which grows with the texts searched, up to this size, and then falls back to a
/// slower engine).
fn compile_within(source: &str, size_limit: usize, dfa_cache: usize) -> Result<Regex, String> {
    let translated = translate(source).map_err(|e| e.to_string())?;
    let build = || {
        RegexBuilder::new(&translated)
            .size_limit(size_limit)
            .dfa_size_limit(dfa_cache)
            .nest_limit(NEST_LIMIT)
            .build()
            .map_err(|e| match e {
                regex::Error::CompiledTooBig(limit) => format!("the compiled program exceeds {limit} bytes"),
                e => e.to_string(),
            })
    };
    // The regex crate's compiler recurses once per nesting level (a few KiB each in
    // a debug build): a deeply nested pattern, which Go allows up to 1000 levels,
    // is compiled on a thread with a stack to match.
    let built = if nesting_depth(&translated) > SHALLOW_NESTING {
        std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(DEEP_STACK)
                .spawn_scoped(scope, build)
                .map_err(|e| e.to_string())?
                .join()
                .map_err(|_| "the regex compiler panicked".to_string())?
        })
    } else {
        build()
    };
    built.map_err(|reason| format!("regexp {source:?} is valid in Go but cannot be compiled here: {reason}"))
}

/// The regex crate's default for the lazy DFA's cache.
const DEFAULT_DFA_CACHE: usize = 2 << 20;

/// Nesting up to which [`compile`] runs on the caller's stack.
const SHALLOW_NESTING: usize = 100;
/// The stack for compiling deeper patterns.
const DEEP_STACK: usize = 64 << 20;

/// The deepest nesting of groups and classes in a translated pattern (which
/// escapes every literal `(`, `)`, `[`, `]`).
fn nesting_depth(pattern: &str) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    let mut bytes = pattern.bytes();
    while let Some(b) = bytes.next() {
        match b {
            b'\\' => {
                bytes.next();
            }
            b'(' | b'[' => {
                depth += 1;
                max = max.max(depth);
            }
            b')' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// How many run-time patterns [`cached`] keeps.
pub const CACHE_CAPACITY: usize = 512;

/// The largest compiled program [`cached`] keeps, and the lazy-DFA cache it gives
/// each kept pattern: with [`CACHE_CAPACITY`] entries, the cache holds at most some
/// 160 MiB however large the patterns (the cel fuzz target, keeping 512 patterns of up
/// to 128 MiB each, grew past 2 GB).
const CACHED_SIZE_LIMIT: usize = 64 << 10;
const CACHED_DFA_CACHE: usize = 256 << 10;

type Compiled = Result<Arc<Regex>, String>;

struct Cache {
    map: HashMap<String, Compiled>,
    /// Insertion order, for evicting the oldest entry.
    order: VecDeque<String>,
}

/// A compiled Go pattern for patterns known only at run time, from a process-wide
/// cache of at most [`CACHE_CAPACITY`] small patterns (the oldest is dropped first).
/// A pattern whose program is larger is compiled for this call alone, as Go compiles
/// a computed pattern on every call. Errors are cached too.
pub fn cached(source: &str) -> Result<Arc<Regex>, String> {
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| {
        Mutex::new(Cache {
            map: HashMap::new(),
            order: VecDeque::new(),
        })
    });
    if let Some(hit) = cache.lock().unwrap_or_else(|e| e.into_inner()).map.get(source) {
        return hit.clone();
    }
    // Compile outside the lock; a concurrent miss on the same pattern compiles twice.
    let compiled: Compiled = match compile_within(source, CACHED_SIZE_LIMIT, CACHED_DFA_CACHE) {
        Err(e) if e.ends_with(&format!("the compiled program exceeds {CACHED_SIZE_LIMIT} bytes")) => {
            return compile(source).map(Arc::new);
        }
        compiled => compiled.map(Arc::new),
    };
    let mut c = cache.lock().unwrap_or_else(|e| e.into_inner());
    if !c.map.contains_key(source) {
        while c.map.len() >= CACHE_CAPACITY {
            let Some(old) = c.order.pop_front() else { break };
            c.map.remove(&old);
        }
        c.order.push_back(source.to_string());
        c.map.insert(source.to_string(), compiled.clone());
    }
    compiled
}

/// Go's `FindAllStringIndex(s, n)`: successive non-overlapping matches, at most `n`
/// of them (all if `n < 0`, none if `n == 0`), where an empty match right after the
/// previous match is dropped (`a*` on `"baaa"` gives `0..0` and `1..4`, not
/// `4..4`). After an empty match the search goes on one character later.
///
/// CEL's `findAll(re)` is `FindAllString(s, -1)`, `findAll(re, n)` is
/// `FindAllString(s, n)`; `find(re)` is `FindString`, the first match
/// (`Regex::find`).
pub fn find_all(re: &Regex, s: &str, n: i64) -> Vec<Range<usize>> {
    let limit = usize::try_from(n).unwrap_or(usize::MAX);
    let mut out = Vec::new();
    let mut pos = 0;
    let mut prev_end: Option<usize> = None;
    while out.len() < limit && pos <= s.len() {
        let Some(m) = re.find_at(s, pos) else { break };
        let mut accept = true;
        if m.end() == pos {
            // An empty match at pos.
            if prev_end == Some(m.start()) {
                accept = false;
            }
            pos += s[pos..].chars().next().map_or(1, char::len_utf8);
        } else {
            pos = m.end();
        }
        prev_end = Some(m.end());
        if accept {
            out.push(m.range());
        }
    }
    out
}

#[cfg(test)]
mod dfa_tests {
    use super::*;

    #[test]
    fn the_dfa_is_built_on_the_second_match() {
        let p = Pattern::new("^a+$");
        assert!(p.is_match("aa").unwrap());
        assert!(p.dfa.get().is_none());
        assert!(!p.is_match("b").unwrap());
        assert!(matches!(p.dfa.get(), Some(Some(_))));
        assert!(p.is_match("a").unwrap());
    }

    #[test]
    fn fast_dfa_agrees_with_regex() {
        let patterns = [
            r"^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$",
            r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",
            r"ab+c",
            r"(?m)^x$",
            r"^$",
            r"\bword\b",
            r"^([0-9]{1,5}(h|m|s|ms)){1,4}$",
            r"[^a]",
            r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$",
        ];
        let inputs = [
            "",
            "a",
            "abbc",
            "xabcx",
            "* * * * */5",
            "5 0 * * *",
            "* * * *",
            "my-name",
            "-bad",
            "x",
            "a\nx\nb",
            "a word here",
            "words",
            "10m",
            "1h30m",
            "1x",
            "500Mi",
            "1.5",
            "+.5e3",
            "é",
            "\u{10000}",
        ];
        for p in patterns {
            let pattern = Pattern::new(p);
            let re = pattern.regex().unwrap().clone();
            let fast = build_dfa(p);
            for s in inputs {
                assert_eq!(pattern.is_match(s).unwrap(), re.is_match(s), "{p} on {s:?}");
                if let Some(f) = &fast
                    && let Some(m) = f.is_match(s)
                {
                    assert_eq!(m, re.is_match(s), "DFA: {p} on {s:?}");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perl_classes_are_ascii_like_go() {
        let p = Pattern::new(r"^\d+$");
        assert!(p.regex().unwrap().is_match("123"));
        assert!(
            !p.regex().unwrap().is_match("١٢٣"),
            "Arabic-Indic digits are not \\d in Go"
        );
        let w = Pattern::new(r"^[\w-]+$");
        assert!(w.regex().unwrap().is_match("a_b-c"));
        assert!(!w.regex().unwrap().is_match("é"));
        let cron = Pattern::new(r"^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$");
        assert!(cron.regex().unwrap().is_match("5 0 * * *"));
        assert!(!cron.regex().unwrap().is_match("* * * *"));
    }

    #[test]
    fn errors_are_go_texts() {
        assert_eq!(
            Pattern::new("[a").regex().unwrap_err(),
            "error parsing regexp: missing closing ]: `[a`"
        );
        assert_eq!(
            cached("a**").unwrap_err(),
            "error parsing regexp: invalid nested repetition operator: `**`"
        );
        assert_eq!(
            compile(r"\8").unwrap_err(),
            "error parsing regexp: invalid escape sequence: `\\8`"
        );
    }

    #[test]
    fn too_large_for_the_regex_crate_is_reported() {
        let p = r"\pL{1000}\pL{1000}\pL{1000}\pL{1000}";
        assert!(goregex_accepts(p));
        let e = compile(p).unwrap_err();
        assert!(
            e.starts_with("regexp ") && e.contains("is valid in Go but cannot be compiled here"),
            "{e}"
        );
    }

    fn goregex_accepts(p: &str) -> bool {
        crate::goregex::check(p).is_ok()
    }

    #[test]
    fn cache_is_bounded_and_shared() {
        let a = cached("^x+$").unwrap();
        let b = cached("^x+$").unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        for i in 0..CACHE_CAPACITY + 10 {
            assert!(cached(&format!("^n{i}$")).unwrap().is_match(&format!("n{i}")));
        }
        assert!(cached("^x+$").unwrap().is_match("xx"));
    }

    #[test]
    fn find_all_is_gos() {
        fn r<'a>(p: &str, s: &'a str, n: i64) -> Vec<&'a str> {
            let re = compile(p).unwrap();
            find_all(&re, s, n).into_iter().map(|m| &s[m]).collect()
        }
        assert_eq!(r("a*", "baaa", -1), ["", "aaa"]);
        assert_eq!(r("a*", "baaab", -1), ["", "aaa", ""]);
        assert_eq!(r("", "ééa", -1), ["", "", "", ""]);
        assert_eq!(r("a|", "aab", -1), ["a", "a", ""]);
        assert_eq!(r("x*", "", -1), [""]);
        assert_eq!(r("[a-c]", "abcabc", 2), ["a", "b"]);
        assert_eq!(r("[a-c]", "abc", 0), Vec::<&str>::new());
        assert_eq!(r(r"\b", "ab cd", -1), ["", "", "", ""]);
        assert_eq!(r(r"\B", "ab", -1), [""]);
    }
}
