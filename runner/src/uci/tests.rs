//! The command loop driven through an in-memory writer.

use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use games::Game;
use games::chess::Chess;

use super::{Output, Session};

/// A writer whose bytes the test can read while the engine writes.
#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Buffer {
    fn lines(&self) -> Vec<String> {
        String::from_utf8(self.0.lock().unwrap().clone())
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// The lines written since the last call.
    fn take(&self) -> Vec<String> {
        let lines = self.lines();
        self.0.lock().unwrap().clear();
        lines
    }
}

fn session() -> (Session, Buffer) {
    let buf = Buffer::default();
    (Session::new(Output::new(buf.clone())), buf)
}

fn send(s: &mut Session, lines: &[&str]) {
    for l in lines {
        s.handle(l);
    }
}

/// The start position after `moves`.
fn after(moves: &[&str]) -> Chess {
    let mut pos = Chess::start();
    for m in moves {
        let _ = pos.make_move(pos.parse_move(m).unwrap());
    }
    pos
}

/// The `info depth` lines.
fn depth_lines(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect()
}

/// The move of the last `bestmove` line, checked legal in `pos`.
fn legal_bestmove(lines: &[String], pos: &Chess) -> String {
    let last = lines.last().expect("no output");
    let mut words = last.split_whitespace();
    assert_eq!(words.next(), Some("bestmove"), "{lines:?}");
    let mv = words.next().unwrap().to_string();
    pos.parse_move(&mv)
        .unwrap_or_else(|e| panic!("bestmove {mv} is not legal: {e}; {lines:?}"));
    mv
}

#[test]
fn uci_announces_options_and_isready_answers() {
    let (mut s, out) = session();
    send(&mut s, &["uci", "isready"]);
    let lines = out.take();
    assert!(lines[0].starts_with("id name runner"));
    assert!(lines.iter().any(|l| l.starts_with("option name Threads")));
    assert!(lines.iter().any(|l| l.starts_with("option name Algorithm")));
    assert_eq!(lines[lines.len() - 2], "uciok");
    assert_eq!(lines[lines.len() - 1], "readyok");
}

#[test]
fn go_depth_reports_every_depth_and_a_legal_move_with_ponder() {
    let (mut s, out) = session();
    send(&mut s, &["position startpos moves e2e4 e7e5", "go depth 4"]);
    s.wait();
    let lines = out.take();
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 4, "{lines:?}");
    for (i, l) in infos.iter().enumerate() {
        assert!(
            l.starts_with(&format!("info depth {} seldepth ", i + 1)) && l.contains(" score cp "),
            "{l}"
        );
        // Quiescence goes below the nominal depth, never above it.
        let seldepth: u32 = l
            .split_whitespace()
            .skip_while(|w| *w != "seldepth")
            .nth(1)
            .and_then(|w| w.parse().ok())
            .unwrap_or(0);
        assert!(seldepth >= (i + 1) as u32, "{l}");
        for key in [
            " seldepth ",
            " nodes ",
            " nps ",
            " time ",
            " hashfull ",
            " pv ",
        ] {
            assert!(l.contains(key), "{l} lacks{key}");
        }
    }
    let mut pos = Chess::start();
    for m in ["e2e4", "e7e5"] {
        let mv = pos.parse_move(m).unwrap();
        let _ = pos.make_move(mv);
    }
    legal_bestmove(&lines, &pos);
    assert!(lines.last().unwrap().contains(" ponder "), "{lines:?}");
}

#[test]
fn bad_input_is_answered_with_info_strings_and_the_session_goes_on() {
    let (mut s, out) = session();
    send(
        &mut s,
        &[
            "hello",
            "go depth x",
            "setoption name Hash value 0",
            "setoption name Colour value blue",
            "setoption name Algorithm value magic",
            "position fen not/a/fen w - - 0 1",
            "position",
            "position startpos moves e2e4 e7e5 e1e3 d7d5",
            "ponderhit",
        ],
    );
    let lines = out.take();
    assert_eq!(lines.len(), 9, "{lines:?}");
    assert!(
        lines.iter().all(|l| l.starts_with("info string ")),
        "{lines:?}"
    );
    assert!(lines[0].contains("unknown command 'hello'"));
    assert!(lines[1].contains("'depth' needs a whole number"));
    assert!(lines[2].contains("Hash must be a whole number from 1"));
    assert!(lines[3].contains("unknown option 'Colour'"));
    assert!(lines[4].contains("unknown Algorithm 'magic'"));
    assert!(lines[5].contains("bad FEN"));
    assert!(lines[7].contains("move 3 'e1e3' is not legal"));
    // The position was rejected: go does not search the one before it.
    send(&mut s, &["go depth 2"]);
    s.wait();
    let lines = out.take();
    assert_eq!(lines.last().unwrap(), "bestmove 0000", "{lines:?}");
}

