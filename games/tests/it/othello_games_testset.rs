//! `testsets/search/othello_games.txt` holds the positions before plies 18 to 27 of the two games
//! whose move lists its header gives: replaying the games must give exactly those positions, in
//! order, so that the set can be checked and regenerated.
use games::Game;
use games::othello::Othello8;

const SET: &str = "../testsets/search/othello_games.txt";

/// The positions before plies `from..=to` of the game `moves` from the standard start.
fn replay(moves: &[&str], from: usize, to: usize) -> Vec<String> {
    let all = games::replay::replay(&Othello8::start(), moves).expect("a legal game");
    all[from - 1..to].iter().map(ToString::to_string).collect()
}

#[test]
fn the_positions_are_moves_18_to_27_of_the_two_games() {
    let text = std::fs::read_to_string(SET).expect("the test set is in the repository");
    let games: Vec<Vec<&str>> = text
        .lines()
        .filter_map(|l| l.strip_prefix("# game "))
        .map(|l| l.split_once(':').expect("`# game N: moves`").1)
        .map(|moves| moves.split_whitespace().collect())
        .collect();
    assert_eq!(games.len(), 2, "two game records in the header");
    let listed: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let replayed: Vec<String> = games.iter().flat_map(|g| replay(g, 18, 27)).collect();
    assert_eq!(listed.len(), 20);
    assert_eq!(listed, replayed);
    for (line, pos) in listed.iter().zip(&replayed) {
        let parsed = Othello8::parse_position(line).expect("a valid position");
        assert_eq!(&parsed.to_string(), pos);
        assert!(!parsed.is_over(), "a middle-game position: {line}");
        let empties = parsed.empties().count_ones();
        assert!((34..=43).contains(&empties), "{empties} empties: {line}");
    }
}
