//! Go's named classes: Perl (`\d \s \w`), POSIX (`[:alpha:]`) and the Unicode table
//! names of Go 1.27's `unicode` package (Unicode 17.0.0), with Go's lookup rules.

use super::ast::{ClassPart, ClassSet, Set, UnicodeTable, clean};

/// Go's `perlGroup`: `\d`, `\s` (no `\v`), `\w`; ASCII only.
pub(crate) fn perl_group(c: u8) -> Option<(&'static [(u32, u32)], bool)> {
    Some(match c {
        b'd' => (DIGIT, false),
        b'D' => (DIGIT, true),
        b's' => (PERL_SPACE, false),
        b'S' => (PERL_SPACE, true),
        b'w' => (WORD, false),
        b'W' => (WORD, true),
        _ => return None,
    })
}

const DIGIT: &[(u32, u32)] = &[(0x30, 0x39)];
const PERL_SPACE: &[(u32, u32)] = &[(0x09, 0x0A), (0x0C, 0x0D), (0x20, 0x20)];
const WORD: &[(u32, u32)] = &[(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)];
pub(crate) const ASCII: &[(u32, u32)] = &[(0x00, 0x7F)];

/// Go's `posixGroup`, by the name between `[:` and `:]`.
pub(crate) fn posix_group(name: &str) -> Option<&'static [(u32, u32)]> {
    Some(match name {
        "alnum" => &[(0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A)],
        "alpha" => &[(0x41, 0x5A), (0x61, 0x7A)],
        "ascii" => ASCII,
        "blank" => &[(0x09, 0x09), (0x20, 0x20)],
        "cntrl" => &[(0x00, 0x1F), (0x7F, 0x7F)],
        "digit" => DIGIT,
        "graph" => &[(0x21, 0x7E)],
        "lower" => &[(0x61, 0x7A)],
        "print" => &[(0x20, 0x7E)],
        "punct" => &[(0x21, 0x2F), (0x3A, 0x40), (0x5B, 0x60), (0x7B, 0x7E)],
        "space" => &[(0x09, 0x0D), (0x20, 0x20)],
        "upper" => &[(0x41, 0x5A)],
        "word" => WORD,
        "xdigit" => &[(0x30, 0x39), (0x41, 0x46), (0x61, 0x66)],
        _ => return None,
    })
}

/// An ASCII group as Go's `appendGroup` adds it, folded under `(?i)` (ASCII letters
/// gain their other case, `k`/`K` the Kelvin sign U+212A, `s`/`S` the long s
/// U+017F: their `unicode.SimpleFold` orbits), then negated if `negated`.
pub(crate) fn ascii_group(class: &[(u32, u32)], negated: bool, fold: bool) -> ClassPart {
    let runes = folded_ascii(class, fold);
    if negated {
        ClassPart {
            fold,
            sets: vec![ClassSet {
                set: Set::Runes(runes),
                negated: true,
            }],
            ..ClassPart::default()
        }
    } else {
        ClassPart {
            fold,
            ranges: runes,
            ..ClassPart::default()
        }
    }
}

fn folded_ascii(class: &[(u32, u32)], fold: bool) -> Vec<(u32, u32)> {
    let mut r = class.to_vec();
    if fold {
        for &(lo, hi) in class {
            for c in lo..=hi.min(0x7F) {
                let b = c as u8;
                if b.is_ascii_alphabetic() {
                    let other = u32::from(b ^ 0x20);
                    r.push((other, other));
                }
                match b {
                    b'k' | b'K' => r.push((0x212A, 0x212A)),
                    b's' | b'S' => r.push((0x017F, 0x017F)),
                    _ => {}
                }
            }
        }
    }
    clean(r)
}

/// What a `\p{name}` names (Go's `unicodeTable`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UnicodeName {
    /// `Any`: every rune.
    Any,
    /// `ASCII`: U+0000 to U+007F (folding adds U+017F and U+212A).
    Ascii,
    /// A table; `negated` for `Assigned` (which is Go's inverted `Cn`).
    Table { table: UnicodeTable, negated: bool },
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