#[test]
fn go_after_a_rejected_position_answers_0000_until_a_valid_one() {
    let (mut s, out) = session();
    send(&mut s, &["position startpos moves e2e4", "go depth 1"]);
    s.wait();
    legal_bestmove(&out.take(), &after(&["e2e4"]));
    for bad in [
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "position startpos moves e2e4 e2e4",
        "position fen",
    ] {
        send(&mut s, &[bad, "go depth 2"]);
        s.wait();
        let lines = out.take();
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string no position to search")),
            "{bad}: {lines:?}"
        );
        assert_eq!(lines.last().unwrap(), "bestmove 0000", "{bad}: {lines:?}");
        assert!(
            !lines.iter().any(|l| l.starts_with("info depth")),
            "{lines:?}"
        );
    }
    // go infinite holds even that answer until stop.
    send(&mut s, &["go infinite", "isready"]);
    assert!(!out.lines().iter().any(|l| l.starts_with("bestmove")));
    send(&mut s, &["go depth 1", "stop"]);
    let lines = out.take();
    assert!(lines.iter().any(|l| l.contains("go ignored")), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "bestmove 0000", "{lines:?}");
    // A valid position is searched again.
    send(&mut s, &["position startpos moves d2d4", "go depth 1"]);
    s.wait();
    legal_bestmove(&out.take(), &after(&["d2d4"]));
}

/// The value of `key` in an `info` line.
fn field(line: &str, key: &str) -> Option<u64> {
    line.split_whitespace()
        .skip_while(|w| *w != key)
        .nth(1)
        .and_then(|w| w.parse().ok())
}

#[test]
fn movetime_is_used_to_the_deadline_with_currmove_updates() {
    // Move Overhead 10: the deadline is 1,990 ms. No depth completes exactly there, so the
    // answer comes when the deadline stops the running depth, not after half of it.
    let (mut s, out) = session();
    send(
        &mut s,
        &["position startpos moves e2e4 c7c5 g1f3", "isready"],
    );
    out.take();
    let start = std::time::Instant::now();
    send(&mut s, &["go movetime 2000"]);
    s.wait();
    let took = start.elapsed();
    let lines = out.take();
    assert!(
        took >= Duration::from_millis(1_800),
        "answered after {took:?}: {lines:?}"
    );
    let pos = after(&["e2e4", "c7c5", "g1f3"]);
    legal_bestmove(&lines, &pos);
    // Root moves started after the first second are reported, at most four a second (whether
    // one starts in that window depends on the machine's speed; `player.rs` checks the rule on
    // a virtual clock).
    let current: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info currmove "))
        .collect();
    assert!(current.len() <= 5, "{current:?}");
    for l in &current {
        let mv = l.split_whitespace().nth(2).unwrap();
        pos.parse_move(mv).unwrap();
        assert!(field(l, "currmovenumber").is_some_and(|n| n >= 1), "{l}");
    }
}

#[test]
fn infinite_holds_bestmove_with_one_legal_move_and_with_mate_in_one() {
    let (mut s, out) = session();
    // Black's only move is Kh7.
    let only = "7k/8/5K2/8/8/8/8/6R1 b - - 0 1";
    let mut moves = Vec::new();
    Chess::parse_position(only)
        .unwrap()
        .generate_moves(&mut moves);
    assert_eq!(moves.len(), 1);
    for (fen, answer) in [
        (only, "bestmove h8h7"),
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "bestmove a1a8"),
    ] {
        send(&mut s, &[&format!("position fen {fen}"), "go infinite"]);
        std::thread::sleep(Duration::from_millis(300));
        let lines = out.lines();
        assert!(
            !lines.iter().any(|l| l.starts_with("bestmove")),
            "{fen}: {lines:?}"
        );
        send(&mut s, &["isready"]);
        assert!(!out.lines().iter().any(|l| l.starts_with("bestmove")));
        s.handle("stop");
        let lines = out.take();
        assert!(lines.last().unwrap().starts_with(answer), "{lines:?}");
        assert_eq!(
            lines.iter().filter(|l| l.starts_with("bestmove")).count(),
            1
        );
    }
}

