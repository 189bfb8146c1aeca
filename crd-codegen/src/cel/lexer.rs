//! CEL lexer: the token rules of cel-go's ANTLR grammar (`parser/gen/CEL.g4`), and
//! the decoding of string and bytes literals (cel-go's `parser/unescape.go`).
//!
//! The lexer reproduces the ANTLR lexer's observable behaviour, because its errors
//! reach users verbatim:
//!
//! * longest match, the earlier rule winning ties (`in`, `true`, `false`, `null` are
//!   keywords; `inx` is an identifier);
//! * when a rule fails half way, the lexer falls back to the longest token it had
//!   already recognised (`1e+` is `1`, `e`, `+`; `b"abc` is the identifier `b`
//!   followed by an unterminated string);
//! * when nothing can be recognised, the error is `token recognition error at: '…'`
//!   where the text runs from the token start up to *and including* the character
//!   that failed, and that character is skipped as well (so `a & b` reports `'& '`).
//!
//! Escape sequences are validated here (an invalid escape makes the string token
//! fail, as in the grammar) but decoded later by [`unescape`], which reports the
//! semantic errors cel-go reports at parse time (invalid code points, `\u` in bytes).

use std::fmt;

/// Token kinds. The discriminants are the token types of cel-go's ANTLR grammar
/// (`CEL.tokens`), which fixes the order of token names in "expecting {…}" messages;
/// `Eof` stands for ANTLR's `EOF` (-1), printed first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum TokenKind {
    Eof = 0,
    Equals = 1,
    NotEquals = 2,
    In = 3,
    Less = 4,
    LessEquals = 5,
    GreaterEquals = 6,
    Greater = 7,
    LogicalAnd = 8,
    LogicalOr = 9,
    LBracket = 10,
    RBracket = 11,
    LBrace = 12,
    RBrace = 13,
    LParen = 14,
    RParen = 15,
    Dot = 16,
    Comma = 17,
    Minus = 18,
    Exclam = 19,
    Question = 20,
    Colon = 21,
    Plus = 22,
    Star = 23,
    Slash = 24,
    Percent = 25,
    True = 26,
    False = 27,
    Null = 28,
    Whitespace = 29,
    Comment = 30,
    NumFloat = 31,
    NumInt = 32,
    NumUint = 33,
    String = 34,
    Bytes = 35,
    Identifier = 36,
    EscIdentifier = 37,
}

impl TokenKind {
    /// All kinds, indexed by discriminant.
    const ALL: [TokenKind; 38] = [
        TokenKind::Eof,
        TokenKind::Equals,
        TokenKind::NotEquals,
        TokenKind::In,
        TokenKind::Less,
        TokenKind::LessEquals,
        TokenKind::GreaterEquals,
        TokenKind::Greater,
        TokenKind::LogicalAnd,
        TokenKind::LogicalOr,
        TokenKind::LBracket,
        TokenKind::RBracket,
        TokenKind::LBrace,
        TokenKind::RBrace,
        TokenKind::LParen,
        TokenKind::RParen,
        TokenKind::Dot,
        TokenKind::Comma,
        TokenKind::Minus,
        TokenKind::Exclam,
        TokenKind::Question,
        TokenKind::Colon,
        TokenKind::Plus,
        TokenKind::Star,
        TokenKind::Slash,
        TokenKind::Percent,
        TokenKind::True,
        TokenKind::False,
        TokenKind::Null,
        TokenKind::Whitespace,
        TokenKind::Comment,
        TokenKind::NumFloat,
        TokenKind::NumInt,
        TokenKind::NumUint,
        TokenKind::String,
        TokenKind::Bytes,
        TokenKind::Identifier,
        TokenKind::EscIdentifier,
    ];

