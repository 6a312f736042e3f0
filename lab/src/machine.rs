//! Facts about the machine a measurement ran on, for the reports and the calibrated cost
//! models: host name, CPU model, cores, and the date (UTC, without a time-zone library).
//! Everything a machine does not say (no /proc) reads `unknown`.

/// What a fact reads when the machine does not say.
pub const UNKNOWN: &str = "unknown";

/// The processors this process may use (`std::thread::available_parallelism`; 1 when
/// unknown).
#[must_use]
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

/// The host name (from the kernel, else `$HOSTNAME`).
#[must_use]
pub fn host() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| UNKNOWN.into())
}

/// The CPU model: the first `model name` of /proc/cpuinfo.
#[must_use]
pub fn cpu_model() -> String {
    let text = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    model_name(&text).unwrap_or_else(|| UNKNOWN.into())
}

/// The first `model name` of a /proc/cpuinfo text.
#[must_use]
pub fn model_name(cpuinfo: &str) -> Option<String> {
    cpuinfo.lines().find_map(|l| {
        let (key, value) = l.split_once(':')?;
        (key.trim() == "model name").then(|| value.trim().to_string())
    })
}

/// Seconds since 1970-01-01 UTC now.
#[must_use]
pub fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Today (UTC) as YYYY-MM-DD.
#[must_use]
pub fn today() -> String {
    let (y, m, d) = civil_date(now_secs() / 86_400);
    format!("{y:04}-{m:02}-{d:02}")
}

/// `secs` since the Unix epoch as `YYYY-MM-DD HH:MM:SS UTC`.
#[must_use]
pub fn utc(secs: u64) -> String {
    let (y, m, d) = civil_date(secs / 86_400);
    let t = secs % 86_400;
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02} UTC",
        t / 3600,
        t / 60 % 60,
        t % 60
    )
}

/// The (year, month, day) of the day `days` after 1970-01-01 in the proleptic Gregorian
/// calendar: shift the year to start in March (so the leap day ends it), count 400-year eras of
/// 146,097 days, then years of 365 days plus the leap days before them, then months of the
/// March-based year, whose lengths follow `(153 m + 2) / 5`.
#[must_use]
pub fn civil_date(days: u64) -> (u64, u32, u32) {
    let z = days + 719_468; // days since 0000-03-01
    let era = z / 146_097;
    let doe = z - era * 146_097; // day of the era, 0 to 146,096
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365; // year of the era
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // day of the March-based year
    let mp = (5 * doy + 2) / 153; // month from March, 0 to 11
    let day = u32::try_from(doy - (153 * mp + 2) / 5 + 1).unwrap_or(1);
    let month = u32::try_from(if mp < 10 { mp + 3 } else { mp - 9 }).unwrap_or(1);
    let year = yoe + era * 400 + u64::from(month <= 2);
    (year, month, day)
}
