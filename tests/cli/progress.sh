#!/bin/sh
# progress.sh - a single input says how far it is (issue #32): the bytes
# read of the total with the percent (off a terminal one plain line per
# quarter; on one an updating line), then the named phases "analysing"
# and "writing FILE" with their durations, for a single file and for a
# folder; nothing under -q; nothing for a small input unless --progress;
# a table's rows on stdout never mixed with it.
. "$PR_SRCDIR/tests/lib.sh"

cd "$T_DIR" || exit 1
"$PR_GEN" --size-mb 12 -o big.json > /dev/null

# off a terminal, --progress (a 12 MB input is below the default's 64 MiB)
"$PR_BIN" --progress -i big.json --json j.json --html h.html 2> err
check "exit 0 and the reports" test -s j.json -a -s h.html
check "the start: the file and its size" grep -qx "profreport: reading big.json: 1[23] MB" err
# the percents said: three, rising, each past the next quarter
sed -n 's/^profreport: reading big.json: \([0-9]*\)% of 1[23] MB, [0-9.]* s.*/\1/p' err > pct
check "a line per quarter of the bytes, with the percent of the total" \
    awk 'NR == 1 && $1 < 25 { bad = 1 } NR == 2 && $1 < 50 { bad = 1 }
         NR == 3 && $1 < 75 { bad = 1 } $1 >= 100 { bad = 1 }
         END { exit bad || NR != 3 }' pct
check "the end of reading, with its duration" grep -qx "profreport: read 1[23] MB in [0-9.]* s" err
check "the analysis as a phase with its duration" grep -qx "profreport: analysing: [0-9.]* s" err
check "each output as a phase with its duration" \
    sh -c 'grep -qx "profreport: writing h.html: [0-9.]* s" err &&
           grep -qx "profreport: writing j.json: [0-9.]* s" err'
check "  in that order" sh -c '
    grep -n "" err | sed -n "s/^\([0-9]*\):profreport: \(read \|analysing\|writing j\).*/\1 \2/p" |
        awk "{print \$2}" | tr "\n" " " | grep -qx "read analysing writing "'
check "no terminal codes off a terminal" sh -c '! grep -q "$(printf "\r")" err'

# a small input without --progress: silent; -q silences --progress
"$PR_BIN" -i big.json --json j2.json 2> small.err
check "small input, no --progress: no progress" sh -c '! grep -q "reading\|analysing" small.err'
"$PR_BIN" -q --progress -i big.json --json j3.json 2> q.err
check "-q: nothing on stderr" test ! -s q.err

# gzip'd: the percent of the compressed bytes
gzip -c big.json > big.json.gz
"$PR_BIN" --progress -i big.json.gz --json z.json 2> gz.err
check "a .gz: percent of its compressed size" \
    sh -c 'grep -q "^profreport: reading big.json.gz: 50% of [0-9]* [kM]B, " gz.err &&
           grep -q "^profreport: read [0-9]* [kM]B in " gz.err'

# a table: the progress ends before the rows, on stderr only
"$PR_BIN" table --progress -i big.json --kind kernels > t.out 2> t.err
check "table: phases on stderr" grep -qx "profreport: analysing: [0-9.]* s" t.err
check "  and none on stdout" sh -c '! grep -q "profreport:" t.out && test -s t.out'

# a folder: which file of how many, then the same phases
mkdir run && "$PR_GEN" --ranks 3 --size-mb 4 -o run > /dev/null
"$PR_BIN" --progress --jobs 1 -i run --json r.json 2> run.err
check "folder: file 1 of 3 and its size" grep -q "^profreport: reading file 1 of 3 (rank0\..*): 1[23] MB" run.err
check "  quarters of the folder's bytes" \
    test "$(grep -c "^profreport: reading file [0-9] of 3 (rank.*): [0-9]*% of 1[23] MB" run.err)" -eq 3
check "  read 3 files, then analysing and writing" \
    sh -c 'grep -qx "profreport: read 3 files, 1[23] MB, in [0-9.]* s" run.err &&
           grep -qx "profreport: analysing: [0-9.]* s" run.err &&
           grep -qx "profreport: writing r.json: [0-9.]* s" run.err'

# a terminal: one line rewritten in place, the phases on lines of their own
if ! command -v script > /dev/null 2>&1; then
    skip "progress on a terminal" "no script(1) to give the run a terminal"
else
    script -qec "'$PR_BIN' --progress -i big.json --pdf p.pdf" /dev/null > tty.out 2>&1
    tr '\r' '\n' < tty.out | sed "s/$(printf '\033')\[K//g" > lines
    check "terminal: the percent of the total, rewritten in place" \
        sh -c 'grep -q "^profreport: reading big.json: [0-9]*% of 1[23] MB, " lines &&
               grep -q "$(printf "\r")profreport: reading" tty.out'
    check "  the phase running, then its duration" \
        sh -c 'grep -qx "profreport: analysing \.\.\." lines &&
               grep -qx "profreport: analysing: [0-9.]* s" lines &&
               grep -qx "profreport: writing p.pdf: [0-9.]* s" lines'
fi
echo "1..$T_N"
