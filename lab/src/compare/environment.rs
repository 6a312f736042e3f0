//! Where a comparison ran, for its report: the date, the host, the CPU model and cores, the
//! source commit, the compiler that built `runner`, and the simulator preset. Everything that is
//! unknown on a machine (no git, no /proc) reads `unknown`.

use serde::Serialize;

use crate::cli::BackendKind;
use crate::machine::{cpu_model, host, utc};

/// The machine and build a comparison ran on.
#[derive(Clone, Debug, Serialize)]
pub struct Environment {
    /// UTC date and time the report was written, `YYYY-MM-DD HH:MM:SS UTC`.
    pub date: String,
    /// Host name.
    pub host: String,
    /// CPU model (the first `model name` of /proc/cpuinfo).
    pub cpu: String,
    /// Cores available to this process (`std::thread::available_parallelism`).
    pub cores: usize,
    /// The source commit (`git rev-parse` in the workspace `runner` was built from), with
    /// `+changes` when its tracked files differ from it.
    pub commit: String,
    /// The compiler that built `runner` (`rustc --version` at build time).
    pub rustc: String,
    /// The simulator preset (`shared-memory (the default)` when none is named; `-` off the
    /// simulator).
    pub preset: String,
}

impl Environment {
    /// This machine now, for a comparison on `backend` with simulator preset `preset`.
    #[must_use]
    pub fn now(backend: BackendKind, preset: Option<&str>) -> Environment {
        Environment {
            date: utc(crate::machine::now_secs()),
            host: host(),
            cpu: cpu_model(),
            cores: crate::machine::cores(),
            commit: env!("RUNNER_COMMIT").to_string(),
            rustc: env!("RUNNER_RUSTC_VERSION").to_string(),
            preset: match (backend, preset) {
                (BackendKind::Sim, Some(p)) => p.to_string(),
                (BackendKind::Sim, None) => "shared-memory (the default)".into(),
                _ => "-".into(),
            },
        }
    }

    /// (name, value) pairs in report order.
    #[must_use]
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        vec![
            ("date", self.date.clone()),
            ("host", self.host.clone()),
            ("CPU", self.cpu.clone()),
            ("cores", self.cores.to_string()),
            ("commit", self.commit.clone()),
            ("rustc", self.rustc.clone()),
            ("simulator preset", self.preset.clone()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_utc_civil_dates() {
        assert_eq!(utc(0), "1970-01-01 00:00:00 UTC");
        // A leap day, 29 February 2000, at 12:34:56.
        assert_eq!(utc(951_827_696), "2000-02-29 12:34:56 UTC");
        assert_eq!(utc(1_798_761_599), "2026-12-31 23:59:59 UTC");
    }

    #[test]
    fn the_environment_names_this_machine_and_build() {
        let e = Environment::now(BackendKind::Sim, None);
        assert_eq!(e.preset, "shared-memory (the default)");
        assert!(e.rustc.starts_with("rustc "), "{}", e.rustc);
        assert!(e.cores >= 1);
        assert_eq!(
            Environment::now(BackendKind::Threads, Some("x")).preset,
            "-"
        );
        assert_eq!(e.fields().len(), 7);
    }
}
