//! Kubernetes `resource.Quantity` (apimachinery `pkg/api/resource`) and the CEL quantity
//! library built on it (apiserver `pkg/cel/library/quantity.go`).
//!
//! ```text
//! quantity("1.5Gi") / isQuantity(s)        => Quantity::parse / is_quantity
//! q.sign() q.isInteger() q.asInteger()      => sign / is_integer / as_integer
//! q.asApproximateFloat()                    => as_approximate_float
//! q.add(r) q.add(int) q.sub(r) q.sub(int)   => add / add_int / sub / sub_int
//! q.compareTo(r) isGreaterThan isLessThan   => cmp (and Ord)
//! string(q)                                 => to_string (Display)
//! ```
//!
//! Go keeps a quantity either as a scaled `int64` (`int64Amount`: value × 10^scale) or, when
//! that does not fit, as an `inf.Dec` (big integer × 10^-scale). Several results depend on
//! which one a value ended up in (`isInteger()` is false for every `inf.Dec`, and for
//! `1000m`), so this type keeps the same two forms, chosen by the same rules, and a parsed
//! string that is already canonical is printed back unchanged (`+1k` stays `+1k`), as Go does.
//!
//! Range: values are exact. The scale of the `int64` form is an `i32`, as in Go, so values
//! like `1e2000000000` are held without expansion. Big integers are exact up to
//! [`MAX_DIGITS`] decimal digits; Go would go on (slowly) where this type stops:
//! - parsing a number that would need more digits fails with [`ERR_TOO_LARGE`] (that takes
//!   more than 18 significant digits or a fractional binary suffix, *and* an exponent over
//!   about 100000, e.g. `1234567890123456789e200000`);
//! - adding or subtracting two quantities whose exact result would need more digits gives the
//!   operand of larger magnitude unchanged (the other one is below its last digit);
//! - a `BinarySI` quantity of over 4000 digits prints in `DecimalSI` form.
//!
//! Comparison never expands numbers, so it is exact for every value.
//!
//! Go quirks kept on purpose (each checked against Go): `.` and `-.` parse as zero; a
//! `DecimalSI` value past `E` (10^18) or a `BinarySI` one past `Ei` prints its digits with no
//! suffix (`1000E` → `1`); `BinarySI` parses are capped at 2^63-1 (`8Ei` →
//! `9223372036854775807`); `e` exponents are truncated to 32 bits and scales wrap like Go's
//! `int32`; `asApproximateFloat()` of `0e400` is NaN.

use std::cmp::Ordering;
use std::fmt;

/// Error for a string outside the quantity grammar. Mirrors Go `resource.ErrFormatWrong`.
pub const ERR_FORMAT_WRONG: &str =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
/// Error for an unparsable number. Mirrors Go `resource.ErrNumeric`.
pub const ERR_NUMERIC: &str = "unable to parse numeric part of quantity";
/// Error for an unknown suffix. Mirrors Go `resource.ErrSuffix`.
pub const ERR_SUFFIX: &str = "unable to parse quantity's suffix";
/// Error of `asInteger()` when the value is not an `int64` integer (CEL quantity library).
pub const ERR_NOT_INTEGER: &str = "cannot convert value to integer";
/// Error for a quantity beyond this implementation's range (no Go counterpart).
pub const ERR_TOO_LARGE: &str = "quantity is too large to be represented exactly";

/// Most decimal digits a big integer may grow to (see the module documentation).
pub const MAX_DIGITS: usize = 100_000;
/// Most digits for which a `BinarySI` quantity is printed with a binary suffix.
const MAX_BINARY_DIGITS: usize = 4_000;

// ---------------------------------------------------------------------------------------
// Unsigned big integer, base 10^9
// ---------------------------------------------------------------------------------------

const LIMB: u64 = 1_000_000_000;
const POW10: [u32; 10] = [
    1,
    10,
    100,
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
    1_000_000_000,
];

/// Magnitude: little-endian base-10^9 limbs without high zero limbs (zero is empty).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
struct Mag(Vec<u32>);

impl Mag {
    fn trim(mut self) -> Mag {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
        self
    }

    fn from_u128(mut v: u128) -> Mag {
        let mut limbs = Vec::new();
        while v > 0 {
            limbs.push((v % u128::from(LIMB)) as u32);
            v /= u128::from(LIMB);
        }
        Mag(limbs)
    }

    /// From ASCII digits (leading zeros allowed).
    fn from_digits(d: &[u8]) -> Mag {
        let mut limbs = Vec::with_capacity(d.len() / 9 + 1);
        let mut end = d.len();
        while end > 0 {
            let start = end.saturating_sub(9);
            let limb = d[start..end]
                .iter()
                .fold(0u32, |acc, &c| acc * 10 + u32::from(c - b'0'));
            limbs.push(limb);
            end = start;
        }
        Mag(limbs).trim()
    }

    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    /// Number of decimal digits (0 for zero).
    fn digits(&self) -> usize {
        match self.0.last() {
            None => 0,
            Some(&top) => (self.0.len() - 1) * 9 + POW10.iter().filter(|&&p| top >= p).count(),
        }
    }

    fn cmp(&self, o: &Mag) -> Ordering {
        self.0
            .len()
            .cmp(&o.0.len())
            .then_with(|| self.0.iter().rev().cmp(o.0.iter().rev()))
    }

    fn add(&self, o: &Mag) -> Mag {
        let mut out = Vec::with_capacity(self.0.len().max(o.0.len()) + 1);
        let mut carry = 0u64;
        for i in 0..self.0.len().max(o.0.len()) {
            let s = u64::from(*self.0.get(i).unwrap_or(&0)) + u64::from(*o.0.get(i).unwrap_or(&0)) + carry;
            out.push((s % LIMB) as u32);
            carry = s / LIMB;
        }
        if carry > 0 {
            out.push(carry as u32);
        }
        Mag(out)
    }

    /// `self - o`, requires `self >= o`.
    fn sub(&self, o: &Mag) -> Mag {
        let mut out = Vec::with_capacity(self.0.len());
        let mut borrow = 0i64;
        for i in 0..self.0.len() {
            let mut d = i64::from(self.0[i]) - i64::from(*o.0.get(i).unwrap_or(&0)) - borrow;
            borrow = 0;
            if d < 0 {
                d += LIMB as i64;
                borrow = 1;
            }
            out.push(d as u32);
        }
        Mag(out).trim()
    }

    fn mul_small(&self, m: u32) -> Mag {
        let mut out = Vec::with_capacity(self.0.len() + 2);
        let mut carry = 0u64;
        for &l in &self.0 {
            let p = u64::from(l) * u64::from(m) + carry;
            out.push((p % LIMB) as u32);
            carry = p / LIMB;
        }
        while carry > 0 {
            out.push((carry % LIMB) as u32);
            carry /= LIMB;
        }
        Mag(out).trim()
    }

    /// `self × 10^k`, or `None` past [`MAX_DIGITS`].
    fn mul_pow10(&self, k: u64) -> Option<Mag> {
        if self.is_zero() {
            return Some(Mag::default());
        }
        if self.digits() as u64 + k > MAX_DIGITS as u64 {
            return None;
        }
        let k = k as usize;
        let mut limbs = vec![0u32; k / 9];
        limbs.extend_from_slice(&self.0);
        Some(Mag(limbs).mul_small(POW10[k % 9]))
    }

    fn divrem_small(&self, d: u32) -> (Mag, u32) {
        let mut out = vec![0u32; self.0.len()];
        let mut rem = 0u64;
        for i in (0..self.0.len()).rev() {
            let cur = rem * LIMB + u64::from(self.0[i]);
            out[i] = (cur / u64::from(d)) as u32;
            rem = cur % u64::from(d);
        }
        (Mag(out).trim(), rem as u32)
    }

    /// Truncated `self / 10^k` and whether the remainder is non-zero.
    fn div_pow10(&self, k: u64) -> (Mag, bool) {
        if k >= self.digits() as u64 {
            return (Mag::default(), !self.is_zero());
        }
        let k = k as usize;
        let dropped = &self.0[..k / 9];
        let shifted = Mag(self.0[k / 9..].to_vec());
        let (q, r) = shifted.divrem_small(POW10[k % 9]);
        (q, r != 0 || dropped.iter().any(|&l| l != 0))
    }

