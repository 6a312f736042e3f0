//! The workspace's manifest: every entry of `[workspace.dependencies]` is used by at least one
//! member (as `NAME.workspace = true` in one of its dependency tables), so the list holds no
//! crate that nothing builds.

use std::path::Path;

use toml::Table;

/// The manifest at `path`, parsed.
fn manifest(path: &Path) -> Table {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{} is readable: {e}", path.display()));
    toml::from_str(&text).unwrap_or_else(|e| panic!("{} parses: {e}", path.display()))
}

/// The names a member takes from the workspace: the keys with `workspace = true` of its
/// `[dependencies]`, `[dev-dependencies]` and `[build-dependencies]`, also under `[target.*]`.
fn inherited(member: &Table) -> Vec<String> {
    let tables = ["dependencies", "dev-dependencies", "build-dependencies"];
    let mut scopes = vec![member];
    if let Some(targets) = member.get("target").and_then(toml::Value::as_table) {
        scopes.extend(targets.values().filter_map(toml::Value::as_table));
    }
    let mut names = Vec::new();
    for scope in scopes {
        for table in tables.iter().filter_map(|t| scope.get(*t)?.as_table()) {
            for (name, spec) in table {
                if spec.get("workspace").and_then(toml::Value::as_bool) == Some(true) {
                    names.push(name.clone());
                }
            }
        }
    }
    names
}

#[test]
fn every_workspace_dependency_is_used_by_a_member() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("runner lies in the workspace");
    let workspace = manifest(&root.join("Cargo.toml"));
    let section = workspace["workspace"]
        .as_table()
        .expect("a [workspace] table");
    let members: Vec<&str> = section["members"]
        .as_array()
        .expect("members")
        .iter()
        .map(|m| m.as_str().expect("a member path"))
        .collect();
    assert!(members.contains(&"runner"), "{members:?}");
    let used: Vec<String> = members
        .iter()
        .flat_map(|m| inherited(&manifest(&root.join(m).join("Cargo.toml"))))
        .collect();
    let declared = section["dependencies"]
        .as_table()
        .expect("[workspace.dependencies]");
    assert!(declared.len() > 5, "{declared:?}");
    let unused: Vec<&String> = declared
        .keys()
        .filter(|name| !used.contains(name))
        .collect();
    assert!(
        unused.is_empty(),
        "[workspace.dependencies] entries no member uses: {unused:?}"
    );
}
