//! The Kubernetes CEL IP and CIDR libraries (`net.IP`, `net.CIDR`).
//!
//! Mirrors `k8s.io/apiserver/pkg/cel/library/ip.go` and `cidr.go` (and the value
//! types in `pkg/cel/ip.go`, `pkg/cel/cidr.go`), which are thin wrappers over Go's
//! `net/netip`. Parsing, formatting, the address classifications and prefix
//! containment follow `netip` exactly, error texts included.
//!
//! Kubernetes rejects what `netip` accepts in two places: `ip()` refuses addresses
//! with an IPv6 zone (`fe80::1%eth0`) and IPv4-mapped IPv6 addresses
//! (`::ffff:1.2.3.4`); `cidr()` refuses IPv4-mapped IPv6 prefixes (`netip` itself
//! refuses zones in prefixes). So an [`Ip`] or a [`Cidr`] built by this module never
//! holds a zone nor an IPv4-mapped address.
//!
//! Equality is the CEL types' equality, which is Go's `==` on `netip.Addr` /
//! `netip.Prefix`: the address family, the 128 (or 32) bits and, for a prefix, the
//! prefix length must match. A prefix is not masked first, so
//! `cidr('10.0.0.1/8') != cidr('10.0.0.0/8')`.

use std::fmt;

use crate::strings::{go_quote, go_quote_bytes};

/// An IP address, the value of CEL type `net.IP` (Go `netip.Addr` without a zone).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ip {
    /// The address bits; an IPv4 address uses the low 32 bits.
    bits: u128,
    is4: bool,
}

/// A network prefix, the value of CEL type `net.CIDR` (Go `netip.Prefix`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cidr {
    ip: Ip,
    bits: u8,
}

/// Result of Go's `netip.ParseAddr`: the address and its zone (possibly empty).
struct ParsedAddr {
    ip: Ip,
    zone: Vec<u8>,
}

/// `netip.parseAddrError`: `ParseAddr("in"): msg (at "at")`.
fn addr_error(input: &[u8], msg: &str, at: &[u8]) -> String {
    if at.is_empty() {
        format!("ParseAddr({}): {}", go_quote_bytes(input), msg)
    } else {
        format!(
            "ParseAddr({}): {} (at {})",
            go_quote_bytes(input),
            msg,
            go_quote_bytes(at)
        )
    }
}

/// Go `netip.ParseAddr`.
fn parse_addr(s: &[u8]) -> Result<ParsedAddr, String> {
    for &c in s {
        match c {
            b'.' => {
                let f = parse_ipv4_fields(s, s)?;
                return Ok(ParsedAddr {
                    ip: Ip::from_v4(f),
                    zone: Vec::new(),
                });
            }
            b':' => return parse_ipv6(s),
            b'%' => return Err(addr_error(s, "missing IPv6 address", b"")),
            _ => {}
        }
    }
    Err(addr_error(s, "unable to parse IP", b""))
}

/// Go (1.22+) `net.ParseIP`: `netip.ParseAddr` without a zone, in the 16-byte form
/// (IPv4 as `::ffff:a.b.c.d`).
pub(crate) fn go_parse_ip(s: &[u8]) -> Option<[u8; 16]> {
    let p = parse_addr(s).ok().filter(|p| p.zone.is_empty())?;
    let bits = if p.ip.is4 {
        p.ip.bits | (0xffff << 32)
    } else {
        p.ip.bits
    };
    Some(bits.to_be_bytes())
}

/// Go `netip.ParseAddr` for `net/url`: whether the address is IPv4, or the error.
pub(crate) fn go_parse_addr_is4(s: &[u8]) -> Result<bool, String> {
    parse_addr(s).map(|p| p.ip.is4)
}

/// Go `netip.parseIPv4Fields` over `part` (a piece of the input `input`).
fn parse_ipv4_fields(input: &[u8], part: &[u8]) -> Result<[u8; 4], String> {
    let mut fields = [0u8; 4];
    let mut val: u32 = 0;
    let mut pos = 0usize;
    let mut dig_len = 0;
    for (i, &c) in part.iter().enumerate() {
        if c.is_ascii_digit() {
            if dig_len == 1 && val == 0 {
                return Err(addr_error(input, "IPv4 field has octet with leading zero", b""));
            }
            val = val * 10 + u32::from(c - b'0');
            dig_len += 1;
            if val > 255 {
                return Err(addr_error(input, "IPv4 field has value >255", b""));
            }
        } else if c == b'.' {
            if i == 0 || i == part.len() - 1 || part[i - 1] == b'.' {
                return Err(addr_error(input, "IPv4 field must have at least one digit", &part[i..]));
            }
            if pos == 3 {
                return Err(addr_error(input, "IPv4 address too long", b""));
            }
            fields[pos] = val as u8;
            pos += 1;
            val = 0;
            dig_len = 0;
        } else {
            return Err(addr_error(input, "unexpected character", &part[i..]));
        }
    }
    if pos < 3 {
        return Err(addr_error(input, "IPv4 address too short", b""));
    }
    fields[3] = val as u8;
    Ok(fields)
}