    /// Number of trailing decimal zeros (0 for zero).
    fn trailing_zeros(&self) -> usize {
        let Some(first) = self.0.iter().position(|&l| l != 0) else {
            return 0;
        };
        let mut l = self.0[first];
        let mut n = first * 9;
        while l.is_multiple_of(10) {
            l /= 10;
            n += 1;
        }
        n
    }

    fn to_decimal(&self) -> String {
        let Some((top, rest)) = self.0.split_last() else {
            return "0".into();
        };
        let mut s = top.to_string();
        for l in rest.iter().rev() {
            s.push_str(&format!("{l:09}"));
        }
        s
    }
}

// ---------------------------------------------------------------------------------------
// Signed big integer (the unscaled value of Go's inf.Dec)
// ---------------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Eq, Default)]
struct BigInt {
    neg: bool,
    mag: Mag,
}

impl BigInt {
    fn new(neg: bool, mag: Mag) -> BigInt {
        BigInt {
            neg: neg && !mag.is_zero(),
            mag,
        }
    }

    fn from_i64(v: i64) -> BigInt {
        BigInt::new(v < 0, Mag::from_u128(u128::from(v.unsigned_abs())))
    }

    fn sign(&self) -> i32 {
        if self.mag.is_zero() {
            0
        } else if self.neg {
            -1
        } else {
            1
        }
    }

    fn neg(&self) -> BigInt {
        BigInt::new(!self.neg, self.mag.clone())
    }

    fn add(&self, o: &BigInt) -> BigInt {
        if self.neg == o.neg {
            return BigInt::new(self.neg, self.mag.add(&o.mag));
        }
        match self.mag.cmp(&o.mag) {
            Ordering::Less => BigInt::new(o.neg, o.mag.sub(&self.mag)),
            _ => BigInt::new(self.neg, self.mag.sub(&o.mag)),
        }
    }

    fn to_decimal(&self) -> String {
        if self.neg {
            format!("-{}", self.mag.to_decimal())
        } else {
            self.mag.to_decimal()
        }
    }

    /// Correctly rounded conversion, as Go's `big.Float.SetInt(x).Float64()`.
    fn to_f64(&self) -> f64 {
        self.to_decimal().parse().unwrap_or(0.0)
    }
}

// ---------------------------------------------------------------------------------------
// Quantity
// ---------------------------------------------------------------------------------------

/// How a quantity prints. Mirrors Go `resource.Format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum QuantityFormat {
    /// `12e6`
    DecimalExponent,
    /// `12Mi` (powers of 1024)
    BinarySI,
    /// `12M` (powers of 1000)
    DecimalSI,
}

impl QuantityFormat {
    /// Go's name of the format (`"DecimalSI"`...).
    pub fn as_str(self) -> &'static str {
        match self {
            QuantityFormat::DecimalExponent => "DecimalExponent",
            QuantityFormat::BinarySI => "BinarySI",
            QuantityFormat::DecimalSI => "DecimalSI",
        }
    }
}

#[derive(Clone, Debug)]
enum Repr {
    /// Go `int64Amount`: `value × 10^scale`.
    Int { value: i64, scale: i32 },
    /// Go `inf.Dec`: `unscaled × 10^-scale`.
    Dec { unscaled: BigInt, scale: i32 },
}

/// A Kubernetes resource quantity (`100m`, `1.5Gi`, `2e3`), as the CEL type
/// `kubernetes.Quantity` holds it.
///
/// Mirrors Go `resource.Quantity`. `==` and ordering compare values (CEL `==` is
/// `Quantity.Equal`), whatever the format.
#[derive(Clone, Debug)]
pub struct Quantity {
    repr: Repr,
    format: QuantityFormat,
    /// The parsed string when it is already canonical (Go's `q.s`).
    s: Option<String>,
}

struct Parts<'a> {
    positive: bool,
    value: &'a [u8],
    num: &'a [u8],
    denom: &'a [u8],
    suffix: &'a [u8],
}

/// Go `parseQuantityString`.
fn split_quantity(s: &[u8]) -> Result<Parts<'_>, ()> {
    let end = s.len();
    let mut parts = Parts {
        positive: true,
        value: b"",
        num: b"",
        denom: b"",
        suffix: b"",
    };
    let mut pos = 0;
    if pos < end {
        match s[0] {
            b'-' => {
                parts.positive = false;
                pos += 1;
            }
            b'+' => pos += 1,
            _ => {}
        }
    }
    // leading zeros
    loop {
        if pos >= end {
            parts.num = b"0";
            parts.value = b"0";
            return Ok(parts);
        }
        if s[pos] != b'0' {
            break;
        }
        pos += 1;
    }
    // integer part
    let mut i = pos;
    loop {
        if i >= end {
            parts.num = &s[pos..end];
            parts.value = &s[..end];
            return Ok(parts);
        }
        if !s[i].is_ascii_digit() {
            parts.num = &s[pos..i];
            pos = i;
            break;
        }
        i += 1;
    }
    if parts.num.is_empty() {
        parts.num = b"0";
    }
    // fraction
    if pos < end && s[pos] == b'.' {
        pos += 1;
        let mut i = pos;
        loop {
            if i >= end {
                parts.denom = &s[pos..end];
                parts.value = &s[..end];
                return Ok(parts);
            }
            if !s[i].is_ascii_digit() {
                parts.denom = &s[pos..i];
                pos = i;
                break;
            }
            i += 1;
        }
    }
    parts.value = &s[..pos];
    // suffix: letters, optional sign, digits
    let suffix_start = pos;
    let mut i = pos;
    loop {
        if i >= end {
            parts.suffix = &s[suffix_start..end];
            return Ok(parts);
        }
        if !b"eEinumkKMGTP".contains(&s[i]) {
            pos = i;
            break;
        }
        i += 1;
    }
    if pos < end && (s[pos] == b'-' || s[pos] == b'+') {
        pos += 1;
    }
    for &c in &s[pos..] {
        if !c.is_ascii_digit() {
            return Err(());
        }
    }
    parts.suffix = &s[suffix_start..end];
    Ok(parts)
}

/// Go `quantitySuffixer.interpret`: base, exponent, format.
fn interpret_suffix(s: &[u8]) -> Option<(u32, i32, QuantityFormat)> {
    use QuantityFormat::*;
    Some(match s {
        b"" => (10, 0, DecimalSI),
        b"n" => (10, -9, DecimalSI),
        b"u" => (10, -6, DecimalSI),
        b"m" => (10, -3, DecimalSI),
        b"k" => (10, 3, DecimalSI),
        b"M" => (10, 6, DecimalSI),
        b"G" => (10, 9, DecimalSI),
        b"T" => (10, 12, DecimalSI),
        b"P" => (10, 15, DecimalSI),
        b"E" => (10, 18, DecimalSI),
        b"Ki" => (2, 10, BinarySI),
        b"Mi" => (2, 20, BinarySI),
        b"Gi" => (2, 30, BinarySI),
        b"Ti" => (2, 40, BinarySI),
        b"Pi" => (2, 50, BinarySI),
        b"Ei" => (2, 60, BinarySI),
        [b'e' | b'E', rest @ ..] if !rest.is_empty() => {
            // strconv.ParseInt(rest, 10, 64), then Go's int32() truncation
            let text = std::str::from_utf8(rest).ok()?;
            let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let v: i64 = text.parse().ok()?;
            (10, v as i32, DecimalExponent)
        }
        _ => return None,
    })
}

/// Go `positiveScaleInt64`: `base × 10^scale`; a negative scale (which Go only reaches
/// through int32 wrap-around) leaves `base` unchanged, as Go's loop does.
fn positive_scale(base: i64, scale: i32) -> Option<i64> {
    if scale <= 0 || base == 0 {
        return Some(base);
    }
    if scale > 18 {
        return None;
    }
    base.checked_mul(10i64.pow(scale as u32))
}

/// Go `negativeScaleInt64`: `base / 10^scale` rounded away from zero, and whether exact.
fn negative_scale(base: i64, scale: i64) -> (i64, bool) {
    if scale == 0 {
        return (base, true);
    }
    let mut value = base;
    let mut fraction = false;
    let mut i = 0;
    while i < scale {
        if !fraction && value % 10 != 0 {
            fraction = true;
        }
        value /= 10;
        if value == 0 {
            if fraction {
                return (if base > 0 { 1 } else { -1 }, false);
            }
            return (0, true);
        }
        i += 1;
    }
    if fraction {
        if base > 0 {
            value += 1;
        } else {
            value -= 1;
        }
    }
    (value, !fraction)
}

