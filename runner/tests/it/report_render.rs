//! The comparison report as a person sees it: a tiny comparison's `report.html` rendered by
//! headless Chromium (`--dump-dom`) must show its text, its tables and its five plots, and
//! the page must log no console message (the report has no script, so any message is an
//! error: a broken page, a missing resource).
//!
//! It needs Chromium (`apt-get install -y chromium` on Debian). Without it the test says so
//! and passes, so `cargo test --workspace --tests` works on a fresh machine, unless
//! `RUNNER_REQUIRE_BROWSER=1` is set: then a missing browser fails it. `.ci/run` installs
//! Chromium and sets the variable.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The names a Chromium binary goes by.
const BROWSERS: [&str; 4] = [
    "chromium",
    "chromium-headless-shell",
    "chromium-browser",
    "google-chrome",
];

fn browser() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    BROWSERS.iter().find_map(|name| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}

/// Runs the browser headless on `page` with `args`; its stdout and stderr.
fn render(browser: &Path, page: &Path, args: &[&str]) -> (String, String) {
    let url = format!("file://{}", page.display());
    let profile = std::env::temp_dir().join(format!("runner-chromium-{}", std::process::id()));
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(&url)
        .output()
        .expect("the browser runs");
    let _ = std::fs::remove_dir_all(&profile);
    assert!(
        out.status.success(),
        "{} failed: {}",
        browser.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_report_renders_with_its_plots_and_no_console_message() {
    let Some(browser) = browser() else {
        let message = format!(
            "no Chromium on PATH (looked for {}): install it with `apt-get install -y chromium` \
             (Debian) to render the report",
            BROWSERS.join(", ")
        );
        assert!(
            std::env::var_os("RUNNER_REQUIRE_BROWSER").is_none(),
            "{message}; RUNNER_REQUIRE_BROWSER is set"
        );
        eprintln!("skipped: {message}");
        return;
    };
    let dir = std::env::temp_dir().join(format!("runner-report-render-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new(env!("CARGO_BIN_EXE_runner"))
        .args([
            "compare",
            "--game",
            "tictactoe4",
            "--positions",
            "2",
            "--procs",
            "2,4",
            "--depth",
            "3",
            "--out",
        ])
        .arg(&dir)
        .output()
        .expect("the runner runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = dir.join("report.html");
    let (dom, log) = render(&browser, &page, &["--dump-dom"]);
    // The rendered document: its plots (each with drawn lines or bars), its tables and text.
    assert_eq!(dom.matches("<svg").count(), 5, "five plots: {dom}");
    assert!(dom.matches("<polyline").count() >= 4, "lines are drawn");
    assert!(dom.contains("<nav>") && dom.contains("What the columns mean"));
    assert!(dom.matches("<table").count() >= 5);
    let text_len = dom
        .split('<')
        .filter_map(|t| t.split_once('>'))
        .map(|(_, t)| t.trim().len())
        .sum::<usize>();
    assert!(text_len > 2000, "a page with text ({text_len} characters)");
    let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
    assert!(console.is_empty(), "console messages: {console:?}");
    // A screenshot is not blank: the PNG of a page with plots is far larger than a white one.
    let png = dir.join("report.png");
    render(
        &browser,
        &page,
        &[
            &format!("--screenshot={}", png.display()),
            "--window-size=1400,3000",
        ],
    );
    let size = std::fs::metadata(&png).map_or(0, |m| m.len());
    assert!(size > 50_000, "the screenshot has {size} bytes");
    let _ = std::fs::remove_dir_all(&dir);
}