/// Go `netip.parseIPv6`.
fn parse_ipv6(input: &[u8]) -> Result<ParsedAddr, String> {
    let bytes = input;
    let (mut s, zone): (&[u8], &[u8]) = match input.iter().position(|&c| c == b'%') {
        Some(i) => {
            let zone = &input[i + 1..];
            if zone.is_empty() {
                return Err(addr_error(input, "zone must be a non-empty string", b""));
            }
            (&bytes[..i], zone)
        }
        None => (bytes, b""),
    };
    let fail = |msg: &str, at: &[u8]| addr_error(input, msg, at);

    let mut ip = [0u8; 16];
    let mut ellipsis: Option<usize> = None;
    if s.len() >= 2 && s[0] == b':' && s[1] == b':' {
        ellipsis = Some(0);
        s = &s[2..];
        if s.is_empty() {
            return Ok(ParsedAddr {
                ip: Ip::from_v6(0),
                zone: zone.to_vec(),
            });
        }
    }
    let mut i = 0usize;
    while i < 16 {
        let mut off = 0;
        let mut acc: u32 = 0;
        while off < s.len() {
            let c = s[off];
            let d = match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' => c - b'a' + 10,
                b'A'..=b'F' => c - b'A' + 10,
                _ => break,
            };
            acc = (acc << 4) + u32::from(d);
            if off > 3 {
                return Err(fail("each group must have 4 or less digits", s));
            }
            if acc > 0xffff {
                return Err(fail("IPv6 field has value >=2^16", s));
            }
            off += 1;
        }
        if off == 0 {
            return Err(fail("each colon-separated field must have at least one digit", s));
        }
        if off < s.len() && s[off] == b'.' {
            if ellipsis.is_none() && i != 12 {
                return Err(fail(
                    "embedded IPv4 address must replace the final 2 fields of the address",
                    s,
                ));
            }
            if i + 4 > 16 {
                return Err(fail(
                    "too many hex fields to fit an embedded IPv4 at the end of the address",
                    s,
                ));
            }
            let mut end = bytes.len();
            if !zone.is_empty() {
                end -= zone.len() + 1;
            }
            let f = parse_ipv4_fields(input, &bytes[end - s.len()..end])?;
            ip[i..i + 4].copy_from_slice(&f);
            s = &[];
            i += 4;
            break;
        }
        ip[i] = (acc >> 8) as u8;
        ip[i + 1] = acc as u8;
        i += 2;
        s = &s[off..];
        if s.is_empty() {
            break;
        }
        if s[0] != b':' {
            return Err(fail("unexpected character, want colon", s));
        } else if s.len() == 1 {
            return Err(fail("colon must be followed by more characters", s));
        }
        s = &s[1..];
        if s[0] == b':' {
            if ellipsis.is_some() {
                return Err(fail("multiple :: in address", s));
            }
            ellipsis = Some(i);
            s = &s[1..];
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return Err(fail("trailing garbage after address", s));
    }
    if i < 16 {
        let Some(e) = ellipsis else {
            return Err(addr_error(input, "address string too short", b""));
        };
        let n = 16 - i;
        for j in (e..i).rev() {
            ip[j + n] = ip[j];
        }
        for b in &mut ip[e..e + n] {
            *b = 0;
        }
    } else if ellipsis.is_some() {
        return Err(addr_error(
            input,
            "the :: must expand to at least one field of zeros",
            b"",
        ));
    }
    Ok(ParsedAddr {
        ip: Ip::from_v6(u128::from_be_bytes(ip)),
        zone: zone.to_vec(),
    })
}

/// A mask of the `bits` high bits of a 128-bit value.
fn mask128(bits: u32) -> u128 {
    if bits == 0 {
        0
    } else {
        u128::MAX << (128 - bits.min(128))
    }
}

impl Ip {
    fn from_v4(f: [u8; 4]) -> Ip {
        Ip {
            bits: u128::from(u32::from_be_bytes(f)),
            is4: true,
        }
    }

    fn from_v6(bits: u128) -> Ip {
        Ip { bits, is4: false }
    }

    /// The address in its IPv6 form (IPv4 as `::ffff:a.b.c.d`), as Go stores it.
    fn as16(&self) -> u128 {
        if self.is4 {
            0xffff_0000_0000 | self.bits
        } else {
            self.bits
        }
    }

    fn bit_len(&self) -> u32 {
        if self.is4 { 32 } else { 128 }
    }

    /// Go `Addr.Is4In6`.
    fn is_4in6(&self) -> bool {
        !self.is4 && self.bits >> 32 == 0xffff
    }

