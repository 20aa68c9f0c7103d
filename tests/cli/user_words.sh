#!/bin/sh
# user_words.sh - the CLI speaks in its users' words (issue #32): a skipped
# folder member lists what profreport reads by the producers' names, not
# the internal format ids; `table --help` lists the column ids of every
# kind, the same ids the table itself accepts, and the man page says the
# same; the HTML header names a worker's spans apart and the jobs by
# name; a folder of saved summaries is named as the user gave it, the
# traces' folder kept as a note.
. "$PR_SRCDIR/tests/lib.sh"

cd "$T_DIR" || exit 1

# --- a skipped member: producers' names
mkdir run && "$PR_GEN" --steps 2 -o run/w.1.pt.trace.json > /dev/null
echo "MIT License, and more" > run/LICENSE
"$PR_BIN" -i run --json j.json 2> skip.err
check "a skipped member is warned" grep -q "skipping run/LICENSE: not a format profreport reads" skip.err
check "  listing the producers in users' words" \
    sh -c 'grep -q "it reads: .*PyTorch/Kineto trace" skip.err &&
           grep -q "Nsight Systems SQLite export" skip.err &&
           grep -q "msprof PROF_ folder" skip.err'
check "  and no internal format id" \
    sh -c '! grep -q "kineto,\|ascend_db\|megengine-static\|msprof_op_summary" skip.err'

# --- table --help: every kind's column ids, from the table's catalogue
"$PR_BIN" table --help > help.out
kinds="operators kernels kernel-calls steps memory modules layers critical-path findings"
for k in $kinds; do
    check "table --help lists the kind $k" grep -q "^  $k:" help.out
    # the ids the table accepts for the kind, from its own usage error
    if [ "$k" = kernel-calls ]; then
        "$PR_BIN" table --kind "$k" -i run/w.1.pt.trace.json -c no_such_col > /dev/null 2> e.err
    else
        "$PR_BIN" table --kind "$k" -i j.json -c no_such_col > /dev/null 2> e.err
    fi
    ids=$(sed -n 's/.*unknown column .no_such_col. (one of: \(.*\))$/\1/p' e.err | tr ',' ' ')
    # the kind's lines in the help: from "  k:" to the next kind
    awk -v k="  $k:" 'index($0, k) == 1 { on = 1; print; next }
        on && /^  [a-z-]*:/ { exit } on { print }' help.out | tr -d '*' > k.txt
    missing=""
    for id in $ids; do
        grep -qw -- "$id" k.txt || missing="$missing $id"
    done
    check "  every id the $k table accepts (${ids:+$(echo $ids | wc -w) ids})$missing" \
        sh -c "[ -n '$ids' ] && [ -z '$missing' ]"
done
check "  the default columns marked" grep -q "^  operators: name\* " help.out
check "  lines of at most 78 characters" sh -c '! awk "length > 78" help.out | grep -q .'
MAN="$PR_SRCDIR/docs/profreport.1"
sed -n '/^Columns of each kind/,$p' help.out | tail -n +2 | tr -d '*' |
    awk '/^  [a-z-]*:/ { if (k) print k; k = $0; next } { k = k " " $0 }
         END { if (k) print k }' | sed 's/^ *//' > help.kinds
# the man page's list: ".TP / .B kind / ids..." under "Columns"
sed -n '/^\.\\" table columns begin/,/^\.\\" table columns end/p' "$MAN" |
    awk '/^\.B / { if (k) print k; k = $2; gsub(/\\-/, "-", k); k = k ":"; next }
         /^[a-z_]/ { k = k " " $0 } END { if (k) print k }' |
    tr -s ' ' > man.kinds
check "the man page lists the same column ids" \
    sh -c 'tr -s " \n" " " < help.kinds > a; tr -s " \n" " " < man.kinds > b; cmp -s a b'

# --- the HTML header: a worker's spans apart
mkdir spans
"$PR_GEN" --steps 2 -o spans/w0.100.pt.trace.json > /dev/null
"$PR_GEN" --steps 2 --seed 2 -o spans/w0.200.pt.trace.json > /dev/null
"$PR_BIN" -q -i spans --html s.html
check "header: one worker's two spans named apart" \
    grep -q "<dd>w0 (span 100), w0 (span 200)</dd>" s.html

# --- a folder of saved summaries: named as given, the traces' folder a note
mkdir -p traces nightly
"$PR_GEN" --ranks 2 --steps 2 -o traces/a > /dev/null
"$PR_GEN" --ranks 2 --steps 2 --seed 3 -o traces/b > /dev/null
"$PR_BIN" -q -i traces/a --json nightly/a.json
"$PR_BIN" -q -i traces/b --json nightly/b.json
"$PR_BIN" -i nightly --html n.html 2> saved.err
check "saved summaries: named by the folder given, the traces' as a note" \
    grep -q "^profreport: read 2 jobs from nightly (saved summaries of the traces in traces): a (ranks 0-1 of 2), b (ranks 0-1 of 2)" saved.err
check "header: the jobs by name" grep -q "<dd>4 runs in 2 jobs: a, b</dd>" n.html
"$PR_BIN" -i traces --json t.json 2> traces.err
check "  traces: named by their folder as before" \
    grep -q "^profreport: read 2 jobs from traces: a (ranks 0-1 of 2)" traces.err
echo "1..$T_N"