#[test]
fn go_mate_is_a_mate_search_to_2n_minus_1_plies() {
    let (mut s, out) = session();
    // Mate in 1 is found and said.
    send(
        &mut s,
        &[
            "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
            "go mate 1",
        ],
    );
    s.wait();
    let lines = out.take();
    assert!(
        lines
            .iter()
            .any(|l| l == "info string mate in 1 found (asked: mate in 1)"),
        "{lines:?}"
    );
    assert!(lines.last().unwrap().starts_with("bestmove a1a8"));
    // No mate in 2 from the start: 3 plies are searched, and the engine says so.
    send(&mut s, &["position startpos", "go mate 2"]);
    s.wait();
    let lines = out.take();
    let depths: Vec<u64> = depth_lines(&lines)
        .iter()
        .filter_map(|l| field(l, "depth"))
        .collect();
    assert_eq!(depths, vec![1, 2, 3], "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string no mate in 2 found")),
        "{lines:?}"
    );
    legal_bestmove(&lines, &Chess::start());
}

#[test]
fn threads_alone_select_the_parallel_algorithm() {
    let (mut s, out) = session();
    send(
        &mut s,
        &[
            "setoption name Threads value 2",
            "position startpos",
            "go depth 2",
        ],
    );
    s.wait();
    let lines = out.take();
    assert!(!lines.iter().any(|l| l.contains("no effect")), "{lines:?}");
    assert_eq!(depth_lines(&lines).len(), 2, "{lines:?}");
    legal_bestmove(&lines, &Chess::start());
    // Naming a sequential algorithm keeps it, with a note that the threads are unused.
    send(
        &mut s,
        &["setoption name Algorithm value pvs", "go depth 1"],
    );
    s.wait();
    assert!(out.take().iter().any(|l| l.contains("no effect")));
}

#[test]
fn bench_counts_the_same_nodes_every_time_and_d_shows_the_position() {
    let (mut s, out) = session();
    send(&mut s, &["bench 2"]);
    let first = out.take();
    let summary = first.last().unwrap().clone();
    assert!(
        summary.starts_with("bench depth 2: 6 positions, "),
        "{first:?}"
    );
    let nodes = |line: &str| -> u64 {
        line.split(", ")
            .find_map(|part| part.strip_suffix(" nodes"))
            .and_then(|n| n.parse().ok())
            .unwrap()
    };
    assert!(nodes(&summary) > 0);
    assert!(
        summary.ends_with(" nps") && !summary.contains(" 0 nps"),
        "{summary}"
    );
    let per_position: u64 = first[..first.len() - 1]
        .iter()
        .map(|l| {
            l.split_whitespace()
                .nth(5)
                .and_then(|n| n.parse::<u64>().ok())
                .unwrap()
        })
        .sum();
    assert_eq!(per_position, nodes(&summary), "{first:?}");
    // Options do not change the signature.
    send(
        &mut s,
        &[
            "setoption name Hash value 1",
            "setoption name Setting value research",
            "bench 2",
        ],
    );
    assert_eq!(nodes(out.take().last().unwrap()), nodes(&summary));
    send(&mut s, &["bench 0"]);
    assert!(out.take()[0].contains("use 1 to"));
    send(&mut s, &["position startpos moves e2e4", "d"]);
    let lines = out.take();
    assert!(
        lines.contains(&" |   |   |   |   | P |   |   |   | 4".to_string()),
        "{lines:?}"
    );
    let pos = after(&["e2e4"]);
    assert!(lines.contains(&format!("Fen: {pos}")), "{lines:?}");
    assert_eq!(lines.last().unwrap(), &format!("Key: {:016X}", pos.hash()));
}

