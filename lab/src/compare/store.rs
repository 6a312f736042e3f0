//! The cells of a comparison on disk: `cells.jsonl` in the output folder, one JSON object per
//! finished cell, appended (and flushed) the moment the cell finishes, so an interrupted run
//! (Ctrl-C) keeps every finished cell and a rerun with the same `--out` computes only the rest.
//! `settings.json` holds the fingerprint the cells were computed under; a folder with another
//! fingerprint is refused rather than mixed. `build.txt` names the build of `runner` that
//! computed the cells (a hash of its executable): after a rebuild the algorithms may search
//! differently, so a folder of another build is refused too rather than resumed with stale
//! cells.
//!
//! Several processes may share a folder (`--shard K/N`, `shard.rs`): each appends to a file of
//! its own (`cells.shard-K-of-N.jsonl`; a run without `--shard` to `cells.jsonl`) and reads
//! every cell file of the folder when it opens it, so no two processes append to one file.
//! `settings.json` and `build.txt` are written whole to a temporary file and renamed into
//! place, so a process that reads them while another writes them sees the whole old text or
//! the whole new one, never a part. Only a process's own file is repaired after a cut last
//! line; a cut line in another's file may be a cell still being written, and is skipped.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::fs::{File, OpenOptions};
use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use control::parallel::Figures;
use control::parallel::aphid::AphidFigures;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::shard::Shard;
use crate::input_error::input;

/// The cell file of a run that is not a shard.
pub const CELLS: &str = "cells.jsonl";

/// The format of the cells this build writes. Format 1 (lines without a `format` field) kept
/// the best move in the move type's debug form; format 2 keeps it in the game's notation.
/// Cells of both formats are read; a folder's cells all come from one build (`build.txt`), so
/// they are of one format.
pub const FORMAT: u32 = 2;

fn format_1() -> u32 {
    1
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_format_1(format: &u32) -> bool {
    *format == 1
}

/// What a cell is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CellKind {
    /// The baseline algorithm on one processor: the position's reference run.
    Baseline,
    /// A series on some processors with some seed.
    Run,
}

impl std::fmt::Display for CellKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            CellKind::Baseline => "baseline",
            CellKind::Run => "run",
        })
    }
}

/// One finished cell: the baseline of a position, or one series on `procs` processors with
/// `seed`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Record {
    /// The format the cell was written in ([`FORMAT`]; 1 where the line has none).
    #[serde(default = "format_1", skip_serializing_if = "is_format_1")]
    pub format: u32,
    /// The baseline or a series' run.
    pub kind: CellKind,
    /// The position's line in the test set.
    pub line: usize,
    /// The series label (the baseline's algorithm for baselines).
    pub series: String,
    /// Processors.
    pub procs: usize,
    /// Seed.
    pub seed: u64,
    /// Depth searched.
    pub depth: u32,
    /// Root value.
    pub value: i32,
    /// The best move at the root in the game's notation (in the move type's debug form in
    /// format 1); `None` without one, and in cells written before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_move: Option<String>,
    /// Nodes.
    pub nodes: u64,
    /// Of them, the horizon leaves, where the algorithm counts them (the split engine).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub horizon_leaves: Option<u64>,
    /// Seconds (virtual on sim).
    pub seconds: f64,
    /// Busy nanoseconds per processor.
    pub busy_ns: Vec<u64>,
    /// Idle nanoseconds per processor.
    pub idle_ns: Vec<u64>,
    /// Messaging nanoseconds per processor.
    pub messaging_ns: Vec<u64>,
    /// Messages sent in total.
    pub messages: u64,
    /// What the algorithm counted (`extra` on disk).
    #[serde(rename = "extra")]
    pub figures: Figures,
    /// APHID's figures (aphid series only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aphid: Option<AphidFigures>,
    /// The seconds of every timed repeat, in the order run (`seconds` is their median; the
    /// other fields are those of the repeat at the lower median). Empty in cells written
    /// before repeats existed.
    #[serde(default)]
    pub times: Vec<f64>,
    /// Wall-clock seconds this machine spent computing the cell: every repeat together, and
    /// for a baseline also the choice of its depth. `None` in cells written before it was kept.
    /// A resumed cell keeps the time of the run that computed it, so the cells' sum is what a
    /// whole comparison costs here however many runs it took.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_seconds: Option<f64>,
}

