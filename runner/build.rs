//! Embeds the built-in test sets: every `.txt` and `.epd` file of `testsets/search` becomes one
//! `(name, text)` entry of `$OUT_DIR/testsets.rs` (read by `src/testset.rs`), so the binary finds
//! them by name wherever it runs.

use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let dir = manifest.join("../testsets/search");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("testsets/search is readable")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt" || e == "epd"))
        .collect();
    files.sort();
    let mut out = String::from("&[\n");
    for path in &files {
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("test-set names are UTF-8");
        let full = path.canonicalize().expect("the file exists");
        println!("cargo:rerun-if-changed={}", full.display());
        writeln!(
            out,
            "    ({name:?}, include_str!({:?})),",
            full.display().to_string()
        )
        .expect("writing to a String");
    }
    out.push_str("]\n");
    let target =
        PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it")).join("testsets.rs");
    std::fs::write(target, out).expect("OUT_DIR is writable");
}