/// Go `int64Amount.Add`.
fn int_add(a: (i64, i32), b: (i64, i32)) -> Option<(i64, i32)> {
    let ((av, ascale), (bv, bscale)) = (a, b);
    if bv == 0 {
        return Some(a);
    }
    if av == 0 {
        return Some(b);
    }
    if ascale == bscale {
        return Some((av.checked_add(bv)?, ascale));
    }
    if ascale > bscale {
        let c = positive_scale(av, ascale.wrapping_sub(bscale))?;
        Some((c.checked_add(bv)?, bscale))
    } else {
        let c = positive_scale(bv, bscale.wrapping_sub(ascale))?;
        Some((av.checked_add(c)?, ascale))
    }
}

/// Go `removeInt64Factors` (including its quirk for the most negative value).
fn remove_int64_factors(value: i64, base: i64) -> (i64, i32) {
    let mut times = 0;
    let negative = value < 0;
    let mut result = if negative { value.wrapping_neg() } else { value };
    while result >= base && result % base == 0 {
        times += 1;
        result /= base;
    }
    if negative {
        result = result.wrapping_neg();
    }
    (result, times)
}

/// Go `math.Pow10`.
fn go_pow10(n: i64) -> f64 {
    const TAB: [f64; 32] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29, 1e30, 1e31,
    ];
    const POS32: [f64; 10] = [1e0, 1e32, 1e64, 1e96, 1e128, 1e160, 1e192, 1e224, 1e256, 1e288];
    const NEG32: [f64; 11] = [
        1e-0, 1e-32, 1e-64, 1e-96, 1e-128, 1e-160, 1e-192, 1e-224, 1e-256, 1e-288, 1e-320,
    ];
    if (0..=308).contains(&n) {
        return POS32[n as usize / 32] * TAB[n as usize % 32];
    }
    if (-323..=0).contains(&n) {
        let m = (-n) as usize;
        return NEG32[m / 32] / TAB[m % 32];
    }
    if n > 0 { f64::INFINITY } else { 0.0 }
}

/// Rounds `unscaled × 10^-scale` to scale `target` away from zero (inf `Round(RoundUp)`),
/// `None` past [`MAX_DIGITS`].
fn dec_round_up(unscaled: &BigInt, scale: i32, target: i32) -> Option<BigInt> {
    let shift = i64::from(target) - i64::from(scale);
    if shift >= 0 {
        let mag = unscaled.mag.mul_pow10(shift as u64)?;
        Some(BigInt::new(unscaled.neg, mag))
    } else {
        let (q, inexact) = unscaled.mag.div_pow10(shift.unsigned_abs());
        let q = if inexact { q.add(&Mag(vec![1])) } else { q };
        Some(BigInt::new(unscaled.neg, q))
    }
}

/// Exact comparison of `sa·ma·10^ea` and `sb·mb·10^eb` (signs in -1, 0, 1).
fn cmp_scaled(sa: i32, ma: &Mag, ea: i64, sb: i32, mb: &Mag, eb: i64) -> Ordering {
    if sa != sb {
        return sa.cmp(&sb);
    }
    if sa == 0 {
        return Ordering::Equal;
    }
    // Position of the leading digit decides unless equal.
    let la = ma.digits() as i64 + ea;
    let lb = mb.digits() as i64 + eb;
    let mag_order = if la != lb {
        la.cmp(&lb)
    } else if ea >= eb {
        // ea - eb <= digits(mb): bounded
        ma.mul_pow10((ea - eb) as u64).map_or(Ordering::Greater, |x| x.cmp(mb))
    } else {
        mb.mul_pow10((eb - ea) as u64).map_or(Ordering::Less, |y| ma.cmp(&y))
    };
    if sa < 0 { mag_order.reverse() } else { mag_order }
}

impl Repr {
    fn sign(&self) -> i32 {
        match self {
            Repr::Int { value, .. } => value.signum() as i32,
            Repr::Dec { unscaled, .. } => unscaled.sign(),
        }
    }

    /// Sign, magnitude and power of ten of the value.
    fn parts(&self) -> (i32, Mag, i64) {
        match self {
            Repr::Int { value, scale } => (
                value.signum() as i32,
                Mag::from_u128(u128::from(value.unsigned_abs())),
                i64::from(*scale),
            ),
            Repr::Dec { unscaled, scale } => (unscaled.sign(), unscaled.mag.clone(), -i64::from(*scale)),
        }
    }

    /// Go `AsDec` / `ToDec`.
    fn to_dec(&self) -> (BigInt, i32) {
        match self {
            Repr::Int { value, scale } => (BigInt::from_i64(*value), scale.wrapping_neg()),
            Repr::Dec { unscaled, scale } => (unscaled.clone(), *scale),
        }
    }

    fn cmp(&self, o: &Repr) -> Ordering {
        let (sa, ma, ea) = self.parts();
        let (sb, mb, eb) = o.parts();
        cmp_scaled(sa, &ma, ea, sb, &mb, eb)
    }

    /// Go `AsCanonicalBytes`: digits and a power of ten that is a multiple of three.
    fn canonical_decimal(&self) -> (String, i32) {
        match self {
            Repr::Int { value, scale } => {
                let (amount, times) = remove_int64_factors(*value, 10);
                let mut exponent = scale.wrapping_add(times);
                let mut amount = i128::from(amount);
                match exponent % 3 {
                    1 | -2 => {
                        amount *= 10;
                        exponent = exponent.wrapping_sub(1);
                    }
                    2 | -1 => {
                        amount *= 100;
                        exponent = exponent.wrapping_sub(2);
                    }
                    _ => {}
                }
                (amount.to_string(), exponent)
            }
            Repr::Dec { unscaled, scale } => {
                let mut exponent = scale.wrapping_neg();
                let times = unscaled.mag.trailing_zeros();
                let (mut mag, _) = unscaled.mag.div_pow10(times as u64);
                exponent = exponent.wrapping_add(times as i32);
                while exponent % 3 != 0 {
                    mag = mag.mul_small(10);
                    exponent = exponent.wrapping_sub(1);
                }
                (BigInt::new(unscaled.neg, mag).to_decimal(), exponent)
            }
        }
    }

    /// Go `AsScale(0)`: the value rounded up to an integer and whether that was exact.
    /// `None` when the integer would be too large to build.
    fn as_integer_scale(&self) -> Option<(Repr, bool)> {
        match self {
            Repr::Int { value, scale } => {
                if *scale >= 0 {
                    Some((self.clone(), true))
                } else {
                    let (v, exact) = negative_scale(*value, -i64::from(*scale));
                    Some((Repr::Int { value: v, scale: 0 }, exact))
                }
            }
            Repr::Dec { unscaled, scale } => {
                let r = dec_round_up(unscaled, *scale, 0)?;
                let exact = if *scale <= 0 {
                    true
                } else {
                    !unscaled.mag.div_pow10(*scale as u64).1
                };
                Some((Repr::Dec { unscaled: r, scale: 0 }, exact))
            }
        }
    }

    /// Go `AsCanonicalBase1024Bytes` of an integer value: digits and a power of 1024.
    fn canonical_binary(&self) -> Option<(String, i32)> {
        match self {
            Repr::Int { value, scale } => match positive_scale(*value, *scale) {
                Some(v) if *scale >= 0 => {
                    let (amount, times) = remove_int64_factors(v, 1024);
                    Some((amount.to_string(), times))
                }
                _ => Repr::Dec {
                    unscaled: BigInt::from_i64(*value),
                    scale: scale.wrapping_neg(),
                }
                .canonical_binary(),
            },
            Repr::Dec { unscaled, scale } => {
                let int = dec_round_up(unscaled, *scale, 0)?;
                if int.mag.digits() > MAX_BINARY_DIGITS {
                    return None;
                }
                let mut mag = int.mag;
                let mut times = 0;
                while !mag.is_zero() {
                    let (q, r) = mag.divrem_small(1024);
                    if r != 0 {
                        break;
                    }
                    mag = q;
                    times += 1;
                }
                Some((BigInt::new(int.neg, mag).to_decimal(), times))
            }
        }
    }
}