/// What computing cells cost on this machine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Cost {
    /// Wall-clock seconds, summed over the cells with a recorded time.
    pub seconds: f64,
    /// Cells.
    pub cells: usize,
    /// Cells without a recorded time (computed by a build that did not keep it).
    pub untimed: usize,
}

impl Cost {
    /// The cost of `cells`.
    pub fn of<'a>(cells: impl IntoIterator<Item = &'a Record>) -> Cost {
        let mut c = Cost::default();
        for r in cells {
            c.cells += 1;
            match r.host_seconds {
                Some(s) => c.seconds += s,
                None => c.untimed += 1,
            }
        }
        c
    }

    /// Adds `other`'s cells.
    pub fn add(&mut self, other: Cost) {
        self.seconds += other.seconds;
        self.cells += other.cells;
        self.untimed += other.untimed;
    }
}

/// Identifies a cell. Keys order by kind (baselines first), line, series, processors, seed.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Key {
    /// The baseline or a run.
    pub kind: CellKind,
    /// The position's line in the test set.
    pub line: usize,
    /// The series label (the baseline's algorithm for baselines).
    pub series: String,
    /// Processors.
    pub procs: usize,
    /// Seed.
    pub seed: u64,
}

impl Key {
    /// The baseline cell of the position on `line`, run by the algorithm named `name`.
    pub fn baseline(line: usize, name: &str) -> Key {
        Key {
            kind: CellKind::Baseline,
            line,
            series: name.to_string(),
            procs: 1,
            seed: 1,
        }
    }

    /// The cell of `series` on the position on `line`, `procs` processors, `seed`.
    pub fn run(line: usize, series: &str, procs: usize, seed: u64) -> Key {
        Key {
            kind: CellKind::Run,
            line,
            series: series.to_string(),
            procs,
            seed,
        }
    }
}

impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Key {
            kind,
            line,
            series,
            procs,
            seed,
        } = self;
        write!(f, "{kind}\t{line}\t{series}\t{procs}\t{seed}")
    }
}

impl Record {
    /// The cell this record fills.
    pub fn key(&self) -> Key {
        Key {
            kind: self.kind,
            line: self.line,
            series: self.series.clone(),
            procs: self.procs,
            seed: self.seed,
        }
    }
}

/// The cells on disk and the file new ones are appended to.
pub struct Store {
    /// Every finished cell.
    pub cells: BTreeMap<Key, Record>,
    /// How many were read back from an earlier run (or another shard).
    pub resumed: usize,
    /// The cells this process computed ([`Store::add`]) and what they cost.
    pub computed: Cost,
    /// The build that computed the cells: this one, or under [`Store::open_to_assemble`] the
    /// one `build.txt` names.
    pub built_by: String,
    file: File,
    path: PathBuf,
}

impl Store {
    /// Opens (creating) `dir`, checks its fingerprint and reads its finished cells. A last line
    /// cut short by an interruption is ignored.
    pub fn open(dir: &Path, fingerprint: &Value) -> Result<Store> {
        Store::open_built(dir, fingerprint, &build_id(), CELLS)
    }

    /// [`Store::open`] for `shard` (appending to its own file), or for the whole comparison.
    pub fn open_as(dir: &Path, fingerprint: &Value, shard: Option<&Shard>) -> Result<Store> {
        match shard {
            Some(s) => Store::open_built(dir, fingerprint, &build_id(), &s.file_name()),
            None => Store::open(dir, fingerprint),
        }
    }