/// Go's `unicodeTable(name)`.
pub(crate) fn lookup(name: &str) -> Option<UnicodeName> {
    let canon = canonical_name(name);
    match canon.as_slice() {
        b"Any" => return Some(UnicodeName::Any),
        b"Assigned" => {
            return Some(UnicodeName::Table {
                table: UnicodeTable::Category("Cn"),
                negated: true,
            });
        }
        b"Ascii" => return Some(UnicodeName::Ascii),
        b"Lc" => {
            return Some(UnicodeName::Table {
                table: UnicodeTable::Category("LC"),
                negated: false,
            });
        }
        _ => {}
    }
    let table = |table| Some(UnicodeName::Table { table, negated: false });
    if let Some(&c) = CATEGORIES.iter().find(|c| canonical_name(c) == canon) {
        return table(UnicodeTable::Category(c));
    }
    if let Some(&s) = SCRIPTS.iter().find(|s| canonical_name(s) == canon) {
        return table(UnicodeTable::Script(s));
    }
    if let Some(&(_, c)) = CATEGORY_ALIASES.iter().find(|(a, _)| canonical_name(a) == canon) {
        return table(UnicodeTable::Category(c));
    }
    None
}

/// Scripts of Unicode 17.0.0 (Go 1.27) that the `regex` crate's Unicode 16.0.0
/// tables lack. No code point had them in Unicode 16, so they translate to an
/// empty set: text in these scripts does not match `\p{Sidetic}` here.
pub(crate) const SCRIPTS_NEWER_THAN_REGEX_CRATE: &[&str] = &["Beria_Erfe", "Sidetic", "Tai_Yo", "Tolong_Siki"];

/// `unicode.Categories` keys (Go 1.27).
pub(crate) const CATEGORIES: &[&str] = &[
    "C", "Cc", "Cf", "Cn", "Co", "Cs", "L", "LC", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn", "N", "Nd", "Nl",
    "No", "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "S", "Sc", "Sk", "Sm", "So", "Z", "Zl", "Zp", "Zs",
];

/// `unicode.CategoryAliases` (Go 1.27): alias → category.
pub(crate) const CATEGORY_ALIASES: &[(&str, &str)] = &[
    ("Cased_Letter", "LC"),
    ("Close_Punctuation", "Pe"),
    ("Combining_Mark", "M"),
    ("Connector_Punctuation", "Pc"),
    ("Control", "Cc"),
    ("Currency_Symbol", "Sc"),
    ("Dash_Punctuation", "Pd"),
    ("Decimal_Number", "Nd"),
    ("Enclosing_Mark", "Me"),
    ("Final_Punctuation", "Pf"),
    ("Format", "Cf"),
    ("Initial_Punctuation", "Pi"),
    ("Letter", "L"),
    ("Letter_Number", "Nl"),
    ("Line_Separator", "Zl"),
    ("Lowercase_Letter", "Ll"),
    ("Mark", "M"),
    ("Math_Symbol", "Sm"),
    ("Modifier_Letter", "Lm"),
    ("Modifier_Symbol", "Sk"),
    ("Nonspacing_Mark", "Mn"),
    ("Number", "N"),
    ("Open_Punctuation", "Ps"),
    ("Other", "C"),
    ("Other_Letter", "Lo"),
    ("Other_Number", "No"),
    ("Other_Punctuation", "Po"),
    ("Other_Symbol", "So"),
    ("Paragraph_Separator", "Zp"),
    ("Private_Use", "Co"),
    ("Punctuation", "P"),
    ("Separator", "Z"),
    ("Space_Separator", "Zs"),
    ("Spacing_Mark", "Mc"),
    ("Surrogate", "Cs"),
    ("Symbol", "S"),
    ("Titlecase_Letter", "Lt"),
    ("Unassigned", "Cn"),
    ("Uppercase_Letter", "Lu"),
    ("cntrl", "Cc"),
    ("digit", "Nd"),
    ("punct", "P"),
];

/// `unicode.Scripts` keys (Go 1.27, Unicode 17.0.0).
pub(crate) const SCRIPTS: &[&str] = &[
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
