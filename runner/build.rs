//! Records the compiler that builds `runner` (`rustc --version`) for the reports' environment
//! block (`RUNNER_RUSTC_VERSION`).

use std::process::Command;

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map_or_else(
            || "unknown".to_string(),
            |o| String::from_utf8_lossy(&o.stdout).trim().to_string(),
        );
    println!("cargo:rustc-env=RUNNER_RUSTC_VERSION={version}");
    println!("cargo:rerun-if-changed=build.rs");
}