    /// Opens `dir`'s finished cells to assemble a report from them alone, whichever build
    /// computed them (`built_by` names it): nothing is computed into it, so nothing is mixed.
    /// The folder must exist with the same fingerprint.
    pub fn open_to_assemble(dir: &Path, fingerprint: &Value) -> Result<Store> {
        let settings = dir.join("settings.json");
        if !settings.exists() {
            return Err(input(
                format!("--out {}", dir.display()),
                "holds no finished cells to assemble; run without --assemble to compute them",
            ));
        }
        let stamp = std::fs::read_to_string(dir.join("build.txt")).unwrap_or_default();
        let build = match stamp.trim() {
            "" => "unknown".to_string(),
            b => b.to_string(),
        };
        Store::open_built(dir, fingerprint, &build, CELLS)
    }

    /// [`Store::open`] for the build named `build`, appending to the cell file named `own`.
    pub fn open_built(dir: &Path, fingerprint: &Value, build: &str, own: &str) -> Result<Store> {
        if dir.exists() && !dir.is_dir() {
            return Err(input(
                format!("--out {}", dir.display()),
                "is a file, not a folder; name a folder (it is created if missing)",
            ));
        }
        std::fs::create_dir_all(dir).map_err(|e| input(format!("--out {}", dir.display()), e))?;
        let settings = dir.join("settings.json");
        if !settings.exists() {
            // Another process may create it at the same moment: the last rename wins, and each
            // then reads back what is there.
            write_whole(&settings, &format!("{fingerprint:#}\n"))?;
        }
        let text = std::fs::read_to_string(&settings)
            .with_context(|| format!("reading {}", settings.display()))?;
        let old: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        if &old != fingerprint {
            return Err(input(
                format!("--out {}", dir.display()),
                format!(
                    "holds cells of other settings ({old}); use another --out folder or delete this one"
                ),
            ));
        }
        let path = dir.join(own);
        let stamp = dir.join("build.txt");
        let files = cell_files(dir, own)?;
        let has_cells = files
            .iter()
            .any(|f| std::fs::metadata(f).is_ok_and(|m| m.len() > 0));
        let old_build = std::fs::read_to_string(&stamp).ok();
        match old_build {
            Some(old) if has_cells && old.trim() != build => {
                return Err(input(
                    format!("--out {}", dir.display()),
                    format!(
                        "holds cells computed by another build of runner ({}, this is {build}); \
                         delete the folder (or use another --out) to compute them again with this build \
                         (`runner experiment --assemble` builds a page from them as they are)",
                        old.trim()
                    ),
                ));
            }
            None if has_cells => {
                return Err(input(
                    format!("--out {}", dir.display()),
                    "holds cells of an unknown build of runner (no build.txt); delete the folder \
                     (or use another --out) to compute them again with this build",
                ));
            }
            Some(old) if old.trim() == build => {}
            _ => write_whole(&stamp, &format!("{build}\n"))?,
        }
        let mut cells = BTreeMap::new();
        for file in &files {
            let Ok(text) = std::fs::read_to_string(file) else {
                continue;
            };
            for line in text.lines() {
                if let Ok(r) = serde_json::from_str::<Record>(line) {
                    cells.insert(r.key(), r);
                }
            }
            // A cut line would glue onto the next record: end the file with a newline.
            if file == &path && !text.is_empty() && !text.ends_with('\n') {
                std::fs::write(&path, format!("{text}\n"))
                    .with_context(|| format!("repairing {}", path.display()))?;
            }
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .with_context(|| format!("opening {}", path.display()))?;
        let resumed = cells.len();
        Ok(Store {
            cells,
            resumed,
            computed: Cost::default(),
            built_by: build.to_string(),
            file,
            path,
        })
    }

    /// Records a finished cell: one line, written and flushed at once.
    pub fn add(&mut self, r: Record) -> Result<()> {
        let mut line = serde_json::to_string(&r)?;
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .with_context(|| format!("writing {}", self.path.display()))?;
        self.computed.add(Cost::of([&r]));
        self.cells.insert(r.key(), r);
        Ok(())
    }
}

/// The cell files of `dir`: `cells.jsonl`, then the shards' files by name, then `own` when it
/// is none of them (it may not exist yet).
fn cell_files(dir: &Path, own: &str) -> Result<Vec<PathBuf>> {
    let mut shards: Vec<PathBuf> = Vec::new();
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("reading the folder {}", dir.display()))?;
    for entry in entries {
        let path = entry
            .with_context(|| format!("reading the folder {}", dir.display()))?
            .path();
        let name = path.file_name().and_then(OsStr::to_str).unwrap_or_default();
        if name.starts_with("cells.shard-") && name.ends_with(".jsonl") {
            shards.push(path);
        }
    }
    shards.sort();
    let mut files = vec![dir.join(CELLS)];
    files.extend(shards);
    if !files.contains(&dir.join(own)) {
        files.push(dir.join(own));
    }
    Ok(files)
}

