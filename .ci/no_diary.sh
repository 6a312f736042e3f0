#!/usr/bin/env bash
# Documents and comments say what is, in the present tense; history lives in git. This lists
# every line of a tracked text file (.md, .rs, .toml, .py, .sh, .tsv, .txt, .perft, .epd, and
# .ci/*) that reads like a diary: "session N", "this session", "coordinator", "issue N",
# "(issue", a calendar date in prose, "before the fix", "after the fix" or "used to be"; or that
# names a path of a development machine (its work folder or a home folder) or the folder of
# shared material beside the repository.
# Exit status 1 with file:line for each hit, 0 when there is none.
#
# Usage: .ci/no_diary.sh [PATHSPEC...]   (default: the whole repository)
set -euo pipefail
cd "$(dirname "$0")/.."

# The diary words, case-insensitive. A date counts when it looks like 2026-11-23 and is not the
# start of a string literal (test data of date formatting is not a date of work).
pattern='sessions?[ -][0-9]+|(this|previous|last|next) session|session-start|(end|start)[ -]of[ -](the[ -])?session|coordinator|issues? [0-9]+|\(issue|(^|[^"0-9])20[0-9]{2}-[01][0-9]-[0-3][0-9]\b|(before|after) the fix|used to be|/(work|home|Users)/|\.\./shared'

# The script and its test name the words it looks for. The generated results pages
# (docs/results/, written by the binary) carry the dates and machines of their runs.
skip=(".ci/no_diary.sh" ".ci/no_diary_test.sh")

files=()
while IFS= read -r -d '' f; do
    case " ${skip[*]} " in *" $f "*) continue ;; esac
    case "$f" in docs/results/*) continue ;; esac
    [ -f "$f" ] && files+=("$f")
done < <(git ls-files -z -- "${@:-.}" | grep -zE '\.(md|rs|toml|py|sh|tsv|txt|perft|epd)$|^\.ci/' || true)

if [ "${#files[@]}" -eq 0 ]; then
    exit 0
fi

hits=$(grep -nHiE -- "$pattern" "${files[@]}" || true)
if [ -n "$hits" ]; then
    echo "$hits"
    count=$(printf '%s\n' "$hits" | wc -l)
    echo "no_diary: $count line(s) read like a diary (sessions, issues, coordinator, dates of work, fixes) or name a machine's path; say what is, in the present tense, inside the repository" >&2
    exit 1
fi
exit 0