    /// Go `Addr.Unmap`.
    fn unmap(self) -> Ip {
        if self.is_4in6() {
            Ip {
                bits: self.bits & 0xffff_ffff,
                is4: true,
            }
        } else {
            self
        }
    }

    fn v4_octet(&self, i: u32) -> u8 {
        (self.bits >> ((3 - i) * 8)) as u8
    }

    fn v6_word(&self, i: u32) -> u16 {
        (self.as16() >> ((7 - i) * 16)) as u16
    }

    /// `<IP>.family()`: 4 or 6 (Go `Addr.Is4` / `Is6`).
    pub fn family(&self) -> i64 {
        if self.is4 { 4 } else { 6 }
    }

    /// `<IP>.isUnspecified()`: Go `Addr.IsUnspecified` (`0.0.0.0` or `::`).
    pub fn is_unspecified(&self) -> bool {
        self.bits == 0
    }

    /// `<IP>.isLoopback()`: Go `Addr.IsLoopback` (`127.0.0.0/8` or `::1`).
    pub fn is_loopback(&self) -> bool {
        let ip = self.unmap();
        if ip.is4 { ip.v4_octet(0) == 127 } else { ip.bits == 1 }
    }

    /// Go `Addr.IsMulticast` (`224.0.0.0/4` or `ff00::/8`).
    fn is_multicast(&self) -> bool {
        let ip = self.unmap();
        if ip.is4 {
            ip.v4_octet(0) & 0xf0 == 0xe0
        } else {
            ip.bits >> 120 == 0xff
        }
    }

    /// `<IP>.isLinkLocalMulticast()`: Go `Addr.IsLinkLocalMulticast`
    /// (`224.0.0.0/24` or `ff02::/16` with any flags nibble).
    pub fn is_link_local_multicast(&self) -> bool {
        let ip = self.unmap();
        if ip.is4 {
            ip.v4_octet(0) == 224 && ip.v4_octet(1) == 0 && ip.v4_octet(2) == 0
        } else {
            ip.v6_word(0) & 0xff0f == 0xff02
        }
    }

    /// `<IP>.isLinkLocalUnicast()`: Go `Addr.IsLinkLocalUnicast`
    /// (`169.254.0.0/16` or `fe80::/10`).
    pub fn is_link_local_unicast(&self) -> bool {
        let ip = self.unmap();
        if ip.is4 {
            ip.v4_octet(0) == 169 && ip.v4_octet(1) == 254
        } else {
            ip.v6_word(0) & 0xffc0 == 0xfe80
        }
    }

    /// `<IP>.isGlobalUnicast()`: Go `Addr.IsGlobalUnicast`: not unspecified, not
    /// IPv4 broadcast, not loopback, multicast nor link-local unicast (private and
    /// unique-local addresses count as global).
    pub fn is_global_unicast(&self) -> bool {
        let ip = self.unmap();
        if ip.is4 && (ip.bits == 0 || ip.bits == 0xffff_ffff) {
            return false;
        }
        (ip.is4 || ip.bits != 0) && !ip.is_loopback() && !ip.is_multicast() && !ip.is_link_local_unicast()
    }

    /// Go `Addr.Prefix(b)`: the address with all but the top `b` bits cleared.
    fn masked_to(&self, b: u8) -> Ip {
        let eff = if self.is4 { u32::from(b) + 96 } else { u32::from(b) };
        let bits = self.as16() & mask128(eff);
        if self.is4 {
            Ip {
                bits: bits & 0xffff_ffff,
                is4: true,
            }
        } else {
            Ip { bits, is4: false }
        }
    }
}

impl fmt::Display for Ip {
    /// Go `netip.Addr.String`: dotted decimal for IPv4; RFC 5952 for IPv6 (lower
    /// case, no leading zeros, the first longest run of two or more zero groups
    /// compressed to `::`); `::ffff:a.b.c.d` for IPv4-mapped IPv6.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is4 {
            return write!(
                f,
                "{}.{}.{}.{}",
                self.v4_octet(0),
                self.v4_octet(1),
                self.v4_octet(2),
                self.v4_octet(3)
            );
        }
        if self.is_4in6() {
            return write!(f, "::ffff:{}", self.unmap());
        }
        let (mut zero_start, mut zero_end) = (255u32, 255u32);
        for i in 0..8 {
            let mut j = i;
            while j < 8 && self.v6_word(j) == 0 {
                j += 1;
            }
            let l = j - i;
            if l >= 2 && l > zero_end.wrapping_sub(zero_start) {
                zero_start = i;
                zero_end = j;
            }
        }
        let mut i = 0;
        while i < 8 {
            if i == zero_start {
                f.write_str("::")?;
                i = zero_end;
                if i >= 8 {
                    break;
                }
            } else if i > 0 {
                f.write_str(":")?;
            }
            write!(f, "{:x}", self.v6_word(i))?;
            i += 1;
        }
        Ok(())
    }
}