impl Quantity {
    /// Parses a quantity (`1.5Gi`, `100m`, `2e3`, `-0.5`); the error is Go's message, e.g.
    /// [`ERR_FORMAT_WRONG`], [`ERR_NUMERIC`] or [`ERR_SUFFIX`].
    ///
    /// Mirrors Go `resource.ParseQuantity` (CEL `quantity(s)`).
    pub fn parse(s: &str) -> Result<Quantity, String> {
        use QuantityFormat::*;
        if s.is_empty() {
            return Err(ERR_FORMAT_WRONG.into());
        }
        if s == "0" {
            return Ok(Quantity {
                repr: Repr::Int { value: 0, scale: 0 },
                format: DecimalSI,
                s: Some(s.into()),
            });
        }
        let p = split_quantity(s.as_bytes()).map_err(|_| ERR_FORMAT_WRONG.to_string())?;
        let (base, exponent, mut format) = interpret_suffix(p.suffix).ok_or_else(|| ERR_SUFFIX.to_string())?;

        // Fast path: an int64 with a decimal scale.
        let mut scale: i32;
        let precision: i64;
        let mut mantissa: i64 = 1;
        if format == BinarySI {
            scale = 0;
            if exponent >= 0 && p.denom.is_empty() {
                mantissa = 1i64 << exponent;
                precision = 15 - p.num.len() as i64 - (exponent as f32 * 3.0 / 10.0) as i64 - 1;
            } else {
                precision = -1;
            }
        } else {
            scale = exponent;
            precision = 18 - (p.num.len() + p.denom.len()) as i64;
        }
        if precision >= 0 {
            scale = scale.wrapping_sub(p.denom.len() as i32);
            if scale >= -9 {
                let mut shifted = p.num.to_vec();
                shifted.extend_from_slice(p.denom);
                let value: i64 = std::str::from_utf8(&shifted)
                    .ok()
                    .and_then(|t| t.parse().ok())
                    .ok_or_else(|| ERR_NUMERIC.to_string())?;
                if let Some(mut result) = value.checked_mul(mantissa) {
                    if !p.positive {
                        result = -result;
                    }
                    let canonical = match format {
                        BinarySI => exponent % 10 == 0 && value & 0x07 != 0,
                        _ => scale % 3 == 0 && !shifted.ends_with(b"000") && shifted[0] != b'0',
                    };
                    return Ok(Quantity {
                        repr: Repr::Int { value: result, scale },
                        format,
                        s: canonical.then(|| s.to_string()),
                    });
                }
            }
        }

        // Slow path: a big decimal, rounded up to nano units.
        let (mut unscaled, mut dscale) = parse_inf_dec(p.value).map_err(str::to_string)?;
        if base == 10 {
            dscale = dscale.wrapping_add(exponent.wrapping_neg());
        } else {
            let mut mag = unscaled.mag;
            let mut e = exponent;
            while e > 0 {
                let step = e.min(30);
                mag = mag.mul_small(1 << step);
                e -= step;
            }
            unscaled = BigInt::new(unscaled.neg, mag);
        }
        let sign = unscaled.sign();
        unscaled.neg = false;
        if sign != 0 {
            unscaled = dec_round_up(&unscaled, dscale, 9).ok_or_else(|| ERR_TOO_LARGE.to_string())?;
            dscale = 9;
        }
        if format == BinarySI {
            let max = Repr::Int {
                value: i64::MAX,
                scale: 0,
            };
            let one = Repr::Int { value: 1, scale: 0 };
            let cur = Repr::Dec {
                unscaled: unscaled.clone(),
                scale: dscale,
            };
            if cur.cmp(&max) == Ordering::Greater {
                unscaled = BigInt::from_i64(i64::MAX);
                dscale = 0;
            } else if sign != 0 && cur.cmp(&one) == Ordering::Less {
                format = DecimalSI;
            }
        }
        if sign < 0 {
            unscaled = unscaled.neg();
        }
        Ok(Quantity {
            repr: Repr::Dec {
                unscaled,
                scale: dscale,
            },
            format,
            s: None,
        })
    }

    /// A quantity holding the integer `value` in `format`. Mirrors Go `resource.NewQuantity`.
    pub fn from_i64(value: i64, format: QuantityFormat) -> Quantity {
        Quantity {
            repr: Repr::Int { value, scale: 0 },
            format,
            s: None,
        }
    }

    /// The format the quantity prints in.
    pub fn format(&self) -> QuantityFormat {
        self.format
    }

    /// `sign()`: -1, 0 or 1. Mirrors Go `Quantity.Sign`.
    pub fn sign(&self) -> i64 {
        i64::from(self.repr.sign())
    }

    /// Whether the value is zero. Mirrors Go `Quantity.IsZero`.
    pub fn is_zero(&self) -> bool {
        self.repr.sign() == 0
    }

    /// `compareTo()`: the order of the two values. Mirrors Go `Quantity.Cmp`.
    pub fn compare_to(&self, other: &Quantity) -> i64 {
        match self.repr.cmp(&other.repr) {
            Ordering::Less => -1,
            Ordering::Equal => 0,
            Ordering::Greater => 1,
        }
    }

    /// `isGreaterThan()`.
    pub fn is_greater_than(&self, other: &Quantity) -> bool {
        self.compare_to(other) == 1
    }

    /// `isLessThan()`.
    pub fn is_less_than(&self, other: &Quantity) -> bool {
        self.compare_to(other) == -1
    }

    /// Go `Quantity.AsInt64`: the value as an `i64` when it is held as a scaled `int64` with
    /// a non-negative scale and fits. A value held as a big decimal, or with a fraction of a
    /// unit in its scale (`1000m`), gives `None` even when it is whole, exactly as Go does.
    pub fn as_i64(&self) -> Option<i64> {
        match &self.repr {
            Repr::Int { value, scale } if *scale >= 0 => positive_scale(*value, *scale),
            _ => None,
        }
    }

    /// `isInteger()`. Mirrors the CEL library: `AsInt64` succeeds.
    pub fn is_integer(&self) -> bool {
        self.as_i64().is_some()
    }

    /// `asInteger()`: the value as an `i64`, or the CEL error
    /// [`ERR_NOT_INTEGER`] (`cannot convert value to integer`).
    pub fn as_integer(&self) -> Result<i64, String> {
        self.as_i64().ok_or_else(|| ERR_NOT_INTEGER.to_string())
    }

    /// `asApproximateFloat()`. Mirrors Go `Quantity.AsApproximateFloat64` bit for bit
    /// (`base × math.Pow10(exponent)`, so it can be ±Inf, or NaN for `0e400`).
    pub fn as_approximate_float(&self) -> f64 {
        let (base, exponent) = match &self.repr {
            Repr::Int { value, scale } => (*value as f64, i64::from(*scale)),
            Repr::Dec { unscaled, scale } => (unscaled.to_f64(), i64::from(scale.wrapping_neg())),
        };
        if exponent == 0 {
            return base;
        }
        base * go_pow10(exponent)
    }

    /// `add()`: the sum, in the receiver's format (or the argument's when the receiver is
    /// zero). Mirrors Go `Quantity.Add` on a copy.
    pub fn add(&self, y: &Quantity) -> Quantity {
        let mut q = self.clone();
        q.s = None;
        if let (Repr::Int { value: av, scale: asc }, Repr::Int { value: bv, scale: bsc }) = (&q.repr, &y.repr) {
            if *av == 0 {
                q.format = y.format;
            }
            if let Some((value, scale)) = int_add((*av, *asc), (*bv, *bsc)) {
                q.repr = Repr::Int { value, scale };
                return q;
            }
        } else if q.is_zero() {
            q.format = y.format;
        }
        q.repr = dec_add(&q.repr, &y.repr, false);
        q
    }

    /// `sub()`: the difference. Mirrors Go `Quantity.Sub` on a copy.
    pub fn sub(&self, y: &Quantity) -> Quantity {
        let mut q = self.clone();
        q.s = None;
        if q.is_zero() {
            q.format = y.format;
        }
        if let (Repr::Int { value: av, scale: asc }, Repr::Int { value: bv, scale: bsc }) = (&q.repr, &y.repr)
            && let Some((value, scale)) = int_add((*av, *asc), (bv.wrapping_neg(), *bsc))
        {
            q.repr = Repr::Int { value, scale };
            return q;
        }
        q.repr = dec_add(&q.repr, &y.repr, true);
        q
    }

    /// `add(int)`: adds `NewQuantity(n, DecimalExponent)`.
    pub fn add_int(&self, n: i64) -> Quantity {
        self.add(&Quantity::from_i64(n, QuantityFormat::DecimalExponent))
    }

