//! Replays the checkers games of `testsets/checkers/games.txt` (real games and published
//! analysis, each with its source): every move must be legal here, and where the source prints
//! the position after the moves, ours must be the same.

use std::path::Path;

use games::Game;
use games::checkers::Checkers;

#[derive(Default)]
struct Record {
    name: String,
    line: usize,
    position: Option<String>,
    moves: Vec<String>,
    final_position: Option<String>,
}

fn load() -> Vec<Record> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testsets/checkers/games.txt");
    let text = std::fs::read_to_string(&path).expect("testsets/checkers/games.txt is readable");
    let mut records: Vec<Record> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap().trim();
        if line.is_empty() {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        if key == "game" {
            records.push(Record {
                name: rest.to_string(),
                line: n + 1,
                ..Record::default()
            });
            continue;
        }
        let record = records
            .last_mut()
            .unwrap_or_else(|| panic!("games.txt:{}: '{key}' before 'game'", n + 1));
        match key {
            "source" => {}
            "position" => record.position = Some(rest.to_string()),
            "moves" => record
                .moves
                .extend(rest.split_whitespace().map(str::to_string)),
            "final" => record.final_position = Some(rest.to_string()),
            _ => panic!("games.txt:{}: unknown directive '{key}'", n + 1),
        }
    }
    records
}

#[test]
fn published_games_replay_move_by_move() {
    let records = load();
    assert!(records.len() >= 3, "too few records");
    let mut finals = 0;
    for r in &records {
        let here = format!("games.txt:{} ({})", r.line, r.name);
        let mut pos = match &r.position {
            Some(text) => Checkers::parse_position(text)
                .unwrap_or_else(|e| panic!("{here}: bad position: {e}")),
            None => Checkers::start(),
        };
        let printed = pos.to_string();
        let reparsed = Checkers::parse_position(&printed).unwrap();
        assert_eq!(reparsed, pos, "{here}: round trip");
        for (i, text) in r.moves.iter().enumerate() {
            assert!(
                pos.outcome().is_none(),
                "{here}: game over before move {text}"
            );
            let mv = pos
                .parse_move(text)
                .unwrap_or_else(|e| panic!("{here}: ply {} '{text}' in {pos}: {e}", i + 1));
            pos.make_move(mv);
            assert_eq!(pos.hash(), pos.compute_hash(), "{here}: hash after {text}");
        }
        if let Some(expected) = &r.final_position {
            let expected = Checkers::parse_position(expected)
                .unwrap_or_else(|e| panic!("{here}: bad final position: {e}"));
            // Sources print no no-progress counter: compare pieces and side to move.
            assert_eq!(
                pos.pieces(),
                expected.pieces(),
                "{here}: final position {pos}"
            );
            assert_eq!(pos.side_to_move(), expected.side_to_move(), "{here}: side");
            assert_eq!(pos.hash(), expected.hash(), "{here}: hash");
            finals += 1;
        }
    }
    assert!(finals >= 1);
}