impl Cidr {
    /// `<CIDR>.ip()`: the prefix's address as written, host bits kept
    /// (Go `Prefix.Addr`).
    pub fn ip(&self) -> Ip {
        self.ip
    }

    /// `<CIDR>.prefixLength()`: Go `Prefix.Bits`.
    pub fn prefix_length(&self) -> i64 {
        i64::from(self.bits)
    }

    /// `<CIDR>.masked()`: Go `Prefix.Masked`, the canonical form with host bits
    /// cleared.
    pub fn masked(&self) -> Cidr {
        Cidr {
            ip: self.ip.masked_to(self.bits),
            bits: self.bits,
        }
    }

    /// `<CIDR>.containsIP(<IP>)`: Go `Prefix.Contains`. An address of the other
    /// family is never contained.
    pub fn contains_ip(&self, ip: &Ip) -> bool {
        if self.ip.bit_len() != ip.bit_len() {
            return false;
        }
        let eff = if ip.is4 {
            u32::from(self.bits) + 96
        } else {
            u32::from(self.bits)
        };
        (ip.as16() ^ self.ip.as16()) & mask128(eff) == 0
    }

    /// `<CIDR>.containsIP(<string>)`: the string goes through `ip()` first. As in
    /// Kubernetes (`cidrContainsIPString`), an invalid address makes the call fail
    /// with `no such overload`, not with the parse error.
    pub fn contains_ip_str(&self, s: &str) -> Result<bool, String> {
        match ip(s) {
            Ok(a) => Ok(self.contains_ip(&a)),
            Err(_) => Err("no such overload".to_string()),
        }
    }

    /// `<CIDR>.containsCIDR(<CIDR>)`: `p.Overlaps(o) && p.Bits() <= o.Bits()`, as
    /// Kubernetes' `cidrContainsCIDR`.
    pub fn contains_cidr(&self, other: &Cidr) -> bool {
        self.overlaps(other) && self.bits <= other.bits
    }

    /// `<CIDR>.containsCIDR(<string>)`: the string goes through `cidr()` first; its
    /// error is the call's error.
    pub fn contains_cidr_str(&self, s: &str) -> Result<bool, String> {
        Ok(self.contains_cidr(&cidr(s)?))
    }

    /// Go `Prefix.Overlaps`.
    fn overlaps(&self, o: &Cidr) -> bool {
        if self == o {
            return true;
        }
        if self.ip.is4 != o.ip.is4 {
            return false;
        }
        let min = self.bits.min(o.bits);
        if min == 0 {
            return true;
        }
        self.ip.masked_to(min) == o.ip.masked_to(min)
    }
}

impl fmt::Display for Cidr {
    /// Go `netip.Prefix.String`: `<addr>/<bits>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.ip, self.bits)
    }
}

/// Kubernetes `parseIPAddr`: `netip.ParseAddr`, then no zone, no IPv4-mapped IPv6.
fn parse_ip_addr(s: &str) -> Result<Ip, String> {
    let parsed = parse_addr(s.as_bytes()).map_err(|e| {
        format!(
            "IP Address {} parse error during conversion from string: {}",
            go_quote(s),
            e
        )
    })?;
    if !parsed.zone.is_empty() {
        return Err(format!("IP address {} with zone value is not allowed", go_quote(s)));
    }
    if parsed.ip.is_4in6() {
        return Err(format!("IPv4-mapped IPv6 address {} is not allowed", go_quote(s)));
    }
    Ok(parsed.ip)
}

/// `ip(<string>) -> net.IP` (Kubernetes `stringToIP`).
///
/// Errors, as Kubernetes words them:
/// `IP Address "<s>" parse error during conversion from string: <netip error>`,
/// `IP address "<s>" with zone value is not allowed`,
/// `IPv4-mapped IPv6 address "<s>" is not allowed`.
pub fn ip(s: &str) -> Result<Ip, String> {
    parse_ip_addr(s)
}

/// `isIP(<string>) -> bool` (Kubernetes `isIP`): whether [`ip`] succeeds.
pub fn is_ip(s: &str) -> bool {
    parse_ip_addr(s).is_ok()
}

/// `ip.isCanonical(<string>) -> bool` (Kubernetes `ipIsCanonical`): whether the
/// string equals Go's formatting of the address. Errors like [`ip`].
pub fn ip_is_canonical(s: &str) -> Result<bool, String> {
    let a = parse_ip_addr(s)?;
    Ok(a.to_string() == s)
}

