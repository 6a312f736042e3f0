//! The 6x6 roots of Rezaie and Finkel's experiments have the tree size their file's header claims:
//! under EC-sorted MWF with deep cutoffs (the reading whose one-processor tree the roots were
//! chosen by) on one simulated processor, every root's depth-9 tree holds 200 to 334 thousand
//! search nodes (within 25 % of the paper's 267 thousand), with the counts the header lists.

use crate::common;

use common::json_of;

#[test]
fn every_root_has_the_papers_tree_size() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testsets/search/othello6_rezaie_finkel.txt"
    ))
    .expect("the test set");
    let roots: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .collect();
    assert_eq!(roots.len(), 8);
    let mut thousands = Vec::new();
    for root in roots {
        let v = json_of(&[
            "search",
            "--game",
            "othello6",
            "--position",
            root,
            "--algo",
            "mwf",
            "--mwf-cutoffs",
            "deep",
            "--sort",
            "ec",
            "--sort-depth",
            "6",
            "--unsorted",
            "--depth",
            "9",
            "--procs",
            "1",
            "--backend",
            "sim",
            "--min-split-depth",
            "2",
            "--json",
        ]);
        let nodes = v["nodes"].as_u64().expect("nodes");
        assert!((200_000..=334_000).contains(&nodes), "{root}: {nodes}");
        thousands.push((nodes + 500) / 1000);
    }
    // The header's list.
    assert_eq!(thousands, [210, 240, 316, 246, 302, 268, 280, 239]);
}
