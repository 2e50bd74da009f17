//! What the report says about where it ran.

use std::time::{SystemTime, UNIX_EPOCH};

/// The machine, the compiler, and when.
pub struct Machine {
    /// The CPU model, from /proc/cpuinfo where there is one.
    pub cpu: String,
    /// Threads the process may run at once.
    pub cores: usize,
    /// The compiler that built this binary.
    pub rustc: &'static str,
    /// The operating system and kernel, where known.
    pub os: String,
    /// Today, in UTC, as YYYY-MM-DD.
    pub date: String,
    /// The 1-minute load average when the run started (Linux), to judge noise
    /// from other processes.
    pub load_at_start: String,
}

impl Machine {
    /// Looks around.
    pub fn detect() -> Self {
        Self {
            cpu: cpu_model().unwrap_or_else(|| "unknown".into()),
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            rustc: env!("ECS_BENCH_RUSTC_VERSION"),
            os: os_name(),
            date: today_utc(),
            load_at_start: load_average(),
        }
    }
}

/// The first `model name` of /proc/cpuinfo.
fn cpu_model() -> Option<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    info.lines()
        .find(|line| line.starts_with("model name"))
        .and_then(|line| line.split_once(':'))
        .map(|(_, model)| model.trim().to_owned())
}

/// `linux 6.1.0` and the like.
fn os_name() -> String {
    let release = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
    format!("{} {}", std::env::consts::OS, release.trim())
        .trim()
        .to_owned()
}

/// The 1-minute load average, or `unknown`.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|text| text.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "unknown".into())
}

/// Today's date in UTC.
fn today_utc() -> String {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (year, month, day) = civil_from_days((seconds / 86_400) as i64);
    format!("{year:04}-{month:02}-{day:02}")
}

/// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_index + 2) / 5 + 1) as u32;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::civil_from_days;

    #[test]
    fn known_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_454), (2026, 1, 1));
    }
}