/// Go `netip.ParsePrefix`, with its error text
/// (`netip.ParsePrefix("<s>"): <reason>`).
fn parse_prefix(s: &str) -> Result<Cidr, String> {
    let perr = |msg: &str| format!("netip.ParsePrefix({}): {}", go_quote(s), msg);
    let Some(i) = s.rfind('/') else {
        return Err(perr("no '/'"));
    };
    let parsed = parse_addr(&s.as_bytes()[..i]).map_err(|e| perr(&e))?;
    if !parsed.ip.is4 && !parsed.zone.is_empty() {
        return Err(perr("IPv6 zones cannot be present in a prefix"));
    }
    let bits_str = &s[i + 1..];
    let bad = || perr(&format!("bad bits after slash: {}", go_quote(bits_str)));
    let b = bits_str.as_bytes();
    if b.len() > 1 && !(b'1'..=b'9').contains(&b[0]) {
        return Err(bad());
    }
    let bits = go_atoi(bits_str).ok_or_else(bad)?;
    let max = if parsed.ip.is4 { 32 } else { 128 };
    if bits < 0 || bits > max {
        return Err(perr("prefix length out of range"));
    }
    Ok(Cidr {
        ip: parsed.ip,
        bits: bits as u8,
    })
}

/// Go `strconv.Atoi` (optional sign, decimal digits, 64-bit range).
fn go_atoi(s: &str) -> Option<i64> {
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let v: i128 = digits.bytes().try_fold(0i128, |acc, c| {
        let n = acc * 10 + i128::from(c - b'0');
        (n <= i128::from(u64::MAX)).then_some(n)
    })?;
    let v = if neg { -v } else { v };
    i64::try_from(v).ok()
}

/// Kubernetes `parseCIDR`: `netip.ParsePrefix`, then no IPv4-mapped IPv6.
fn parse_cidr(s: &str) -> Result<Cidr, String> {
    let p = parse_prefix(s).map_err(|e| format!("network address parse error during conversion from string: {e}"))?;
    if p.ip.is_4in6() {
        return Err(format!("IPv4-mapped IPv6 address {} is not allowed", go_quote(s)));
    }
    Ok(p)
}

/// `cidr(<string>) -> net.CIDR` (Kubernetes `stringToCIDR`).
///
/// Host bits after the prefix are kept (use [`Cidr::masked`]). Kubernetes wraps
/// the parse error twice, so messages read
/// `network address parse error during conversion from string: network address
/// parse error during conversion from string: netip.ParsePrefix("<s>"): <reason>`,
/// and `network address parse error during conversion from string: IPv4-mapped
/// IPv6 address "<s>" is not allowed`.
pub fn cidr(s: &str) -> Result<Cidr, String> {
    parse_cidr(s).map_err(|e| format!("network address parse error during conversion from string: {e}"))
}

