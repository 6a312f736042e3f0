#!/usr/bin/env bash
# Tests .ci/no_diary.sh in a scratch git repository: each diary form is caught with its
# file:line and exit status 1, untracked and other files are not read, and a clean tree
# passes with exit status 0.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
git init -q .
mkdir -p .ci src
cp "$here/no_diary.sh" .ci/no_diary.sh

fail() { echo "no_diary_test: $*" >&2; exit 1; }

# A clean tree: present-tense prose, a tree's branches, an MPI session object.
printf '# Notes\n\nThe solver orders moves; each branch of the tree is searched once.\n' > README.md
printf '// The MPI session lives until the run ends.\nfn main() {}\n' > src/main.rs
printf '[package]\nname = "x"\n' > Cargo.toml
git add -A
.ci/no_diary.sh >out.txt 2>err.txt || fail "a clean tree failed: $(cat out.txt err.txt)"

# The paths a development machine has, assembled here so that this file names none.
work=work home=home up=..

# Every diary form, one per line, in every kind of tracked file.
lines=(
    "Measured in session 4."
    "See Session 12 for the numbers."
    "the session-3 run"
    "Re-run at the end of session 5."
    "As in this session's table."
    "The coordinator's quiet run."
    "Fixed for issue 6."
    "the target (issue 6) is met"
    "Measured on 2026-11-22."
    "Before the fix it read 3.10."
    "The counts after the fix."
    "What used to be a flag."
    "See /${work}/shared/papers for it."
    "Copied from ${up}/shared/data/x.tsv."
    "Written in /${home}/me/notes."
)
i=0
for text in "${lines[@]}"; do
    i=$((i + 1))
    case $((i % 4)) in
        0) f="doc$i.md"; printf '%s\n' "$text" > "$f" ;;
        1) f="src/m$i.rs"; printf '// %s\n' "$text" > "$f" ;;
        2) f="c$i.toml"; printf '# %s\n' "$text" > "$f" ;;
        3) f="s$i.py"; printf '# %s\n' "$text" > "$f" ;;
    esac
    git add "$f"
    if .ci/no_diary.sh >out.txt 2>err.txt; then
        fail "not caught: '$text' in $f"
    else
        status=$?
    fi
    [ "$status" -eq 1 ] || fail "exit status $status for '$text', want 1"
    grep -q "^$f:1:" out.txt || fail "'$text' not listed as $f:1: $(cat out.txt)"
    git rm -q --cached "$f"
    rm "$f"
done

# Files under .ci/ are read whatever their name; the script itself is not.
printf 'echo "coordinator"\n' > .ci/run
git add .ci/run
if .ci/no_diary.sh >out.txt 2>err.txt; then fail ".ci/run was not read"; fi
grep -q '^.ci/run:1:' out.txt || fail ".ci/run not listed: $(cat out.txt)"
git rm -q --cached .ci/run
rm .ci/run

# Data files are read too.
printf 'line\tsource: %s/shared/data/x.tsv\n' "$up" > table.tsv
git add table.tsv
if .ci/no_diary.sh >out.txt 2>err.txt; then fail "table.tsv was not read"; fi
grep -q '^table.tsv:1:' out.txt || fail "table.tsv not listed: $(cat out.txt)"
git rm -q --cached table.tsv
rm table.tsv

# The generated results pages are not read: they carry their runs' dates.
mkdir -p docs/results
printf -- '- date: 2026-11-29 05:49:40 UTC\n' > docs/results/page.md
git add docs/results/page.md
.ci/no_diary.sh >out.txt 2>err.txt || fail "a generated page was read: $(cat out.txt)"
git rm -q --cached docs/results/page.md
rm docs/results/page.md

# Untracked files and other extensions are not read.
printf 'session 4\n' > untracked.md
printf 'session 4\n' > notes.log
git add notes.log
.ci/no_diary.sh >out.txt 2>err.txt || fail "an untracked .md or a tracked .log was read: $(cat out.txt)"

echo "no_diary_test: ok"