/// A `go infinite` whose search has ended by itself (mate in 1 is found at once) holds its
/// answer without waking: its thread sleeps until `stop`, however long that takes.
#[test]
fn a_finished_infinite_search_sleeps_until_stop() {
    let (mut s, out) = session();
    send(
        &mut s,
        &[
            "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
            "go infinite",
        ],
    );
    // The search ends by itself within moments (a mate in 1); then it holds for 200 ms.
    let start = std::time::Instant::now();
    while !out.lines().iter().any(|l| l.contains("score mate 1")) {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{:?}",
            out.lines()
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    std::thread::sleep(Duration::from_millis(200));
    let woke = s.hold_wakeups().expect("a search runs");
    assert!(!out.lines().iter().any(|l| l.starts_with("bestmove")));
    s.handle("stop");
    let lines = out.take();
    assert!(
        lines.last().unwrap().starts_with("bestmove a1a8"),
        "{lines:?}"
    );
    assert!(woke < 10, "{woke} wake-ups in 200 ms of holding");
}

#[test]
fn infinite_waits_for_stop_and_stop_answers_at_once() {
    let (mut s, out) = session();
    send(&mut s, &["position startpos", "go infinite"]);
    std::thread::sleep(Duration::from_millis(50));
    assert!(!out.lines().iter().any(|l| l.starts_with("bestmove")));
    // A second go and a setoption are refused while searching; isready is answered.
    send(
        &mut s,
        &["go depth 1", "setoption name Hash value 1", "isready"],
    );
    let lines = out.lines();
    assert!(lines.iter().any(|l| l.contains("go ignored")), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("setoption ignored")));
    assert!(lines.iter().any(|l| l == "readyok"));
    send(&mut s, &["stop"]);
    let lines = out.take();
    legal_bestmove(&lines, &Chess::start());
    // A shallow finished game: infinite still waits for stop after the mate is found.
    send(
        &mut s,
        &[
            "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
            "go infinite",
        ],
    );
    std::thread::sleep(Duration::from_millis(100));
    s.handle("stop");
    let lines = out.take();
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:?}"
    );
    assert!(
        lines.last().unwrap().starts_with("bestmove a1a8"),
        "{lines:?}"
    );
}

#[test]
fn a_clock_of_a_few_milliseconds_still_gives_a_legal_move() {
    let (mut s, out) = session();
    send(&mut s, &["position startpos", "go wtime 5 btime 5"]);
    s.wait();
    legal_bestmove(&out.take(), &Chess::start());
    send(&mut s, &["go movetime 20", "quit"]);
    legal_bestmove(&out.take(), &Chess::start());
}

#[test]
fn finished_games_answer_bestmove_none() {
    let (mut s, out) = session();
    // Fool's mate: White is mated.
    send(
        &mut s,
        &["position startpos moves f2f3 e7e5 g2g4 d8h4", "go depth 3"],
    );
    s.wait();
    assert_eq!(out.take().last().unwrap(), "bestmove (none)");
}

#[test]
fn parallel_algorithms_deepen_and_play_legal_moves() {
    let (mut s, out) = session();
    send(
        &mut s,
        &[
            "setoption name Threads value 2",
            "setoption name Algorithm value ybw",
            "ucinewgame",
            "position startpos moves d2d4",
            "go depth 3",
        ],
    );
    s.wait();
    let lines = out.take();
    let infos = depth_lines(&lines);
    assert_eq!(infos.len(), 3, "{lines:?}");
    for (i, l) in infos.iter().enumerate() {
        assert!(field(l, "seldepth").is_some_and(|s| s > i as u64), "{l}");
        assert!(field(l, "nps").is_some_and(|n| n > 0), "{l}");
        assert!(field(l, "hashfull").is_some_and(|h| h <= 1000), "{l}");
    }
    // Lazy SMP reports its shared table too.
    send(
        &mut s,
        &["setoption name Algorithm value lazysmp", "go depth 2"],
    );
    s.wait();
    let lines = out.take();
    let infos = depth_lines(&lines);
    assert_eq!(infos.len(), 2, "{lines:?}");
    for l in infos {
        assert!(field(l, "hashfull").is_some(), "{l}");
        assert!(field(l, "seldepth").is_some(), "{l}");
    }
    let mut pos = Chess::start();
    let mv = pos.parse_move("d2d4").unwrap();
    let _ = pos.make_move(mv);
    legal_bestmove(&lines, &pos);
    // APHID reports the mean fill of its processors' tables.
    send(
        &mut s,
        &["setoption name Algorithm value aphid", "go depth 2"],
    );
    s.wait();
    let lines = out.take();
    let infos = depth_lines(&lines);
    assert!(!infos.is_empty(), "{lines:?}");
    for l in infos {
        assert!(field(l, "hashfull").is_some_and(|h| h <= 1000), "{l}");
    }
}