    /// The name ANTLR uses in error messages: the quoted literal for fixed tokens,
    /// the rule name otherwise.
    pub fn display_name(self) -> &'static str {
        use TokenKind::*;
        match self {
            Eof => "<EOF>",
            Equals => "'=='",
            NotEquals => "'!='",
            In => "'in'",
            Less => "'<'",
            LessEquals => "'<='",
            GreaterEquals => "'>='",
            Greater => "'>'",
            LogicalAnd => "'&&'",
            LogicalOr => "'||'",
            LBracket => "'['",
            RBracket => "']'",
            LBrace => "'{'",
            RBrace => "'}'",
            LParen => "'('",
            RParen => "')'",
            Dot => "'.'",
            Comma => "','",
            Minus => "'-'",
            Exclam => "'!'",
            Question => "'?'",
            Colon => "':'",
            Plus => "'+'",
            Star => "'*'",
            Slash => "'/'",
            Percent => "'%'",
            True => "'true'",
            False => "'false'",
            Null => "'null'",
            Whitespace => "WHITESPACE",
            Comment => "COMMENT",
            NumFloat => "NUM_FLOAT",
            NumInt => "NUM_INT",
            NumUint => "NUM_UINT",
            String => "STRING",
            Bytes => "BYTES",
            Identifier => "IDENTIFIER",
            EscIdentifier => "ESC_IDENTIFIER",
        }
    }

    /// Whitespace and comments, which the parser never sees (ANTLR's hidden channel).
    pub fn is_hidden(self) -> bool {
        matches!(self, TokenKind::Whitespace | TokenKind::Comment)
    }
}

/// A set of token kinds, with a flag for ANTLR's "epsilon" (the end of the current
/// rule can be reached), used for the parser's expected-token computations.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct TokenSet(u64);

impl TokenSet {
    const EPSILON_BIT: u64 = 1 << 63;

    /// The empty set.
    pub const EMPTY: TokenSet = TokenSet(0);
    /// The set containing only epsilon.
    pub const EPSILON: TokenSet = TokenSet(Self::EPSILON_BIT);

    /// A set of the given kinds.
    pub const fn of(kinds: &[TokenKind]) -> TokenSet {
        let mut bits = 0;
        let mut i = 0;
        while i < kinds.len() {
            bits |= 1 << kinds[i] as u64;
            i += 1;
        }
        TokenSet(bits)
    }

    /// The union of two sets.
    pub const fn union(self, other: TokenSet) -> TokenSet {
        TokenSet(self.0 | other.0)
    }

    /// This set with epsilon added.
    pub const fn with_epsilon(self) -> TokenSet {
        TokenSet(self.0 | Self::EPSILON_BIT)
    }

    /// This set without epsilon.
    pub const fn without_epsilon(self) -> TokenSet {
        TokenSet(self.0 & !Self::EPSILON_BIT)
    }

    /// Whether the set contains `kind`.
    pub const fn contains(self, kind: TokenKind) -> bool {
        self.0 & (1 << kind as u64) != 0
    }

    /// Whether the set contains epsilon.
    pub const fn has_epsilon(self) -> bool {
        self.0 & Self::EPSILON_BIT != 0
    }

    /// The kinds in the set, in token-type order.
    pub fn kinds(self) -> impl Iterator<Item = TokenKind> {
        TokenKind::ALL.into_iter().filter(move |k| self.contains(*k))
    }
}

impl fmt::Display for TokenSet {
    /// ANTLR's `IntervalSet.StringVerbose`: a single name, or `{a, b, c}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.kinds().map(TokenKind::display_name).collect();
        match names.as_slice() {
            [] => f.write_str("{}"),
            [one] => f.write_str(one),
            many => write!(f, "{{{}}}", many.join(", ")),
        }
    }
}

impl fmt::Debug for TokenSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")?;
        if self.has_epsilon() {
            f.write_str("+ε")?;
        }
        Ok(())
    }
}

/// A token: its kind and byte range in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub start: usize,
    pub end: usize,
}

impl Token {
    /// The token's text (empty for `Eof`).
    pub fn text<'a>(&self, src: &'a str) -> &'a str {
        &src[self.start..self.end]
    }
}

/// A character sequence no token rule matches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexError {
    /// Byte offset where the failed token started (the reported position).
    pub start: usize,
    /// The text ANTLR quotes: from `start` up to and including the failing character.
    pub text: String,
    /// Index (into [`Lexed::tokens`]) of the first token produced after the error;
    /// ANTLR reports the error when the parser first asks for that token.
    pub next_token: usize,
}

impl LexError {
    /// The message cel-go prints (without the `Syntax error: ` prefix).
    pub fn message(&self) -> String {
        format!("token recognition error at: '{}'", escape_for_display(&self.text))
    }
}