    /// `sub(int)`: subtracts `NewQuantity(n, DecimalExponent)`.
    pub fn sub_int(&self, n: i64) -> Quantity {
        self.sub(&Quantity::from_i64(n, QuantityFormat::DecimalExponent))
    }

    /// The negated quantity. Mirrors Go `Quantity.Neg` on a copy.
    pub fn neg(&self) -> Quantity {
        let repr = match &self.repr {
            Repr::Int { value, scale } => Repr::Int {
                value: value.wrapping_neg(),
                scale: *scale,
            },
            Repr::Dec { unscaled, scale } => Repr::Dec {
                unscaled: unscaled.neg(),
                scale: *scale,
            },
        };
        Quantity {
            repr,
            format: self.format,
            s: None,
        }
    }

    /// Go `Quantity.CmpInt64`.
    fn cmp_i64(&self, y: i64) -> Ordering {
        self.repr.cmp(&Repr::Int { value: y, scale: 0 })
    }

    /// The canonical string (or the parsed one when Go keeps it).
    /// Mirrors Go `Quantity.String` / `CanonicalizeBytes`.
    fn canonical(&self) -> String {
        use QuantityFormat::*;
        if let Some(s) = &self.s {
            return s.clone();
        }
        if self.is_zero() {
            return "0".into();
        }
        let mut format = self.format;
        let mut rounded = None;
        if format == BinarySI {
            if self.cmp_i64(-1024) == Ordering::Greater && self.cmp_i64(1024) == Ordering::Less {
                format = DecimalSI;
            } else {
                if let Some((r, true)) = self.repr.as_integer_scale() {
                    rounded = r.canonical_binary();
                }
                if rounded.is_none() {
                    format = DecimalSI;
                }
            }
        }
        if let (BinarySI, Some((number, exponent))) = (format, rounded) {
            let suffix = match exponent {
                1 => "Ki",
                2 => "Mi",
                3 => "Gi",
                4 => "Ti",
                5 => "Pi",
                6 => "Ei",
                _ => "",
            };
            return number + suffix;
        }
        let (number, exponent) = self.repr.canonical_decimal();
        let suffix = match format {
            DecimalExponent if exponent == 0 => String::new(),
            DecimalExponent => format!("e{exponent}"),
            _ => match exponent {
                -9 => "n",
                -6 => "u",
                -3 => "m",
                3 => "k",
                6 => "M",
                9 => "G",
                12 => "T",
                15 => "P",
                18 => "E",
                _ => "",
            }
            .to_string(),
        };
        number + &suffix
    }
}

/// Go `inf.Dec.SetString` on the number part of a quantity: `[+-]?digits[.digits]`.
fn parse_inf_dec(value: &[u8]) -> Result<(BigInt, i32), &'static str> {
    let (neg, rest) = match value.split_first() {
        Some((b'-', r)) => (true, r),
        Some((b'+', r)) => (false, r),
        _ => (false, value),
    };
    let (int, frac) = match rest.iter().position(|&c| c == b'.') {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &b""[..]),
    };
    if int.is_empty() && frac.is_empty() {
        return Err(ERR_NUMERIC);
    }
    let mut digits = int.to_vec();
    digits.extend_from_slice(frac);
    if digits.len() > MAX_DIGITS {
        return Err(ERR_TOO_LARGE);
    }
    Ok((
        BigInt::new(neg, Mag::from_digits(&digits)),
        i32::try_from(frac.len()).map_err(|_| ERR_TOO_LARGE)?,
    ))
}

/// Go's `inf.Dec` addition (or subtraction) after `ToDec`: both values are brought to the
/// larger scale. When that needs more than [`MAX_DIGITS`], the operand of larger magnitude
/// is returned (the other is below its precision).
fn dec_add(a: &Repr, b: &Repr, subtract: bool) -> Repr {
    let (ua, sa) = a.to_dec();
    let (ub, sb) = b.to_dec();
    let ub = if subtract { ub.neg() } else { ub };
    let scale = sa.max(sb);
    let up = |u: &BigInt, s: i32| -> Option<BigInt> {
        let mag = u.mag.mul_pow10((i64::from(scale) - i64::from(s)) as u64)?;
        Some(BigInt::new(u.neg, mag))
    };
    match (up(&ua, sa), up(&ub, sb)) {
        (Some(x), Some(y)) => Repr::Dec {
            unscaled: x.add(&y),
            scale,
        },
        _ => {
            let da = Repr::Dec {
                unscaled: ua.clone(),
                scale: sa,
            };
            let db = Repr::Dec {
                unscaled: ub.clone(),
                scale: sb,
            };
            let (_, ma, ea) = da.parts();
            let (_, mb, eb) = db.parts();
            if cmp_scaled(1, &ma, ea, 1, &mb, eb) == Ordering::Less {
                db
            } else {
                da
            }
        }
    }
}

impl fmt::Display for Quantity {
    /// The canonical form (`1500m`, `1Gi`, `2e3`), or the parsed string when Go keeps it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.canonical())
    }
}

impl std::str::FromStr for Quantity {
    type Err = String;
    fn from_str(s: &str) -> Result<Quantity, String> {
        Quantity::parse(s)
    }
}

impl PartialEq for Quantity {
    fn eq(&self, o: &Quantity) -> bool {
        self.repr.cmp(&o.repr) == Ordering::Equal
    }
}

impl Eq for Quantity {}

impl PartialOrd for Quantity {
    fn partial_cmp(&self, o: &Quantity) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for Quantity {
    fn cmp(&self, o: &Quantity) -> Ordering {
        self.repr.cmp(&o.repr)
    }
}

/// `isQuantity(s)`: whether [`Quantity::parse`] succeeds.
pub fn is_quantity(s: &str) -> bool {
    Quantity::parse(s).is_ok()
}

#[cfg(test)]
mod tests {
    use super::QuantityFormat::*;
    use super::*;

