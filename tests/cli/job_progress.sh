#!/bin/sh
# job_progress.sh - reading a job's files says how far it is on a
# terminal (issue #33): file N of M, the bytes read of the total, the time
# and what is left, then the phase that follows; nothing with --quiet or
# when stderr is no terminal, and a file name never reaches the terminal
# as control characters.
. "$PR_SRCDIR/tests/lib.sh"

cd "$T_DIR" || exit 1
"$PR_GEN" --ranks 4 --steps 2 --blocks 1 --attn 0 -o run > /dev/null
cp run/rank3.*.pt.trace.json "run/rank3$(printf '\033')]0;x.pt.trace.json"
rm -f run/rank3.*.pt.trace.json
if ! command -v script > /dev/null 2>&1; then
    skip "progress on a terminal" "no script(1) to give the run a terminal"
else
    script -qec "'$PR_BIN' --input run --json j.json" /dev/null > tty.out 2>&1
    tr '\r' '\n' < tty.out > lines
    check "on a terminal: file 1 of 4 and file 4 of 4" \
        sh -c 'grep -q "file 1 of 4 (rank0" lines && grep -q "file 4 of 4 (rank3?]0;x" lines'
    check "  with the share read of the total" grep -q "file 4 of 4 .*: [0-9]*% of [0-9]* [kM]B, " lines
    check "  then the phases after the files" \
        sh -c 'grep -q "read 4 files, " lines && grep -q "writing j.json: " lines' 
    check "  and the name's escape character shown as '?'" \
        sh -c "! grep -q \"$(printf '\033')]0\" lines"
    script -qec "'$PR_BIN' -q --input run --json q.json" /dev/null > q.out 2>&1
    check "  --quiet: nothing" sh -c '! grep -q "file 1 of" q.out'
fi
"$PR_BIN" --input run --json p.json 2> pipe.err
check "stderr no terminal, a small folder: no progress line" sh -c '! grep -q "file 1 of" pipe.err'
echo "1..$T_N"