/// ANTLR's rendering of newlines, carriage returns and tabs in quoted error text.
pub fn escape_for_display(text: &str) -> String {
    text.replace('\n', "\\n").replace('\r', "\\r").replace('\t', "\\t")
}

/// The result of lexing a whole expression.
#[derive(Clone, Debug, Default)]
pub struct Lexed {
    /// All tokens, hidden ones included, ending with one `Eof` token.
    pub tokens: Vec<Token>,
    /// Unrecognised input, in source order.
    pub errors: Vec<LexError>,
}

/// Splits `src` into tokens the way cel-go's ANTLR lexer does.
pub fn tokenize(src: &str) -> Lexed {
    let mut lexed = Lexed::default();
    let mut pos = 0;
    while pos < src.len() {
        match scan_token(src, pos) {
            Ok((kind, end)) => {
                lexed.tokens.push(Token { kind, start: pos, end });
                pos = end;
            }
            Err(fail) => {
                // The failing character itself is skipped too (ANTLR `Lexer.Recover`).
                let resume = char_end(src, fail);
                lexed.errors.push(LexError {
                    start: pos,
                    text: src[pos..resume].to_string(),
                    next_token: lexed.tokens.len(),
                });
                pos = resume;
            }
        }
    }
    lexed.tokens.push(Token {
        kind: TokenKind::Eof,
        start: src.len(),
        end: src.len(),
    });
    lexed
}

/// End of the character starting at `pos` (or `pos` at the end of input).
fn char_end(src: &str, pos: usize) -> usize {
    src[pos..].chars().next().map_or(src.len(), |c| pos + c.len_utf8())
}

fn byte_at(src: &str, pos: usize) -> Option<u8> {
    src.as_bytes().get(pos).copied()
}

fn is_letter(b: u8) -> bool {
    b.is_ascii_alphabetic()
}