    fn q(s: &str) -> Quantity {
        Quantity::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    /// Go test helper `decQuantity(i, exponent, format)`: an inf.Dec `i × 10^exponent`.
    fn dec_q(i: i64, exponent: i32, format: QuantityFormat) -> Quantity {
        Quantity {
            repr: Repr::Dec {
                unscaled: BigInt::from_i64(i),
                scale: -exponent,
            },
            format,
            s: None,
        }
    }

    /// Go test helper `intQuantity(i, exponent, format)`: an int64Amount.
    fn int_q(value: i64, scale: i32, format: QuantityFormat) -> Quantity {
        Quantity {
            repr: Repr::Int { value, scale },
            format,
            s: None,
        }
    }

    #[test]
    fn parse_table() {
        // apimachinery quantity_test.go TestQuantityParse
        let table: Vec<(&str, Quantity)> = vec![
            ("0", dec_q(0, 0, DecimalSI)),
            ("0n", dec_q(0, 0, DecimalSI)),
            ("0u", dec_q(0, 0, DecimalSI)),
            ("0m", dec_q(0, 0, DecimalSI)),
            ("0Ki", dec_q(0, 0, BinarySI)),
            ("0k", dec_q(0, 0, DecimalSI)),
            ("0Mi", dec_q(0, 0, BinarySI)),
            ("0M", dec_q(0, 0, DecimalSI)),
            ("0Gi", dec_q(0, 0, BinarySI)),
            ("0G", dec_q(0, 0, DecimalSI)),
            ("0Ti", dec_q(0, 0, BinarySI)),
            ("0T", dec_q(0, 0, DecimalSI)),
            ("1", dec_q(1, 0, DecimalSI)),
            ("1Ki", dec_q(1024, 0, BinarySI)),
            ("8Ki", dec_q(8 * 1024, 0, BinarySI)),
            ("7Mi", dec_q(7 * 1024 * 1024, 0, BinarySI)),
            ("6Gi", dec_q(6 << 30, 0, BinarySI)),
            ("5Ti", dec_q(5 << 40, 0, BinarySI)),
            ("4Pi", dec_q(4 << 50, 0, BinarySI)),
            ("3Ei", dec_q(3 << 60, 0, BinarySI)),
            ("10Ti", dec_q(10 << 40, 0, BinarySI)),
            ("100Ti", dec_q(100 << 40, 0, BinarySI)),
            ("5n", dec_q(5, -9, DecimalSI)),
            ("4u", dec_q(4, -6, DecimalSI)),
            ("3m", dec_q(3, -3, DecimalSI)),
            ("9", dec_q(9, 0, DecimalSI)),
            ("8k", dec_q(8, 3, DecimalSI)),
            ("50k", dec_q(5, 4, DecimalSI)),
            ("7M", dec_q(7, 6, DecimalSI)),
            ("6G", dec_q(6, 9, DecimalSI)),
            ("5T", dec_q(5, 12, DecimalSI)),
            ("40T", dec_q(4, 13, DecimalSI)),
            ("300T", dec_q(3, 14, DecimalSI)),
            ("2P", dec_q(2, 15, DecimalSI)),
            ("1E", dec_q(1, 18, DecimalSI)),
            ("1E-3", dec_q(1, -3, DecimalExponent)),
            ("1e3", dec_q(1, 3, DecimalExponent)),
            ("1E6", dec_q(1, 6, DecimalExponent)),
            ("1e9", dec_q(1, 9, DecimalExponent)),
            ("1E12", dec_q(1, 12, DecimalExponent)),
            ("1e15", dec_q(1, 15, DecimalExponent)),
            ("1E18", dec_q(1, 18, DecimalExponent)),
            ("1e14", dec_q(1, 14, DecimalExponent)),
            ("1e13", dec_q(1, 13, DecimalExponent)),
            ("100.035k", dec_q(100035, 0, DecimalSI)),
            ("0.001", dec_q(1, -3, DecimalSI)),
            ("0.0005k", dec_q(5, -1, DecimalSI)),
            ("0.005", dec_q(5, -3, DecimalSI)),
            ("0.05", dec_q(5, -2, DecimalSI)),
            ("0.5", dec_q(5, -1, DecimalSI)),
            ("0.00050k", dec_q(5, -1, DecimalSI)),
            ("0.00500", dec_q(5, -3, DecimalSI)),
            ("0.05000", dec_q(5, -2, DecimalSI)),
            ("0.50000", dec_q(5, -1, DecimalSI)),
            ("0.5e0", dec_q(5, -1, DecimalExponent)),
            ("0.5e-1", dec_q(5, -2, DecimalExponent)),
            ("0.5e-2", dec_q(5, -3, DecimalExponent)),
            ("10.035M", dec_q(10035, 3, DecimalSI)),
            ("1.2e3", dec_q(12, 2, DecimalExponent)),
            ("1.3E+6", dec_q(13, 5, DecimalExponent)),
            ("1.40e9", dec_q(14, 8, DecimalExponent)),
            ("1.53E12", dec_q(153, 10, DecimalExponent)),
            ("1.6e15", dec_q(16, 14, DecimalExponent)),
            ("1.7E18", dec_q(17, 17, DecimalExponent)),
            ("9.01", dec_q(901, -2, DecimalSI)),
            ("8.1k", dec_q(81, 2, DecimalSI)),
            ("7.123456M", dec_q(7123456, 0, DecimalSI)),
            ("6.987654321G", dec_q(6987654321, 0, DecimalSI)),
            ("5.444T", dec_q(5444, 9, DecimalSI)),
            ("40.1T", dec_q(401, 11, DecimalSI)),
            ("300.2T", dec_q(3002, 11, DecimalSI)),
            ("2.5P", dec_q(25, 14, DecimalSI)),
            ("1.01E", dec_q(101, 16, DecimalSI)),
            ("3.001n", dec_q(4, -9, DecimalSI)),
            ("1.1E-9", dec_q(2, -9, DecimalExponent)),
            ("0.0000000001", dec_q(1, -9, DecimalSI)),
            ("0.0000000005", dec_q(1, -9, DecimalSI)),
            ("0.00000000050", dec_q(1, -9, DecimalSI)),
            ("0.5e-9", dec_q(1, -9, DecimalExponent)),
            ("0.9n", dec_q(1, -9, DecimalSI)),
            ("0.00000012345", dec_q(124, -9, DecimalSI)),
            ("0.00000012354", dec_q(124, -9, DecimalSI)),
            ("9Ei", dec_q(i64::MAX, 0, BinarySI)),
            ("9223372036854775807Ki", dec_q(i64::MAX, 0, BinarySI)),
            ("12E", dec_q(12, 18, DecimalSI)),
            ("100.035Ki", dec_q(10243584, -2, BinarySI)),
            ("0.5Mi", dec_q(512 * 1024, 0, BinarySI)),
            ("0.05Gi", dec_q(536870912, -1, BinarySI)),
            ("0.025Ti", dec_q(274877906944, -1, BinarySI)),
            ("0.000000000001Ki", dec_q(2, -9, DecimalSI)),
            (".001", dec_q(1, -3, DecimalSI)),
            (".0001k", dec_q(100, -3, DecimalSI)),
            ("1.", dec_q(1, 0, DecimalSI)),
            ("1.G", dec_q(1, 9, DecimalSI)),
        ];
        for (input, want) in &table {
            for (prefix, negate) in [("", false), ("-", true), ("+", false)] {
                let s = format!("{prefix}{input}");
                let got = q(&s);
                let want = if negate { want.neg() } else { want.clone() };
                assert_eq!(got.compare_to(&want), 0, "{s}: got {got}, want {want}");
                assert_eq!(got.format(), want.format(), "{s}");
            }
        }
        for bad in [
            "1.1.M", "1+1.0M", "0.1mi", "0.1am", "aoeu", ".5i", "1i", "-3.01i", "-3.01e-", " 1", "1 ", "",
        ] {
            assert!(Quantity::parse(bad).is_err(), "{bad:?} parsed");
            assert!(!is_quantity(bad));
        }
        assert_eq!(Quantity::parse("10Mo").unwrap_err(), ERR_FORMAT_WRONG);
        assert_eq!(Quantity::parse("10Mm").unwrap_err(), ERR_SUFFIX);
        assert_eq!(Quantity::parse("").unwrap_err(), ERR_FORMAT_WRONG);
        assert_eq!(Quantity::parse("1e").unwrap_err(), ERR_SUFFIX);
        assert_eq!(Quantity::parse("1e99999999999999999999").unwrap_err(), ERR_SUFFIX);
        assert_eq!(
            Quantity::parse("12345678901234567890.").unwrap().to_string(),
            "12345678901234567890"
        );
        // "." and "-." are zero in Go (the fast path reads the empty digits as 0)
        assert!(is_quantity(".") && q(".").is_zero() && q("-.").is_zero());
    }

    #[test]
    fn string_table() {
        // TestQuantityString
        let table = [
            (dec_q(1024 * 1024 * 1024, 0, BinarySI), "1Gi", "1024Mi"),
            (dec_q(300 * 1024 * 1024, 0, BinarySI), "300Mi", "307200Ki"),
            (dec_q(6 * 1024, 0, BinarySI), "6Ki", ""),
            (dec_q(1001 * 1024 * 1024 * 1024, 0, BinarySI), "1001Gi", "1025024Mi"),
            (dec_q(1024 * 1024 * 1024 * 1024, 0, BinarySI), "1Ti", "1024Gi"),
            (dec_q(5, 0, BinarySI), "5", "5000m"),
            (dec_q(500, -3, BinarySI), "500m", "0.5"),
            (dec_q(1, 9, DecimalSI), "1G", "1000M"),
            (dec_q(1000, 6, DecimalSI), "1G", "0.001T"),
            (dec_q(1000000, 3, DecimalSI), "1G", ""),
            (dec_q(1000000000, 0, DecimalSI), "1G", ""),
            (dec_q(1, -3, DecimalSI), "1m", "1000u"),
            (dec_q(80, -3, DecimalSI), "80m", ""),
            (dec_q(1080, -3, DecimalSI), "1080m", "1.08"),
            (dec_q(108, -2, DecimalSI), "1080m", "1080000000n"),
            (dec_q(10800, -4, DecimalSI), "1080m", ""),
            (dec_q(300, 6, DecimalSI), "300M", ""),
            (dec_q(1, 12, DecimalSI), "1T", ""),
            (dec_q(1234567, 6, DecimalSI), "1234567M", ""),
            (dec_q(1234567, -3, BinarySI), "1234567m", ""),
            (dec_q(3, 3, DecimalSI), "3k", ""),
            (dec_q(1025, 0, BinarySI), "1025", ""),
            (dec_q(0, 0, DecimalSI), "0", ""),
            (dec_q(0, 0, BinarySI), "0", ""),
            (dec_q(1, 9, DecimalExponent), "1e9", ".001e12"),
            (dec_q(1, -3, DecimalExponent), "1e-3", "0.001e0"),
            (dec_q(1, -9, DecimalExponent), "1e-9", "1000e-12"),
            (dec_q(80, -3, DecimalExponent), "80e-3", ""),
            (dec_q(300, 6, DecimalExponent), "300e6", ""),
            (dec_q(1, 12, DecimalExponent), "1e12", ""),
            (dec_q(1, 3, DecimalExponent), "1e3", ""),
            (dec_q(3, 3, DecimalExponent), "3e3", ""),
            (dec_q(3, 3, DecimalSI), "3k", ""),
            (dec_q(0, 0, DecimalExponent), "0", "00"),
            (dec_q(1, -9, DecimalSI), "1n", ""),
            (dec_q(80, -9, DecimalSI), "80n", ""),
            (dec_q(1080, -9, DecimalSI), "1080n", ""),
            (dec_q(108, -8, DecimalSI), "1080n", ""),
            (dec_q(10800, -10, DecimalSI), "1080n", ""),
            (dec_q(1, -6, DecimalSI), "1u", ""),
            (dec_q(80, -6, DecimalSI), "80u", ""),
            (dec_q(1080, -6, DecimalSI), "1080u", ""),
        ];
        for (value, expect, alternate) in &table {
            assert_eq!(value.to_string(), *expect, "{value:?}");
            let parsed = q(expect);
            assert_eq!(parsed.s.as_deref(), Some(*expect), "kept string of {expect}");
            if !alternate.is_empty() {
                let alt = q(alternate);
                assert!(alt.s.is_none(), "{alternate} should not be kept");
                assert_eq!(alt.to_string(), *expect, "{alternate}");
            }
            if !value.is_zero() {
                assert_eq!(value.neg().to_string(), format!("-{expect}"));
            }
        }
        // TestQuantityParseEmit
        for (input, expect) in [
            ("1Ki", "1Ki"),
            ("1Mi", "1Mi"),
            ("1Gi", "1Gi"),
            ("1024Mi", "1Gi"),
            ("1000M", "1G"),
            (".001Ki", "1024m"),
            (".000001Ki", "1024u"),
            (".000000001Ki", "1024n"),
            (".000000000001Ki", "2n"),
        ] {
            assert_eq!(q(input).to_string(), expect, "{input}");
            assert_eq!(q(&format!("-{input}")).to_string(), format!("-{expect}"));
        }
        // TestQuantityNeg
        assert_eq!(int_q(901, -2, DecimalSI).neg().to_string(), "-9010m");
        assert_eq!(dec_q(901, -2, DecimalSI).neg().to_string(), "-9010m");
        // Go keeps a canonical input verbatim, sign included.
        assert_eq!(q("+1k").to_string(), "+1k");
        assert_eq!(q("1500m").to_string(), "1500m");
        assert_eq!(q("1.5").to_string(), "1500m");
        assert_eq!(q("1000m").to_string(), "1");
        assert_eq!(q("1000E").to_string(), "1"); // Go has no suffix for 10^21
        assert_eq!(q("1e21").to_string(), "1e21");
        assert_eq!(q("-0").to_string(), "0");
        assert_eq!(q("1.5Ki").to_string(), "1536");
        assert_eq!(q("9Ei").to_string(), "9223372036854775807");
        assert_eq!(q("8Ei").to_string(), "9223372036854775807"); // 2^63 is capped too
        assert_eq!(q("7Ei").to_string(), "7Ei");
        // TestQuantityCanocicalizeZero
        assert_eq!(q("1000m").sub(&q("1")).to_string(), "0");
    }

    #[test]
    fn parse_quantity_int64_and_canonical() {
        // TestParseQuantity: (input, AsInt64, canonical when it differs)
        let table: [(&str, Option<i64>, &str); 24] = [
            ("-999999999999999999", Some(-999999999999999999), ""),
            ("999999999999999999", Some(999999999999999999), ""),
            ("-999999999999999999.0", None, "-999999999999999999"),
            ("999999999999999999.1", None, "999999999999999999100m"),
            ("-9999999999999999999", None, ""),
            ("9999999999999999999", None, ""),
            ("-1E", Some(-1000000000000000000), ""),
            ("1E", Some(1000000000000000000), ""),
            ("1000000000000000000", None, "1E"),
            ("-9999999999999999999.0", None, "-9999999999999999999"),
            ("-1.0E", Some(-1000000000000000000), "-1E"),
            ("1000000000000000000.0", None, "1E"),
            ("9999999999999999999000m", None, "9999999999999999999"),
            ("9999999999999999999.1", None, "9999999999999999999100m"),
            ("1.0000000000000000001E", None, "1000000000000000000100m"),
            ("1.000000000000000001E", None, "1000000000000000001"),
            ("10E", None, ""),
            ("-10000000000000000000", None, "-10E"),
            ("10000000000000000000000m", None, "10E"),
            ("-10.0000000000000000001E", None, "-10000000000000000000100m"),
            ("9223372036854775807", None, ""),
            ("-9223372036854775808.1", None, "-9223372036854775808100m"),
            ("9223372036854775808000m", None, "9223372036854775808"),
            ("-9223372036854775807.1", None, "-9223372036854775807100m"),
        ];
        for (input, as_int, canonical) in table {
            let got = q(input);
            assert_eq!(got.as_i64(), as_int, "{input}");
            let want = if canonical.is_empty() { input } else { canonical };
            assert_eq!(got.to_string(), want, "{input}");
        }
    }

    #[test]
    fn compare() {
        for (x, y, want) in [
            ("0", "0", 0),
            ("100m", "50m", 1),
            ("50m", "100m", -1),
            ("10000T", "100Gi", 1),
        ] {
            assert_eq!(q(x).compare_to(&q(y)), want, "{x} {y}");
        }
        // TestQuantityCmpInt64AndDec, in every int/dec combination
        let mp = i64::MAX;
        let mn = i64::MIN;
        let table = [
            ((901, -2), (901, -2), 0),
            ((90, -1), (901, -2), -1),
            ((901, -2), (900, -2), 1),
            ((0, 0), (0, 0), 0),
            ((0, 1), (0, -1), 0),
            ((0, -1), (0, 1), 0),
            ((800, -3), (1, 0), -1),
            ((800, -3), (79, -2), 1),
            ((mp, 0), (1, -1), 1),
            ((mp, 1), (1, 0), 1),
            ((mp, 1), (1, 1), 1),
            ((mp, 1), (0, 1), 1),
            ((mp, -16), (1, 3), -1),
            ((mn, 0), (0, 0), -1),
            ((mn, -18), (-1, 0), -1),
            ((mn, -19), (-1, 0), 1),
            ((1_000_000_000_000_000_000, -17), (1, 1), 0),
            ((1_000_000_000_000_000_000, -17), (-10, 0), 1),
            ((-1_000_000_000_000_000_000, -17), (-10, 0), 0),
            ((1_000_000_000_000_000_000, -17), (1, 0), 1),
            ((1_000_000_000_000_000_001, -17), (1, 1), 1),
            ((999_999_999_999_999_999, -17), (1, 1), -1),
        ];
        for ((av, asc), (bv, bsc), want) in table {
            let forms = |v: i64, s: i32| [int_q(v, s, DecimalSI), dec_q(v, s, DecimalSI)];
            for a in forms(av, asc) {
                for b in forms(bv, bsc) {
                    assert_eq!(a.compare_to(&b), want, "{a:?} {b:?}");
                    assert_eq!(b.compare_to(&a), -want, "{b:?} {a:?}");
                }
            }
        }
        // CEL quantity_test.go
        assert_eq!(q("200M"), q("200M"));
        assert!(q("200M") == q("0.2G") && q("0.2G") == q("200M"));
        assert!(q("2M") == q("0.002G") && q("2000k") == q("2M"));
        assert!(q("200M") != q("0.3G"));
        assert!(q("50M").is_less_than(&q("50Mi")));
        assert!(q("50M").is_less_than(&q("100M")));
        assert!(!q("100M").is_less_than(&q("50M")));
        assert!(q("50Mi").is_greater_than(&q("50M")));
        assert!(q("150Mi").is_greater_than(&q("100Mi")));
        assert!(!q("50M").is_greater_than(&q("100M")));
        assert_eq!(q("200M").compare_to(&q("0.2G")), 0);
        assert_eq!(q("50M").compare_to(&q("50Mi")), -1);
        assert_eq!(q("50Mi").compare_to(&q("50M")), 1);
        assert!(q("1e2000000000") > q("9Ei"));
        assert!(q("-1e2000000000") < q("1n"));
        assert!(q("1n") > q("0.0000000001e-100"[..10].trim_end_matches('e')));
    }

    #[test]
    fn arithmetic() {
        // TestAdd / TestSub
        let zero = Quantity {
            repr: Repr::Int { value: 0, scale: 0 },
            format: DecimalSI,
            s: None,
        };
        for (a, b, want) in [
            (dec_q(10, 0, DecimalSI), dec_q(1, 1, DecimalSI), dec_q(20, 0, DecimalSI)),
            (dec_q(10, 0, DecimalSI), dec_q(1, 0, BinarySI), dec_q(11, 0, DecimalSI)),
            (dec_q(10, 0, BinarySI), dec_q(1, 0, DecimalSI), dec_q(11, 0, BinarySI)),
            (zero.clone(), dec_q(50, 0, DecimalSI), dec_q(50, 0, DecimalSI)),
            (dec_q(50, 0, DecimalSI), zero.clone(), dec_q(50, 0, DecimalSI)),
            (zero.clone(), zero.clone(), dec_q(0, 0, DecimalSI)),
        ] {
            assert_eq!(a.add(&b), want);
        }
        for (a, b, want) in [
            (dec_q(10, 0, DecimalSI), dec_q(1, 1, DecimalSI), dec_q(0, 0, DecimalSI)),
            (dec_q(10, 0, DecimalSI), dec_q(1, 0, BinarySI), dec_q(9, 0, DecimalSI)),
            (dec_q(10, 0, BinarySI), dec_q(1, 0, DecimalSI), dec_q(9, 0, BinarySI)),
            (zero.clone(), dec_q(50, 0, DecimalSI), dec_q(-50, 0, DecimalSI)),
            (dec_q(50, 0, DecimalSI), zero.clone(), dec_q(50, 0, DecimalSI)),
            (zero.clone(), zero.clone(), dec_q(0, 0, DecimalSI)),
        ] {
            assert_eq!(a.sub(&b), want);
        }
        // TestQuantityAddZeroPreservesSuffix / SubZero
        for v in ["100m", "1Gi"] {
            assert_eq!(q(v).add(&q("0")).to_string(), v);
            assert_eq!(q("0").add(&q(v)).to_string(), v);
            assert_eq!(q(v).sub(&q("0")).to_string(), v);
            assert_eq!(q("0").sub(&q(v)).to_string(), q(v).neg().to_string());
        }
        // CEL quantity_test.go
        assert!(q("50k").add(&q("20")) == q("50.02k"));
        assert!(!q("50k").add_int(20).is_less_than(&q("50020")));
        assert!(q("50k").sub(&q("20")) == q("49.98k"));
        assert!(q("50k").sub_int(20) == q("49980"));
        assert_eq!(q("50k").add_int(20).sub(&q("100k")).as_integer(), Ok(-49980));
        assert_eq!(
            q("50k").add_int(20).sub(&q("100k")).sub_int(-50000).as_integer(),
            Ok(20)
        );
        let big = q("9999999999999999999999999999999999999");
        assert_eq!(big.add(&q("1")).compare_to(&big.add(&q("2"))), -1);
        assert_eq!(big.to_string(), "9999999999999999999999999999999999999");
        // Go's int64 quirks, checked against Go
        assert_eq!(
            q("1Ki").add_int(-9223372036854775807).add_int(-1025).to_string(),
            "-9223372036854775808"
        );
        assert_eq!(q("8Ei").add(&q("8Ei")).to_string(), "18446744073709551614");
        assert_eq!(q("4Ei").add(&q("4Ei")).to_string(), "8Ei");
        assert_eq!(q("1e2147483647").add(&q("1n")).to_string(), "2e-9"); // int32 wrap, as Go
        // beyond MAX_DIGITS the larger operand wins
        assert_eq!(q("1e2000000000").to_string(), "100e1999999998");
        assert_eq!(q("1e2000000000").add(&q("1.5")).to_string(), "100e1999999998");
        let d = q("1n").sub(&q("1e2000000000"));
        assert_eq!(d.compare_to(&q("-1e2000000000")), 0);
        // DecimalSI has no suffix past E: Go prints the digits alone
        assert_eq!(d.to_string(), "-100");
    }

    #[test]
    fn integers_and_floats() {
        assert_eq!(q("50k").as_integer(), Ok(50000));
        assert_eq!(
            q("9999999999999999999999999999999999999G").as_integer(),
            Err(ERR_NOT_INTEGER.to_string())
        );
        assert!(!q("9999999999999999999999999999999999999G").is_integer());
        assert!(q("50").is_integer());
        assert!(!q("1000m").is_integer()); // as in Go: int64Amount{1000, -3}
        assert!(!q("1.5Ki").is_integer()); // held as inf.Dec
        assert!(q("1Ki").is_integer());
        assert!(q("0e400").is_integer());
        assert!(!q("1e19").is_integer());
        assert_eq!(q("50.703k").as_approximate_float(), 50703.0);
        assert_eq!(q("2Ki").as_approximate_float(), 2048.0);
        assert_eq!(q("1.1Ki").as_approximate_float(), 1126.4);
        assert_eq!(q("1Mi").as_approximate_float(), 1.048576e+06);
        assert_eq!(q("2Gi").as_approximate_float(), 2.147483648e+09);
        assert!(q("0e400").as_approximate_float().is_nan()); // 0 × +Inf, as in Go
        assert_eq!(q("12e500").as_approximate_float(), f64::INFINITY);
        assert_eq!(q("-12e500").as_approximate_float(), f64::NEG_INFINITY);
        // TestQuantityAsApproximateFloat64
        let m7 = 7 * 1024 * 1024;
        for format in [DecimalSI, BinarySI, DecimalExponent] {
            for (value, want) in [
                (dec_q(0, 0, format), 0.0),
                (dec_q(1, 0, format), 1.0),
                (dec_q(1024, 0, format), 1024.0),
                (dec_q(m7, 1, format), (m7 * 10) as f64),
                (dec_q(m7, 4, format), (m7 * 10000) as f64),
                (dec_q(m7, 8, format), (m7 * 100000000) as f64),
                (dec_q(m7, -1, format), m7 as f64 * go_pow10(-1)),
                (dec_q(m7, -8, format), m7 as f64 / 100000000.0),
                (dec_q(i64::MAX, 0, format), i64::MAX as f64),
                (dec_q(12, 18, format), 1.2e19),
                (dec_q(12, 500, format), f64::INFINITY),
                (dec_q(-12, 500, format), f64::NEG_INFINITY),
            ] {
                assert_eq!(value.as_approximate_float().to_bits(), want.to_bits(), "{value:?}");
            }
        }
        assert_eq!(go_pow10(-1), 0.1);
        assert_eq!(go_pow10(308), 1e308);
        assert_eq!(go_pow10(309), f64::INFINITY);
        assert_eq!(go_pow10(-323), 1e-323);
        assert_eq!(go_pow10(-324), 0.0);
        assert_eq!(q("1.5").sign(), 1);
        assert_eq!(q("-1.5Ki").sign(), -1);
        assert_eq!(q("0Ki").sign(), 0);
    }

    #[test]
    fn odd_inputs_do_not_panic() {
        let long = "9".repeat(MAX_DIGITS + 1);
        let inputs = [
            "",
            "+",
            "-",
            ".",
            "-.",
            "e",
            "1e",
            "1e+",
            "Ki",
            "1Ki3",
            "é",
            "1é",
            "\u{0}",
            "1e2147483647",
            "1e-2147483648",
            "1e-2147483649",
            "-1e4294967295",
            "1234567890123456789e2147483647",
            "1234567890123456789e200000",
            "0.5Ei",
            "99999999999999999999Ei",
            &long,
        ];
        let mut parsed = Vec::new();
        for s in inputs {
            if let Ok(v) = Quantity::parse(s) {
                parsed.push(v);
            }
        }
        assert_eq!(
            Quantity::parse("1234567890123456789e200000").unwrap_err(),
            ERR_TOO_LARGE
        );
        for a in &parsed {
            let _ = a.to_string();
            let _ = a.as_approximate_float();
            let _ = a.as_integer();
            for b in &parsed {
                let _ = a.add(b).to_string();
                let _ = a.sub(b).to_string();
                let _ = a.compare_to(b);
            }
            let _ = a.add_int(i64::MIN).sub_int(i64::MIN).to_string();
        }
    }
}