/// `isCIDR(<string>) -> bool` (Kubernetes `isCIDR`): whether [`cidr`] succeeds.
pub fn is_cidr(s: &str) -> bool {
    parse_cidr(s).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_addr_errors() {
        let err = |s: &str| parse_addr(s.as_bytes()).err().unwrap();
        assert_eq!(
            err("1.2.3.04"),
            r#"ParseAddr("1.2.3.04"): IPv4 field has octet with leading zero"#
        );
        assert_eq!(
            err("::ffff:1.2..4"),
            r#"ParseAddr("::ffff:1.2..4"): IPv4 field must have at least one digit (at ".4")"#
        );
        assert_eq!(
            err("12345::"),
            r#"ParseAddr("12345::"): each group must have 4 or less digits (at "12345::")"#
        );
        assert_eq!(err("abc"), r#"ParseAddr("abc"): unable to parse IP"#);
        assert_eq!(go_parse_ip(b"1.2.3.4").unwrap()[10..], [0xff, 0xff, 1, 2, 3, 4]);
        assert_eq!(go_parse_ip(b"fe80::1%eth0"), None);
    }
    use crate::strings::cel_spec::{self, V};

    fn dispatch(name: &str, target: Option<&V>, args: &[V]) -> Option<Result<V, String>> {
        use V::{Bool, Int, Str};
        Some(match (name, target, args) {
            ("ip", None, [Str(s)]) => ip(s).map(V::Ip),
            ("isIP", None, [Str(s)]) => Ok(Bool(is_ip(s))),
            ("ip.isCanonical", None, [Str(s)]) => ip_is_canonical(s).map(Bool),
            ("cidr", None, [Str(s)]) => cidr(s).map(V::Cidr),
            ("isCIDR", None, [Str(s)]) => Ok(Bool(is_cidr(s))),
            ("string", None, [V::Ip(a)]) => Ok(Str(a.to_string())),
            ("string", None, [V::Cidr(c)]) => Ok(Str(c.to_string())),
            ("family", Some(V::Ip(a)), []) => Ok(Int(a.family())),
            ("isUnspecified", Some(V::Ip(a)), []) => Ok(Bool(a.is_unspecified())),
            ("isLoopback", Some(V::Ip(a)), []) => Ok(Bool(a.is_loopback())),
            ("isLinkLocalMulticast", Some(V::Ip(a)), []) => Ok(Bool(a.is_link_local_multicast())),
            ("isLinkLocalUnicast", Some(V::Ip(a)), []) => Ok(Bool(a.is_link_local_unicast())),
            ("isGlobalUnicast", Some(V::Ip(a)), []) => Ok(Bool(a.is_global_unicast())),
            ("containsIP", Some(V::Cidr(c)), [V::Ip(a)]) => Ok(Bool(c.contains_ip(a))),
            ("containsIP", Some(V::Cidr(c)), [Str(s)]) => c.contains_ip_str(s).map(Bool),
            ("containsCIDR", Some(V::Cidr(c)), [V::Cidr(o)]) => Ok(Bool(c.contains_cidr(o))),
            ("containsCIDR", Some(V::Cidr(c)), [Str(s)]) => c.contains_cidr_str(s).map(Bool),
            ("ip", Some(V::Cidr(c)), []) => Ok(V::Ip(c.ip())),
            ("masked", Some(V::Cidr(c)), []) => Ok(V::Cidr(c.masked())),
            ("prefixLength", Some(V::Cidr(c)), []) => Ok(Int(c.prefix_length())),
            _ => return None,
        })
    }

    /// Kubernetes rejects IPv4-mapped IPv6 addresses in `ip()`; the cel-spec file
    /// (cel-go's own network library) accepts and unmaps them.
    const NETWORK_EXT_EXPECTED_FAILURES: &[&str] = &["ipv4/ipv4_equals_ipv6", "ipv4/ipv4_not_equals_ipv6"];

    #[test]
    fn cel_spec_network_ext() {
        let Some(rep) = cel_spec::run("network_ext.json", &[], dispatch) else {
            eprintln!("cel-spec files not found; skipped");
            return;
        };
        cel_spec::check("network_ext.json", &rep, NETWORK_EXT_EXPECTED_FAILURES);
    }

    fn s(a: Result<Ip, String>) -> String {
        match a {
            Ok(a) => a.to_string(),
            Err(e) => e,
        }
    }

    #[test]
    fn ip_parse_and_errors() {
        assert_eq!(s(ip("127.0.0.1")), "127.0.0.1");
        assert_eq!(s(ip("::1")), "::1");
        assert_eq!(
            s(ip("127.0.0.256")),
            r#"IP Address "127.0.0.256" parse error during conversion from string: ParseAddr("127.0.0.256"): IPv4 field has value >255"#
        );
        assert_eq!(
            s(ip(":::1")),
            r#"IP Address ":::1" parse error during conversion from string: ParseAddr(":::1"): each colon-separated field must have at least one digit (at ":1")"#
        );
        assert_eq!(
            s(ip("192.168.0.1.0")),
            r#"IP Address "192.168.0.1.0" parse error during conversion from string: ParseAddr("192.168.0.1.0"): IPv4 address too long"#
        );
        assert_eq!(
            s(ip("fe80::1%en0")),
            r#"IP address "fe80::1%en0" with zone value is not allowed"#
        );
        assert_eq!(
            s(ip("::ffff:192.168.0.1")),
            r#"IPv4-mapped IPv6 address "::ffff:192.168.0.1" is not allowed"#
        );
        assert_eq!(
            s(ip("::ffff:c0a8:1")),
            r#"IPv4-mapped IPv6 address "::ffff:c0a8:1" is not allowed"#
        );
        let cases = [
            ("", "unable to parse IP"),
            ("1", "unable to parse IP"),
            ("%eth0", "missing IPv6 address"),
            ("01.2.3.4", "IPv4 field has octet with leading zero"),
            ("1.2.3", "IPv4 address too short"),
            (".1.2.3", r#"IPv4 field must have at least one digit (at ".1.2.3")"#),
            ("1.2.3.", r#"IPv4 field must have at least one digit (at ".")"#),
            ("1..2.3", r#"IPv4 field must have at least one digit (at ".2.3")"#),
            ("1.2.3.a", r#"unexpected character (at "a")"#),
            ("1.2.3.é", r#"unexpected character (at "é")"#),
            ("fe80::1%", "zone must be a non-empty string"),
            ("12345::", r#"each group must have 4 or less digits (at "12345::")"#),
            ("1:2:3:4:5:6:7", "address string too short"),
            ("1:2:3:4:5:6:7:8:9", r#"trailing garbage after address (at "9")"#),
            ("1::2::3", r#"multiple :: in address (at ":3")"#),
            ("1:2:3:4:5:6:7::8", "the :: must expand to at least one field of zeros"),
            ("1:2:3:4::5:6:7:8", "the :: must expand to at least one field of zeros"),
            ("1:", r#"colon must be followed by more characters (at ":")"#),
            ("1:2:3:4:5:6:1.2.3.4.5", "IPv4 address too long"),
            (
                "1:2:3:4:5:1.2.3.4",
                r#"embedded IPv4 address must replace the final 2 fields of the address (at "1.2.3.4")"#,
            ),
            (
                "1:2:3:4:5:6:7:1.2.3.4",
                r#"embedded IPv4 address must replace the final 2 fields of the address (at "1.2.3.4")"#,
            ),
            ("::1.2.3", "IPv4 address too short"),
            ("1x::", r#"unexpected character, want colon (at "x::")"#),
        ];
        for (input, msg) in cases {
            let want = format!(
                "IP Address {} parse error during conversion from string: ParseAddr({}): {msg}",
                go_quote(input),
                go_quote(input)
            );
            assert_eq!(s(ip(input)), want, "{input}");
            assert!(!is_ip(input));
        }
    }

    #[test]
    fn ip_formatting_is_go_canonical() {
        let cases = [
            ("2001:DB8::68", "2001:db8::68"),
            ("2001:db8:0:0:0:0:0:1", "2001:db8::1"),
            ("2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"),
            ("2001:0:0:1:0:0:0:1", "2001:0:0:1::1"),
            ("2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"),
            ("0:0:0:0:0:0:0:0", "::"),
            ("::", "::"),
            ("1::", "1::"),
            ("0:0:0:0:0:0:0:1", "::1"),
            ("00ab:0:0:0:0:0:0:0cd", "ab::cd"),
            ("::1.2.3.4", "::102:304"),
            ("64:ff9b::192.0.2.33", "64:ff9b::c000:221"),
            (
                "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
                "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
            ),
            ("::ffff", "::ffff"),
            ("0.0.0.0", "0.0.0.0"),
        ];
        for (input, want) in cases {
            assert_eq!(ip(input).unwrap().to_string(), want, "{input}");
            assert_eq!(ip_is_canonical(input).unwrap(), input == want, "{input}");
        }
        assert!(ip_is_canonical("2001:db8::abcd").unwrap());
        assert!(!ip_is_canonical("2001:DB8::ABCD").unwrap());
        assert!(!ip_is_canonical("2001:db8::0:0:0:abcd").unwrap());
        assert!(ip_is_canonical("x").is_err());
    }

    #[test]
    fn ip_classification() {
        let f = |s: &str| ip(s).unwrap();
        assert_eq!(f("127.0.0.1").family(), 4);
        assert_eq!(f("::1").family(), 6);
        assert!(f("0.0.0.0").is_unspecified() && f("::").is_unspecified());
        assert!(!f("::1").is_unspecified() && !f("0.0.0.1").is_unspecified());
        assert!(f("127.255.0.9").is_loopback() && f("::1").is_loopback());
        assert!(!f("2001:db8::abcd").is_loopback() && !f("::2").is_loopback());
        assert!(f("224.0.0.255").is_link_local_multicast());
        assert!(!f("224.0.1.1").is_link_local_multicast());
        assert!(f("ff02::1").is_link_local_multicast() && f("ff12::1").is_link_local_multicast());
        assert!(!f("ff01::1").is_link_local_multicast() && !f("fd00::1").is_link_local_multicast());
        assert!(f("169.254.169.254").is_link_local_unicast() && f("febf::1").is_link_local_unicast());
        assert!(!f("fec0::1").is_link_local_unicast() && !f("169.253.0.1").is_link_local_unicast());
        for g in ["192.168.0.1", "10.0.0.1", "2001:db8::abcd", "fd00::1", "::2", "1.1.1.1"] {
            assert!(f(g).is_global_unicast(), "{g}");
        }
        for g in [
            "255.255.255.255",
            "0.0.0.0",
            "::",
            "::1",
            "127.0.0.1",
            "224.0.0.1",
            "ff00::1",
            "fe80::1",
            "169.254.0.1",
        ] {
            assert!(!f(g).is_global_unicast(), "{g}");
        }
        assert_eq!(f("1.2.3.4"), f("1.2.3.4"));
        assert_ne!(f("::102:304"), f("1.2.3.4"));
    }

    #[test]
    fn cidr_functions() {
        let c = |s: &str| cidr(s).unwrap();
        assert_eq!(c("192.168.0.1/24").to_string(), "192.168.0.1/24");
        assert_eq!(c("192.168.0.1/24").masked().to_string(), "192.168.0.0/24");
        assert_eq!(c("2001:db8::1/32").masked().to_string(), "2001:db8::/32");
        assert_eq!(c("2001:DB8:1::1/0").masked().to_string(), "::/0");
        assert_eq!(c("255.255.255.255/0").masked().to_string(), "0.0.0.0/0");
        assert_eq!(c("::1/128").ip().to_string(), "::1");
        assert_eq!(c("::1/128").prefix_length(), 128);
        assert_eq!(c("192.168.0.0/16").prefix_length(), 16);
        assert_ne!(c("192.168.0.1/24"), c("192.168.0.1/24").masked());
        assert_eq!(c("192.168.0.0/24"), c("192.168.0.0/24").masked());
        assert_ne!(c("10.0.0.0/8"), c("10.0.0.0/9"));
        assert!(c("192.168.0.0/16").contains_cidr(&c("192.168.10.0/24")));
        assert!(!c("192.168.1.0/24").contains_cidr(&c("192.168.2.0/24")));
        assert!(c("192.168.0.0/16").contains_cidr_str("192.168.10.0/24").unwrap());
        assert!(c("0.0.0.0/0").contains_cidr(&c("1.2.3.4/32")));
        assert!(!c("0.0.0.0/0").contains_cidr(&c("::/0")));
        assert!(c("10.1.0.0/8").contains_cidr(&c("10.200.0.0/16")));
        assert!(!c("10.0.0.0/16").contains_cidr(&c("10.0.0.0/8")));
        assert!(c("192.168.0.0/24").contains_ip(&ip("192.168.0.255").unwrap()));
        assert!(c("10.1.2.3/8").contains_ip(&ip("10.9.9.9").unwrap()));
        assert!(!c("0.0.0.0/0").contains_ip(&ip("::1").unwrap()));
        assert!(c("::/0").contains_ip(&ip("::1").unwrap()));
        assert!(c("2001:db8::/127").contains_ip(&ip("2001:db8::1").unwrap()));
        assert!(!c("2001:db8::/128").contains_ip(&ip("2001:db8::1").unwrap()));
        assert!(c("1.2.3.4/32").contains_ip_str("1.2.3.4").unwrap());
        // Kubernetes' cidrContainsIPString reports a bad address as a missing overload,
        // cidrContainsCIDRString reports the parse error.
        assert_eq!(c("1.2.3.4/32").contains_ip_str("x").unwrap_err(), "no such overload");
        assert_eq!(
            c("1.2.3.4/32").contains_cidr_str("x").unwrap_err(),
            r#"network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("x"): no '/'"#
        );
    }

    #[test]
    fn cidr_errors() {
        let e = |s: &str| cidr(s).unwrap_err();
        let pfx = "network address parse error during conversion from string: ";
        let cases = [
            (
                "192.168.0.0/33",
                "netip.ParsePrefix(\"192.168.0.0/33\"): prefix length out of range",
            ),
            ("::1/129", "netip.ParsePrefix(\"::1/129\"): prefix length out of range"),
            (
                "192.168.0.0/",
                "netip.ParsePrefix(\"192.168.0.0/\"): bad bits after slash: \"\"",
            ),
            (
                "192.168.0.0/08",
                "netip.ParsePrefix(\"192.168.0.0/08\"): bad bits after slash: \"08\"",
            ),
            (
                "192.168.0.0/+8",
                "netip.ParsePrefix(\"192.168.0.0/+8\"): bad bits after slash: \"+8\"",
            ),
            (
                "192.168.0.0/-0",
                "netip.ParsePrefix(\"192.168.0.0/-0\"): bad bits after slash: \"-0\"",
            ),
            (
                "192.168.0.0/99999999999999999999",
                "netip.ParsePrefix(\"192.168.0.0/99999999999999999999\"): bad bits after slash: \"99999999999999999999\"",
            ),
            ("192.168.0.0", "netip.ParsePrefix(\"192.168.0.0\"): no '/'"),
            (
                "fe80::1%en0/24",
                "netip.ParsePrefix(\"fe80::1%en0/24\"): IPv6 zones cannot be present in a prefix",
            ),
            (
                "1.2.3/8",
                "netip.ParsePrefix(\"1.2.3/8\"): ParseAddr(\"1.2.3\"): IPv4 address too short",
            ),
        ];
        for (input, msg) in cases {
            assert_eq!(e(input), format!("{pfx}{pfx}{msg}"), "{input}");
            assert!(!is_cidr(input));
        }
        assert_eq!(
            e("::ffff:192.168.0.1/24"),
            format!("{pfx}IPv4-mapped IPv6 address \"::ffff:192.168.0.1/24\" is not allowed")
        );
        assert!(is_cidr("0.0.0.0/0") && is_cidr("::/0") && is_cidr("1.2.3.4/32"));
        assert_eq!(cidr("10.0.0.0/0").unwrap().prefix_length(), 0);
    }

    #[test]
    fn odd_inputs_do_not_panic() {
        let inputs = [
            "",
            "/",
            "//",
            "::",
            ":",
            "%",
            "%%",
            "[::1]",
            "1.2.3.4/",
            "/32",
            "é",
            "1.2.3.4%x",
            "::%",
            "::1%/8",
            "1:2:3:4:5:6:7:8%zone",
            "ffff::ffff:255.255.255.255",
            "::ffff:0.0.0.0/96",
            "0:0:0:0:0:ffff:1.2.3.4",
            "1.2.3.4/4294967328",
            "::/18446744073709551744",
        ];
        for s in inputs {
            let _ = (ip(s), is_ip(s), ip_is_canonical(s), cidr(s), is_cidr(s));
            if let Ok(c) = cidr(s) {
                let _ = (c.masked(), c.to_string(), c.contains_ip(&c.ip()));
            }
        }
    }
}
