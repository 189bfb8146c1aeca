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

use crate::strings::go_quote;

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
    zone: String,
}

/// `netip.parseAddrError`: `ParseAddr("in"): msg (at "at")`.
fn addr_error(input: &str, msg: &str, at: &str) -> String {
    if at.is_empty() {
        format!("ParseAddr({}): {}", go_quote(input), msg)
    } else {
        format!("ParseAddr({}): {} (at {})", go_quote(input), msg, go_quote(at))
    }
}

/// Go `netip.ParseAddr`.
fn parse_addr(s: &str) -> Result<ParsedAddr, String> {
    for &c in s.as_bytes() {
        match c {
            b'.' => {
                let f = parse_ipv4_fields(s, s.as_bytes())?;
                return Ok(ParsedAddr {
                    ip: Ip::from_v4(f),
                    zone: String::new(),
                });
            }
            b':' => return parse_ipv6(s),
            b'%' => return Err(addr_error(s, "missing IPv6 address", "")),
            _ => {}
        }
    }
    Err(addr_error(s, "unable to parse IP", ""))
}

/// Go `netip.parseIPv4Fields` over `part` (a piece of the input `input`).
fn parse_ipv4_fields(input: &str, part: &[u8]) -> Result<[u8; 4], String> {
    let mut fields = [0u8; 4];
    let mut val: u32 = 0;
    let mut pos = 0usize;
    let mut dig_len = 0;
    for (i, &c) in part.iter().enumerate() {
        if c.is_ascii_digit() {
            if dig_len == 1 && val == 0 {
                return Err(addr_error(input, "IPv4 field has octet with leading zero", ""));
            }
            val = val * 10 + u32::from(c - b'0');
            dig_len += 1;
            if val > 255 {
                return Err(addr_error(input, "IPv4 field has value >255", ""));
            }
        } else if c == b'.' {
            if i == 0 || i == part.len() - 1 || part[i - 1] == b'.' {
                return Err(addr_error(
                    input,
                    "IPv4 field must have at least one digit",
                    &String::from_utf8_lossy(&part[i..]),
                ));
            }
            if pos == 3 {
                return Err(addr_error(input, "IPv4 address too long", ""));
            }
            fields[pos] = val as u8;
            pos += 1;
            val = 0;
            dig_len = 0;
        } else {
            return Err(addr_error(
                input,
                "unexpected character",
                &lossy_tail(part, i),
            ));
        }
    }
    if pos < 3 {
        return Err(addr_error(input, "IPv4 address too short", ""));
    }
    fields[3] = val as u8;
    Ok(fields)
}

/// The rest of `s` from byte `i` as text (Go slices strings by bytes; a cut inside a
/// UTF-8 sequence can only happen after a non-ASCII byte, which is quoted the same).
fn lossy_tail(s: &[u8], i: usize) -> String {
    String::from_utf8_lossy(&s[i..]).into_owned()
}

/// Go `netip.parseIPv6`.
fn parse_ipv6(input: &str) -> Result<ParsedAddr, String> {
    let bytes = input.as_bytes();
    let (mut s, zone): (&[u8], &str) = match input.find('%') {
        Some(i) => {
            let zone = &input[i + 1..];
            if zone.is_empty() {
                return Err(addr_error(input, "zone must be a non-empty string", ""));
            }
            (&bytes[..i], zone)
        }
        None => (bytes, ""),
    };
    let fail = |msg: &str, at: &[u8]| addr_error(input, msg, &String::from_utf8_lossy(at));

    let mut ip = [0u8; 16];
    let mut ellipsis: Option<usize> = None;
    if s.len() >= 2 && s[0] == b':' && s[1] == b':' {
        ellipsis = Some(0);
        s = &s[2..];
        if s.is_empty() {
            return Ok(ParsedAddr {
                ip: Ip::from_v6(0),
                zone: zone.to_string(),
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
            return Err(fail(
                "each colon-separated field must have at least one digit",
                s,
            ));
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
            return Err(addr_error(input, "address string too short", ""));
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
            "",
        ));
    }
    Ok(ParsedAddr {
        ip: Ip::from_v6(u128::from_be_bytes(ip)),
        zone: zone.to_string(),
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
        if ip.is4 {
            ip.v4_octet(0) == 127
        } else {
            ip.bits == 1
        }
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
        !(!ip.is4 && ip.bits == 0)
            && !ip.is_loopback()
            && !ip.is_multicast()
            && !ip.is_link_local_unicast()
    }

    /// Go `Addr.Prefix(b)`: the address with all but the top `b` bits cleared.
    fn masked_to(&self, b: u8) -> Ip {
        let eff = if self.is4 {
            u32::from(b) + 96
        } else {
            u32::from(b)
        };
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
    let parsed = parse_addr(s).map_err(|e| {
        format!(
            "IP Address {} parse error during conversion from string: {}",
            go_quote(s),
            e
        )
    })?;
    if !parsed.zone.is_empty() {
        return Err(format!(
            "IP address {} with zone value is not allowed",
            go_quote(s)
        ));
    }
    if parsed.ip.is_4in6() {
        return Err(format!(
            "IPv4-mapped IPv6 address {} is not allowed",
            go_quote(s)
        ));
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
    let parsed = parse_addr(&s[..i]).map_err(|e| perr(&e))?;
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
    let p = parse_prefix(s).map_err(|e| {
        format!("network address parse error during conversion from string: {e}")
    })?;
    if p.ip.is_4in6() {
        return Err(format!(
            "IPv4-mapped IPv6 address {} is not allowed",
            go_quote(s)
        ));
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