#[test]
fn the_end_of_the_input_stops_the_search_and_answers() {
    let (mut s, out) = session();
    s.run(Cursor::new(
        "uci\nisready\nposition startpos\ngo infinite\n",
    ));
    let lines = out.lines();
    assert!(lines.contains(&"readyok".to_string()));
    legal_bestmove(&lines, &Chess::start());
}

#[test]
fn a_claimable_draw_still_gets_a_move() {
    let (mut s, out) = session();
    // Knights out and back twice: the start position for the third time.
    send(
        &mut s,
        &[
            "position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8",
            "go depth 2",
        ],
    );
    s.wait();
    let lines = out.take();
    assert!(lines[0].contains("ThreefoldRepetition"), "{lines:?}");
    legal_bestmove(&lines, &Chess::start());
    // Fifty moves without capture or pawn move.
    send(
        &mut s,
        &[
            "position fen 4k3/8/8/8/8/8/8/R3K3 w - - 100 80",
            "go depth 2",
        ],
    );
    s.wait();
    let lines = out.take();
    assert!(lines[0].contains("FiftyMoves"), "{lines:?}");
    assert!(lines.last().unwrap().starts_with("bestmove "));
    assert_ne!(lines.last().unwrap(), "bestmove (none)");
    // Insufficient material is over: no move.
    send(
        &mut s,
        &["position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1", "go depth 2"],
    );
    s.wait();
    assert_eq!(out.take().last().unwrap(), "bestmove (none)");
}

#[test]
fn lines_that_are_not_utf8_are_skipped() {
    let (mut s, out) = session();
    s.run(Cursor::new(b"isready\n\xff\xfe go\nisready\n".to_vec()));
    assert_eq!(
        out.lines(),
        vec![
            "readyok".to_string(),
            "info string a line that is not UTF-8 was ignored".to_string(),
            "readyok".to_string()
        ]
    );
}

/// A writer that holds the search thread inside its first `bestmove` write until the test
/// releases it, so the test can send the next command while that thread has not returned.
#[derive(Clone, Default)]
struct GatedBuffer {
    inner: Buffer,
    released: Arc<(Mutex<bool>, std::sync::Condvar)>,
}

impl Write for GatedBuffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        if buf.starts_with(b"bestmove") {
            let (lock, cvar) = &*self.released;
            let mut open = lock.lock().unwrap();
            while !*open {
                open = cvar.wait(open).unwrap();
            }
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_go_right_after_bestmove_is_searched_not_refused() {
    // A GUI sends the next `go` as soon as it reads `bestmove`; the search thread may still be
    // returning then. This once made the engine answer "go ignored: a search is already
    // running" and never send a move (a python-chess self-play game hung).
    let buf = GatedBuffer::default();
    let mut s = Session::new(Output::new(buf.clone()));
    send(&mut s, &["position startpos", "go depth 2"]);
    // Wait until the thread is inside its bestmove write (held there by the gate).
    let start = std::time::Instant::now();
    while !buf.inner.lines().iter().any(|l| l.starts_with("bestmove")) {
        assert!(start.elapsed() < Duration::from_secs(60), "no bestmove");
        std::thread::sleep(Duration::from_millis(1));
    }
    // Release the gate a little later, from another thread, while the next go is handled.
    let gate = Arc::clone(&buf.released);
    let opener = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        *gate.0.lock().unwrap() = true;
        gate.1.notify_all();
    });
    send(&mut s, &["position startpos moves e2e4", "go depth 2"]);
    s.wait();
    opener.join().unwrap();
    let lines = buf.inner.take();
    assert!(!lines.iter().any(|l| l.contains("go ignored")), "{lines:?}");
    let answers = lines.iter().filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(answers, 2, "{lines:?}");
    let mut pos = Chess::start();
    let _ = pos.make_move(pos.parse_move("e2e4").unwrap());
    legal_bestmove(&lines, &pos);
}