fn is_ident_part(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Recognises one token at `pos`: `Ok((kind, end))`, or `Err(fail)` with the byte
/// offset of the character at which no rule could continue.
fn scan_token(src: &str, pos: usize) -> Result<(TokenKind, usize), usize> {
    use TokenKind::*;
    let b = src.as_bytes()[pos];
    let next = byte_at(src, pos + 1);
    let single = |kind| Ok((kind, pos + 1));
    let pair = |second: u8, both, alone: Option<TokenKind>| {
        if next == Some(second) {
            Ok((both, pos + 2))
        } else {
            alone.map(|k| (k, pos + 1)).ok_or(pos + 1)
        }
    };
    match b {
        b' ' | b'\t' | b'\r' | b'\n' | 0x0c => {
            let len = src[pos..]
                .bytes()
                .take_while(|c| matches!(c, b' ' | b'\t' | b'\r' | b'\n' | 0x0c))
                .count();
            Ok((Whitespace, pos + len))
        }
        b'/' if next == Some(b'/') => {
            let end = src[pos..].find('\n').map_or(src.len(), |i| pos + i);
            Ok((Comment, end))
        }
        b'=' => pair(b'=', Equals, None),
        b'!' => pair(b'=', NotEquals, Some(Exclam)),
        b'<' => pair(b'=', LessEquals, Some(Less)),
        b'>' => pair(b'=', GreaterEquals, Some(Greater)),
        b'&' => pair(b'&', LogicalAnd, None),
        b'|' => pair(b'|', LogicalOr, None),
        b'[' => single(LBracket),
        b']' => single(RBracket),
        b'{' => single(LBrace),
        b'}' => single(RBrace),
        b'(' => single(LParen),
        b')' => single(RParen),
        b',' => single(Comma),
        b'-' => single(Minus),
        b'?' => single(Question),
        b':' => single(Colon),
        b'+' => single(Plus),
        b'*' => single(Star),
        b'/' => single(Slash),
        b'%' => single(Percent),
        b'.' => match next {
            Some(d) if d.is_ascii_digit() => {
                let end = scan_digits(src, pos + 1);
                Ok((NumFloat, scan_exponent(src, end).unwrap_or(end)))
            }
            _ => single(Dot),
        },
        b'0'..=b'9' => Ok(scan_number(src, pos)),
        b'"' | b'\'' => scan_quoted(src, pos, false).map(|end| (String, end)),
        b'`' => scan_escaped_ident(src, pos),
        _ if is_letter(b) || b == b'_' => Ok(scan_word(src, pos)),
        _ => Err(pos),
    }
}

fn scan_digits(src: &str, pos: usize) -> usize {
    pos + src[pos..].bytes().take_while(u8::is_ascii_digit).count()
}

/// `('e'|'E') ('+'|'-')? DIGIT+` at `pos`, if complete.
fn scan_exponent(src: &str, pos: usize) -> Option<usize> {
    if !matches!(byte_at(src, pos), Some(b'e' | b'E')) {
        return None;
    }
    let mut p = pos + 1;
    if matches!(byte_at(src, p), Some(b'+' | b'-')) {
        p += 1;
    }
    let end = scan_digits(src, p);
    (end > p).then_some(end)
}

/// `NUM_INT`, `NUM_UINT` or `NUM_FLOAT` starting with a digit.
fn scan_number(src: &str, pos: usize) -> (TokenKind, usize) {
    let is_u = |p| matches!(byte_at(src, p), Some(b'u' | b'U'));
    if src[pos..].starts_with("0x") && byte_at(src, pos + 2).is_some_and(|b| b.is_ascii_hexdigit()) {
        let end = pos + 2 + src[pos + 2..].bytes().take_while(u8::is_ascii_hexdigit).count();
        return if is_u(end) {
            (TokenKind::NumUint, end + 1)
        } else {
            (TokenKind::NumInt, end)
        };
    }
    let end = scan_digits(src, pos);
    if byte_at(src, end) == Some(b'.') && byte_at(src, end + 1).is_some_and(|b| b.is_ascii_digit()) {
        let frac = scan_digits(src, end + 1);
        return (TokenKind::NumFloat, scan_exponent(src, frac).unwrap_or(frac));
    }
    if let Some(exp) = scan_exponent(src, end) {
        return (TokenKind::NumFloat, exp);
    }
    if is_u(end) {
        (TokenKind::NumUint, end + 1)
    } else {
        (TokenKind::NumInt, end)
    }
}

/// An identifier, keyword, or a string/bytes literal with an `r`/`b` prefix.
fn scan_word(src: &str, pos: usize) -> (TokenKind, usize) {
    let end = pos + src[pos..].bytes().take_while(|b| is_ident_part(*b)).count();
    let word = &src[pos..end];
    if matches!(byte_at(src, end), Some(b'"' | b'\'')) {
        let prefix = match word {
            "r" | "R" => Some((true, false)),
            "b" | "B" => Some((false, true)),
            "br" | "bR" | "Br" | "BR" => Some((true, true)),
            _ => None,
        };
        if let Some((raw, bytes)) = prefix
            && let Ok(string_end) = scan_quoted(src, end, raw)
        {
            let kind = if bytes { TokenKind::Bytes } else { TokenKind::String };
            return (kind, string_end);
        }
        // A prefix with a broken string is just an identifier (the longest token
        // ANTLR had recognised), and the quote starts the next token.
    }
    let kind = match word {
        "in" => TokenKind::In,
        "true" => TokenKind::True,
        "false" => TokenKind::False,
        "null" => TokenKind::Null,
        _ => TokenKind::Identifier,
    };
    (kind, end)
}

/// ``'`' (LETTER | DIGIT | '_' | '.' | '-' | '/' | ' ')+ '`'``.
fn scan_escaped_ident(src: &str, pos: usize) -> Result<(TokenKind, usize), usize> {
    let body = src[pos + 1..]
        .bytes()
        .take_while(|b| is_ident_part(*b) || matches!(b, b'.' | b'-' | b'/' | b' '))
        .count();
    let close = pos + 1 + body;
    if body > 0 && byte_at(src, close) == Some(b'`') {
        Ok((TokenKind::EscIdentifier, close + 1))
    } else {
        Err(close)
    }
}

/// A quoted literal whose opening quote is at `pos`; returns the end offset, or the
/// failing offset. A triple-quoted string that never closes falls back to the empty
/// string formed by its first two quotes, as ANTLR's longest-match does.
fn scan_quoted(src: &str, pos: usize, raw: bool) -> Result<usize, usize> {
    let quote = src.as_bytes()[pos];
    let triple = [quote; 3];
    if src.as_bytes()[pos..].starts_with(&triple) {
        return Ok(scan_triple(src, pos + 3, quote, raw).unwrap_or(pos + 2));
    }
    let mut p = pos + 1;
    loop {
        match byte_at(src, p) {
            None => return Err(src.len()),
            Some(b) if b == quote => return Ok(p + 1),
            Some(b'\n' | b'\r') => return Err(p),
            Some(b'\\') if !raw => p = scan_escape(src, p)?,
            Some(_) => p = char_end(src, p),
        }
    }
}

/// The body of a triple-quoted literal (after the opening quotes); ends at the first
/// closing triple quote (the grammar's loop is non-greedy).
fn scan_triple(src: &str, mut p: usize, quote: u8, raw: bool) -> Result<usize, usize> {
    let triple = [quote; 3];
    loop {
        if src.as_bytes()[p..].starts_with(&triple) {
            return Ok(p + 3);
        }
        match byte_at(src, p) {
            None => return Err(src.len()),
            Some(b'\\') if !raw => p = scan_escape(src, p)?,
            Some(_) => p = char_end(src, p),
        }
    }
}

/// Validates the escape sequence starting with the backslash at `pos` (the
/// grammar's `ESC_SEQ`); returns its end or the offset of the offending character.
fn scan_escape(src: &str, pos: usize) -> Result<usize, usize> {
    let digits = |start: usize, count: usize, ok: fn(u8) -> bool| -> Result<usize, usize> {
        for i in 0..count {
            match byte_at(src, start + i) {
                Some(b) if ok(b) => {}
                _ => return Err(start + i),
            }
        }
        Ok(start + count)
    };
    let is_hex = |b: u8| b.is_ascii_hexdigit();
    let is_oct = |b: u8| (b'0'..=b'7').contains(&b);
    match byte_at(src, pos + 1) {
        None => Err(src.len()),
        Some(b'a' | b'b' | b'f' | b'n' | b'r' | b't' | b'v' | b'"' | b'\'' | b'\\' | b'?' | b'`') => Ok(pos + 2),
        Some(b'0'..=b'3') => digits(pos + 2, 2, is_oct),
        Some(b'x' | b'X') => digits(pos + 2, 2, is_hex),
        Some(b'u') => digits(pos + 2, 4, is_hex),
        Some(b'U') => digits(pos + 2, 8, is_hex),
        Some(_) => Err(pos + 1),
    }
}

/// Decodes the text of a `STRING` token (`is_bytes == false`) or of a `BYTES` token
/// without its `b` prefix (`is_bytes == true`), like cel-go's `unescape`.
///
/// Line breaks inside the literal are normalised to `\n` first. Errors carry
/// cel-go's messages, e.g. `invalid unicode code point` for `'\ud800'`.
pub fn unescape(text: &str, is_bytes: bool) -> Result<Vec<u8>, &'static str> {
    const GENERIC: &str = "unable to unescape string";
    let normalized = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut value = normalized.as_str();
    if value.len() < 2 {
        return Err(GENERIC);
    }
    let raw = value.starts_with(['r', 'R']);
    if raw {
        value = &value[1..];
    }
    let bytes = value.as_bytes();
    let n = bytes.len();
    if n < 2 || bytes[0] != bytes[n - 1] || !matches!(bytes[0], b'"' | b'\'') {
        return Err(GENERIC);
    }
    let body = if n >= 6 && (value.starts_with("'''") || value.starts_with("\"\"\"")) {
        if !value.ends_with(&value[..3]) {
            return Err(GENERIC);
        }
        &value[3..n - 3]
    } else {
        &value[1..n - 1]
    };
    if raw || !body.contains('\\') {
        return Ok(body.as_bytes().to_vec());
    }
    let mut out = Vec::with_capacity(body.len());
    let mut rest = body;
    while let Some(c) = rest.chars().next() {
        if c != '\\' {
            let mut buf = [0; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let esc = rest.as_bytes();
        let Some(&kind) = esc.get(1) else {
            return Err("unable to unescape string, found '\\' as last character");
        };
        rest = &rest[2..];
        let simple = match kind {
            b'a' => Some(0x07),
            b'b' => Some(0x08),
            b'f' => Some(0x0c),
            b'n' => Some(b'\n'),
            b'r' => Some(b'\r'),
            b't' => Some(b'\t'),
            b'v' => Some(0x0b),
            b'\\' | b'\'' | b'"' | b'`' | b'?' => Some(kind),
            _ => None,
        };
        if let Some(b) = simple {
            out.push(b);
            continue;
        }
        let (value, is_raw_byte) = match kind {
            b'x' | b'X' | b'u' | b'U' => {
                let len = match kind {
                    b'x' | b'X' => 2,
                    b'u' => 4,
                    _ => 8,
                };
                if is_bytes && len > 2 {
                    return Err(GENERIC);
                }
                let digits = rest.get(..len).ok_or(GENERIC)?;
                let v = u32::from_str_radix(digits, 16).map_err(|_| GENERIC)?;
                if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return Err(GENERIC);
                }
                rest = &rest[len..];
                (v, is_bytes)
            }
            b'0'..=b'3' => {
                const OCTAL: &str = "unable to unescape octal sequence in string";
                let digits = rest.get(..2).ok_or(OCTAL)?;
                if !digits.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
                    return Err(OCTAL);
                }
                let v = u32::from(kind - b'0') * 64 + u32::from_str_radix(digits, 8).map_err(|_| OCTAL)?;
                rest = &rest[2..];
                (v, is_bytes)
            }
            _ => return Err(GENERIC),
        };
        if is_raw_byte {
            // In bytes literals `\x` and octal escapes give one raw byte.
            out.push(value as u8);
        } else {
            let c = char::from_u32(value).ok_or("invalid unicode code point")?;
            let mut buf = [0; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::TokenKind::*;
    use super::*;

    fn kinds(src: &str) -> Vec<(TokenKind, &str)> {
        let lexed = tokenize(src);
        assert!(lexed.errors.is_empty(), "{:?}", lexed.errors);
        lexed
            .tokens
            .iter()
            .filter(|t| !t.kind.is_hidden() && t.kind != Eof)
            .map(|t| (t.kind, t.text(src)))
            .collect()
    }

    fn errors(src: &str) -> Vec<std::string::String> {
        tokenize(src).errors.iter().map(LexError::message).collect()
    }

    #[test]
    fn operators_and_keywords() {
        assert_eq!(
            kinds("a==b != c<=d>=e<f>g&&h||!i in inx ? : . , [](){} + - * / %"),
            vec![
                (Identifier, "a"),
                (Equals, "=="),
                (Identifier, "b"),
                (NotEquals, "!="),
                (Identifier, "c"),
                (LessEquals, "<="),
                (Identifier, "d"),
                (GreaterEquals, ">="),
                (Identifier, "e"),
                (Less, "<"),
                (Identifier, "f"),
                (Greater, ">"),
                (Identifier, "g"),
                (LogicalAnd, "&&"),
                (Identifier, "h"),
                (LogicalOr, "||"),
                (Exclam, "!"),
                (Identifier, "i"),
                (In, "in"),
                (Identifier, "inx"),
                (Question, "?"),
                (Colon, ":"),
                (Dot, "."),
                (Comma, ","),
                (LBracket, "["),
                (RBracket, "]"),
                (LParen, "("),
                (RParen, ")"),
                (LBrace, "{"),
                (RBrace, "}"),
                (Plus, "+"),
                (Minus, "-"),
                (Star, "*"),
                (Slash, "/"),
                (Percent, "%"),
            ]
        );
        assert_eq!(
            kinds("true false null truex _a1 `a.b-c/d e`"),
            vec![
                (True, "true"),
                (False, "false"),
                (Null, "null"),
                (Identifier, "truex"),
                (Identifier, "_a1"),
                (EscIdentifier, "`a.b-c/d e`")
            ]
        );
    }

    #[test]
    fn numbers() {
        assert_eq!(
            kinds("1 12u 0x1F 0x1fU 1.5 .5 1e3 1E-3 2.5e+10 1. 0x 1e+"),
            vec![
                (NumInt, "1"),
                (NumUint, "12u"),
                (NumInt, "0x1F"),
                (NumUint, "0x1fU"),
                (NumFloat, "1.5"),
                (NumFloat, ".5"),
                (NumFloat, "1e3"),
                (NumFloat, "1E-3"),
                (NumFloat, "2.5e+10"),
                (NumInt, "1"),
                (Dot, "."),
                (NumInt, "0"),
                (Identifier, "x"),
                (NumInt, "1"),
                (Identifier, "e"),
                (Plus, "+"),
            ]
        );
        assert_eq!(kinds("0X1"), vec![(NumInt, "0"), (Identifier, "X1")]);
    }

    #[test]
    fn strings() {
        assert_eq!(
            kinds(r#""a" 'b' """c"d""" '''e'f''' r"\d" R'\w' b"x" B'y' br"\z" bR'''q''' "" '\''"#),
            vec![
                (String, r#""a""#),
                (String, "'b'"),
                (String, r#""""c"d""""#),
                (String, "'''e'f'''"),
                (String, r#"r"\d""#),
                (String, r"R'\w'"),
                (Bytes, r#"b"x""#),
                (Bytes, "B'y'"),
                (Bytes, r#"br"\z""#),
                (Bytes, "bR'''q'''"),
                (String, r#""""#),
                (String, r"'\''"),
            ]
        );
        // `rb` is not a prefix; a broken prefixed string falls back to an identifier.
        assert_eq!(kinds(r#"rb"x""#), vec![(Identifier, "rb"), (String, r#""x""#)]);
        let lexed = tokenize(r#"b"abc"#);
        assert_eq!(lexed.tokens[0].kind, Identifier);
        assert_eq!(errors(r#"b"abc"#), vec![r#"token recognition error at: '"abc'"#]);
        // An unclosed triple quote is the empty string followed by an error.
        let lexed = tokenize(r#""""abc"#);
        assert_eq!(lexed.tokens[0].kind, String);
        assert_eq!(lexed.tokens[0].end, 2);
    }

    #[test]
    fn recognition_errors_match_antlr() {
        assert_eq!(errors("a | b"), vec!["token recognition error at: '| '"]);
        assert_eq!(errors("a = b"), vec!["token recognition error at: '= '"]);
        assert_eq!(errors("@"), vec!["token recognition error at: '@'"]);
        assert_eq!(
            errors("'\\xFh'"),
            vec![
                "token recognition error at: ''\\xFh'",
                "token recognition error at: '''"
            ]
        );
        assert_eq!(
            errors("\"abc\ndef\""),
            vec![
                "token recognition error at: '\"abc\\n'",
                "token recognition error at: '\"'"
            ]
        );
        assert_eq!(errors("😁"), vec!["token recognition error at: '😁'"]);
        assert_eq!(errors("``"), vec!["token recognition error at: '``'"]);
        assert_eq!(errors("a\u{b}b"), vec!["token recognition error at: '\u{b}'"]);
        // The failing character is swallowed: `a&b` leaves only `a`.
        let lexed = tokenize("a&b");
        assert_eq!(lexed.errors[0].message(), "token recognition error at: '&b'");
        assert_eq!(lexed.tokens.len(), 2);
    }

    #[test]
    fn unescape_strings() {
        let s = |t: &str| std::string::String::from_utf8(unescape(t, false).unwrap()).unwrap();
        assert_eq!(
            s(r#""a\a\b\f\n\r\t\v\\\'\"\`\?z""#),
            "a\u{7}\u{8}\u{c}\n\r\t\u{b}\\'\"`?z"
        );
        assert_eq!(s(r#""\x41\101\u00e9\U0001F600""#), "AAé😀");
        assert_eq!(s(r#""\377""#), "ÿ");
        assert_eq!(s(r#"r"\n""#), "\\n");
        assert_eq!(s("'''a\r\nb'''"), "a\nb");
        assert_eq!(s(r#""""x"y""""#), "x\"y");
        assert_eq!(unescape(r#""\ud800""#, false), Err("invalid unicode code point"));
        assert_eq!(unescape(r#""\U00110000""#, false), Err("invalid unicode code point"));
    }

    #[test]
    fn unescape_bytes() {
        assert_eq!(unescape(r#""\xff\377\001a""#, true).unwrap(), vec![0xff, 0xff, 1, b'a']);
        assert_eq!(unescape(r#""é""#, true).unwrap(), "é".as_bytes());
        assert_eq!(unescape(r#""\u0041""#, true), Err("unable to unescape string"));
        assert_eq!(unescape(r#"r"\x""#, true).unwrap(), b"\\x");
    }
}