/// Writes `text` to `path` whole: into a temporary file beside it (named after this host and
/// process, so processes on several machines sharing the folder never share one), renamed into
/// place, so that a reader sees the old text or the new one, never a part.
pub(crate) fn write_whole(path: &Path, text: &str) -> Result<()> {
    let name = path.file_name().and_then(OsStr::to_str).unwrap_or("file");
    let temp = path.with_file_name(format!(
        ".{name}.{}.{}.tmp",
        crate::machine::host(),
        std::process::id()
    ));
    std::fs::write(&temp, text).with_context(|| format!("writing {}", temp.display()))?;
    std::fs::rename(&temp, path).with_context(|| format!("writing {}", path.display()))
}

/// This build of `runner`: the FNV-1a hash of its executable, in hex (`unknown` where the
/// executable cannot be read), computed once per process.
pub fn build_id() -> String {
    static ID: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    ID.get_or_init(|| {
        std::env::current_exe()
            .and_then(std::fs::read)
            .map(|bytes| format!("{:016x}", crate::compare::plan::fnv(&bytes)))
            .unwrap_or_else(|_| "unknown".to_string())
    })
    .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(line: usize) -> Record {
        Record {
            format: FORMAT,
            kind: CellKind::Run,
            line,
            series: "x".into(),
            procs: 2,
            seed: 1,
            depth: 3,
            value: -5,
            best_move: None,
            nodes: 10,
            horizon_leaves: Some(7),
            seconds: 0.5,
            busy_ns: vec![1, 2],
            idle_ns: vec![0, 1],
            messaging_ns: vec![0, 0],
            messages: 4,
            figures: Figures::default(),
            aphid: None,
            times: vec![0.5],
            host_seconds: Some(0.25),
        }
    }

    #[test]
    fn cells_survive_a_reopen_and_a_cut_last_line() {
        let dir = std::env::temp_dir().join(format!("runner-store-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let fp = serde_json::json!({"a": 1});
        let mut s = Store::open(&dir, &fp).unwrap();
        s.add(record(1)).unwrap();
        s.add(record(2)).unwrap();
        drop(s);
        let mut f = OpenOptions::new()
            .append(true)
            .open(dir.join("cells.jsonl"))
            .unwrap();
        f.write_all(b"{\"kind\":\"run\",\"li").unwrap();
        drop(f);
        let mut s = Store::open(&dir, &fp).unwrap();
        assert_eq!(s.resumed, 2);
        assert!(s.cells.contains_key(&record(2).key()));
        s.add(record(3)).unwrap();
        drop(s);
        assert_eq!(Store::open(&dir, &fp).unwrap().cells.len(), 3);
        assert!(Store::open(&dir, &serde_json::json!({"a": 2})).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn every_shards_file_is_read_and_only_its_own_is_repaired() {
        let dir = std::env::temp_dir().join(format!("runner-store-shards-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let fp = serde_json::json!({"a": 1});
        let (one, two) = (
            Shard { index: 1, count: 2 }.file_name(),
            Shard { index: 2, count: 2 }.file_name(),
        );
        let mut a = Store::open_built(&dir, &fp, "b", &one).unwrap();
        let mut b = Store::open_built(&dir, &fp, "b", &two).unwrap();
        a.add(record(1)).unwrap();
        b.add(record(2)).unwrap();
        assert_eq!((a.computed.cells, b.computed.cells), (1, 1));
        // Shard 2 is writing a cell: its cut line is skipped and left alone by shard 1.
        let mut f = OpenOptions::new()
            .append(true)
            .open(dir.join(&two))
            .unwrap();
        f.write_all(b"{\"kind\":\"run\",\"li").unwrap();
        drop(f);
        let a = Store::open_built(&dir, &fp, "b", &one).unwrap();
        assert_eq!(a.resumed, 2);
        assert!(
            std::fs::read_to_string(dir.join(&two))
                .unwrap()
                .ends_with("\"li")
        );
        // A run without --shard reads every file and appends to cells.jsonl.
        let mut whole = Store::open_built(&dir, &fp, "b", CELLS).unwrap();
        assert_eq!(whole.resumed, 2);
        whole.add(record(3)).unwrap();
        assert_eq!(lines_of(&dir.join(CELLS)), 1);
        assert_eq!(whole.computed.cells, 1);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_cell_of_this_format_names_it_and_keys_are_typed() {
        let line = serde_json::to_string(&record(4)).unwrap();
        assert!(
            line.starts_with(&format!("{{\"format\":{FORMAT},\"kind\":\"run\"")),
            "{line}"
        );
        let back: Record = serde_json::from_str(&line).unwrap();
        assert_eq!(back.format, FORMAT);
        assert_eq!(back.key(), Key::run(4, "x", 2, 1));
        assert!(
            Key::baseline(9, "pvs") < Key::run(1, "a", 1, 1),
            "baselines sort first"
        );
        assert_eq!(Key::run(4, "x", 2, 1).to_string(), "run\t4\tx\t2\t1");
    }

    fn lines_of(path: &Path) -> usize {
        std::fs::read_to_string(path).unwrap().lines().count()
    }

    #[test]
    fn a_resumed_cell_reads_back_bit_for_bit() {
        let dir = std::env::temp_dir().join(format!("runner-store-bits-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let fp = serde_json::json!({"a": 1});
        let mut s = Store::open(&dir, &fp).unwrap();
        let mut r = record(1);
        // A time whose shortest decimal form parses 1 ULP off without exact float parsing.
        r.seconds = 14.038908000000001;
        r.times = vec![r.seconds, 1.0 / 3.0, 0.1 + 0.2];
        s.add(r.clone()).unwrap();
        drop(s);
        let back = Store::open(&dir, &fp).unwrap().cells[&r.key()].clone();
        assert_eq!(back.seconds.to_bits(), r.seconds.to_bits());
        assert_eq!(back, r);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Lines of committed pages (`docs/results/mp-t3/local-all`, `rf-fig13-15`,
    /// `thesis-t6.8/othello-probcut-distributed`, `rf-fig7`): each figure kind (a mean table
    /// fill, the engine's, sorting's, lazy SMP's and ER's), counts written as floats.
    const PAGE_LINES: [&str; 4] = [
        r#"{"kind":"run","line":7,"series":"pvsplit","procs":2,"seed":1,"depth":5,"value":-41,"best_move":"c8c7","nodes":57205,"horizon_leaves":26141,"seconds":357.361997686,"busy_ns":[354519993470,346607798594],"idle_ns":[1865004216,9779199092],"messaging_ns":[977000000,975000000],"messages":979,"extra":{"hashfull":963.5,"iterations":5.0,"minimal_windows":774.0,"researches":25.0,"retests":2.0,"splits_other":0.0,"splits_type1":20.0,"widest_split":10.0},"times":[357.361997686],"host_seconds":0.031634509}"#,
        r#"{"kind":"run","line":8,"series":"mwf@ec","procs":1,"seed":1,"depth":9,"value":0,"best_move":"Cell(0)","nodes":5537678,"horizon_leaves":4215520,"seconds":5282.92224,"busy_ns":[5282922240000],"idle_ns":[0],"messaging_ns":[0],"messages":0,"extra":{"sort_nodes":4142138.0,"sort_seconds":2071.069,"splits_other":0.0,"splits_type1":0.0,"type2_waits":0.0},"times":[5282.92224],"host_seconds":0.967860954}"#,
        r#"{"kind":"baseline","line":6,"series":"lazysmp","procs":1,"seed":1,"depth":16,"value":-286,"best_move":"Move(12)","nodes":6927778,"seconds":54.2170066,"busy_ns":[54217006600],"idle_ns":[0],"messaging_ns":[0],"messages":0,"extra":{"entries_received":0.0,"hashfull":90.0,"helper_nodes":0.0,"main_nodes":6927778.0,"main_tt_cutoffs":206544.0},"times":[54.2170066],"host_seconds":1.662448599}"#,
        r#"{"kind":"run","line":18,"series":"er","procs":1,"seed":1,"depth":9,"value":59,"best_move":"Move(17)","nodes":301967,"horizon_leaves":214231,"seconds":486.16687,"busy_ns":[486166870000],"idle_ns":[0],"messaging_ns":[0],"messages":0,"extra":{"elder_grandchildren":24506.0,"extra_e_children":0.0,"later_e_children":0.0,"refuted_by_grandchild":7222.0,"splits_other":0.0,"splits_type1":0.0},"times":[486.16687],"host_seconds":0.034864661}"#,
    ];

    #[test]
    fn cells_of_committed_pages_are_written_back_byte_for_byte() {
        for line in PAGE_LINES {
            let r: Record = serde_json::from_str(line).expect("a committed cell reads");
            assert_eq!(serde_json::to_string(&r).expect("writes"), line);
        }
        let r: Record = serde_json::from_str(PAGE_LINES[0]).expect("reads");
        assert_eq!(r.figures.hashfull, Some(963.5));
        assert_eq!(r.figures.minimal_windows, Some(774));
        assert_eq!(r.figures.sort_seconds, None);
        assert_eq!((r.format, r.kind), (1, CellKind::Run));
        let sorted: Record = serde_json::from_str(PAGE_LINES[1]).expect("reads");
        assert_eq!(sorted.figures.sort_seconds, Some(2071.069));
        assert_eq!(sorted.figures.sort_nodes, Some(4_142_138));
    }

    #[test]
    fn a_resumed_cell_keeps_what_it_cost_and_old_cells_count_as_untimed() {
        let dir = std::env::temp_dir().join(format!("runner-store-cost-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let fp = serde_json::json!({"a": 1});
        let mut s = Store::open(&dir, &fp).unwrap();
        s.add(record(1)).unwrap();
        drop(s);
        // A line of a build that kept no time.
        let mut old = serde_json::to_value(record(2)).unwrap();
        old.as_object_mut().unwrap().remove("host_seconds");
        let mut f = OpenOptions::new()
            .append(true)
            .open(dir.join("cells.jsonl"))
            .unwrap();
        writeln!(f, "{old}").unwrap();
        drop(f);
        let mut s = Store::open(&dir, &fp).unwrap();
        let mut third = record(3);
        third.host_seconds = Some(2.0);
        s.add(third).unwrap();
        let cost = Cost::of(s.cells.values());
        assert_eq!(cost.cells, 3);
        assert_eq!(cost.untimed, 1);
        assert!((cost.seconds - 2.25).abs() < 1e-12, "{cost:?}");
        let mut twice = cost;
        twice.add(cost);
        assert_eq!((twice.cells, twice.untimed), (6, 2));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn cells_of_another_build_are_refused_and_a_file_is_no_folder() {
        let dir = std::env::temp_dir().join(format!("runner-store-build-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let fp = serde_json::json!({"a": 1});
        // An empty folder of another build is taken over; one with cells is refused.
        drop(Store::open_built(&dir, &fp, "b1", CELLS).unwrap());
        let mut s = Store::open_built(&dir, &fp, "b2", CELLS).unwrap();
        s.add(record(1)).unwrap();
        drop(s);
        assert_eq!(
            Store::open_built(&dir, &fp, "b2", CELLS).unwrap().resumed,
            1
        );
        let err = Store::open_built(&dir, &fp, "b3", CELLS)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("another build") && err.contains("b2"), "{err}");
        std::fs::remove_file(dir.join("build.txt")).unwrap();
        let err = Store::open_built(&dir, &fp, "b2", CELLS)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("unknown build"), "{err}");
        let file = dir.join("cells.jsonl");
        let err = Store::open_built(&file, &fp, "b2", CELLS)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("not a folder"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
