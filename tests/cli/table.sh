#!/bin/sh
# table.sh - `profreport table`: every --kind, CSV quoting of kernel names
# full of commas, --json-out validity, -c/--sort/--filter/--top/--group-by,
# and -w fitting the width.  Uses examples/resnet_like (else the shared
# resnet50 trace); JSON checks need python3 and skip without it.
. "$PR_SRCDIR/tests/lib.sh"

done_tests() { echo "1..$T_N"; exit 0; }
have_py() { command -v python3 > /dev/null 2>&1; }

IN=$PR_SRCDIR/examples/resnet_like.pt.trace.json.gz
if [ ! -f "$IN" ]; then
    IN=$PR_SHARED/traces/tb_plugin/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz
fi
if [ ! -f "$IN" ]; then
    skip "table" "no example trace"
    done_tests
fi
T() { "$PR_BIN" table --input "$IN" "$@"; }

# --- every kind
for k in operators kernels kernel-calls memory steps; do
    T --kind "$k" --top 5 -w 250 > "$T_DIR/$k.txt" 2> "$T_DIR/err"
    check "--kind $k exits 0" [ $? -eq 0 ]
    check "--kind $k prints a header and rows" \
        [ "$(wc -l < "$T_DIR/$k.txt")" -ge 2 ]
done
check "--top 5 gives 5 rows" [ "$(wc -l < "$T_DIR/kernel-calls.txt")" -eq 6 ]
check "kernel-calls shows the default columns" \
    grep -q "^Kernel *Operator *Dir *Duration *TC *Grid *Block" \
    "$T_DIR/kernel-calls.txt"
T --kind bogus > /dev/null 2> "$T_DIR/err"
check "unknown --kind exits 1" [ $? -eq 1 ]
check "unknown --kind lists kernel-calls" grep -q "kernel-calls" "$T_DIR/err"

# --- CSV: kernel names such as "f<4, float>(int, int)" are quoted
T --kind kernel-calls --csv -c kernel,op,duration,grid > "$T_DIR/calls.csv"
check "--csv exits 0" [ $? -eq 0 ]
check "--csv header is the column ids, a time's with its unit" \
    [ "$(head -n 1 "$T_DIR/calls.csv")" = "kernel,op,duration_us,grid" ]
# Units in CSV headers (issue #32): a spreadsheet shows the header only.
T --kind memory --csv -c name,calls,size_increase > "$T_DIR/units.csv"
check "--csv: a size's header says bytes" \
    [ "$(head -n 1 "$T_DIR/units.csv")" = "name,calls,size_increase_bytes" ]
T --kind kernels --csv -c name,total,occupancy,tc > "$T_DIR/units.csv"
check "--csv: times in us, shares in pct; counts and yes/no without" \
    [ "$(head -n 1 "$T_DIR/units.csv")" = "name,total_us,occupancy_pct,tc" ]
T --kind kernels --csv -c name,total_us,occupancy_pct --sort total_us \
    > "$T_DIR/pasted.csv"
check "-c and --sort take a CSV header back" \
    [ "$(head -n 1 "$T_DIR/pasted.csv")" = "name,total_us,occupancy_pct" ]
T --kind kernels --json-out -c total --top 1 > "$T_DIR/ids.json"
check "--json-out keys stay the ids" grep -q '"total":' "$T_DIR/ids.json"
check "a kernel name with commas is quoted" grep -q '^"[^"]*,[^"]*",' \
    "$T_DIR/calls.csv"
if have_py; then
    python3 - "$T_DIR/calls.csv" > "$T_DIR/csvcheck" 2>&1 << 'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
bad = [r for r in rows if len(r) != 4]
print(len(rows), len(bad))
sys.exit(1 if bad or len(rows) < 2 else 0)
EOF
    check "every CSV row parses to 4 fields" [ $? -eq 0 ]
else
    skip "every CSV row parses to 4 fields" "no python3"
fi

# --- JSON
for k in operators kernels kernel-calls memory steps; do
    T --kind "$k" --json-out --top 20 > "$T_DIR/$k.json"
    if have_py; then
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if isinstance(d, list) and d else 1)' \
            "$T_DIR/$k.json"
        check "--json-out $k is a non-empty JSON array" [ $? -eq 0 ]
    else
        skip "--json-out $k is a non-empty JSON array" "no python3"
    fi
done

# --- columns, sort, filter
T --kind kernel-calls -c kernel,bogus > /dev/null 2> "$T_DIR/err"
check "-c with an unknown column exits 1" [ $? -eq 1 ]
check "the error names the column" grep -q "bogus" "$T_DIR/err"
check "the error lists the valid columns" \
    grep -q "kernel,op,direction,seq" "$T_DIR/err"
T --kind kernel-calls --sort nope > /dev/null 2> "$T_DIR/err"
check "--sort with an unknown column exits 1" [ $? -eq 1 ]

T --kind kernel-calls --sort duration --json-out -c kernel,duration,flops \
    > "$T_DIR/sorted.json"
if have_py; then
    python3 -c '
import json, sys
d = [r["duration"] for r in json.load(open(sys.argv[1]))]
sys.exit(0 if d and d == sorted(d, reverse=True) else 1)' "$T_DIR/sorted.json"
    check "--sort duration is descending" [ $? -eq 0 ]
else
    skip "--sort duration is descending" "no python3"
fi

T --kind kernel-calls --filter conv --csv -c kernel,op > "$T_DIR/conv.csv"
check "--filter keeps rows" [ "$(wc -l < "$T_DIR/conv.csv")" -ge 2 ]
check "--filter keeps only matching rows" \
    [ "$(tail -n +2 "$T_DIR/conv.csv" | grep -vc conv)" -eq 0 ]

# --- grouping and width
T --kind operators --group-by type > "$T_DIR/type.txt"
check "--group-by type exits 0" [ $? -eq 0 ]
check "--group-by type drops the aten namespace" \
    [ "$(tail -n +2 "$T_DIR/type.txt" | grep -c 'aten::')" -eq 0 ]
check "--group-by type merges in-place ops (add_ into add)" \
    [ "$(grep -c '^add_ ' "$T_DIR/type.txt")" -eq 0 ]
T --kind kernels --group-by type > /dev/null 2> "$T_DIR/err"
check "--group-by type is for operators only" [ $? -eq 1 ]

# Widths count characters (UTF-8 continuation bytes dropped): "µs" is one.
maxw() { tr -d '\200-\277' < "$1" | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }'; }
for k in operators kernels kernel-calls memory steps; do
    T --kind "$k" -w 60 --top 10 > "$T_DIR/w.txt"
    check "-w 60 fits $k in 60 columns (widest $(maxw "$T_DIR/w.txt"))" \
        [ "$(maxw "$T_DIR/w.txt")" -le 60 ]
    COLUMNS=72 T --kind "$k" --top 10 > "$T_DIR/c.txt"
    check "without -w, \$COLUMNS=72 fits $k (widest $(maxw "$T_DIR/c.txt"))" \
        [ "$(maxw "$T_DIR/c.txt")" -le 72 ]
done
COLUMNS=72 T --kind operators -w 100 --top 10 > "$T_DIR/c.txt"
check "-w wins over \$COLUMNS" [ "$(maxw "$T_DIR/c.txt")" -gt 72 ]
T --kind kernels -w 40 --top 3 > "$T_DIR/narrow.txt"
check "columns that cannot fit are named, not cut" \
    sh -c "grep -A9 '^([0-9]* more column' '$T_DIR/narrow.txt' | tr '\n' ' ' |
           grep -q 'max, occupancy, tc, family, math, rule; widen with -w'"
check "the note on them fits -w 40 too (widest $(maxw "$T_DIR/narrow.txt"))" \
    [ "$(maxw "$T_DIR/narrow.txt")" -le 40 ]

# The name column gets the room the numbers leave (issue #32): at -w 120
# the kernels of a real trace read 18 characters wide while numbers and
# family/math/rule columns kept theirs.  Names keep 40 characters (2/5
# of a wider width) while a column right of them can go instead.
HTA=$PR_SHARED/traces/hta/trace_diff/control
namew() { awk -F'  +' 'NR > 1 && !/^\(/ { n = $1; gsub(/[\200-\277]/, "", n); if (length(n) > m) m = length(n) } END { print m + 0 }' "$1"; }
if [ -d "$HTA" ]; then
    prev=0
    for w in 60 80 100 120 160 200; do
        "$PR_BIN" table -i "$HTA" --kind kernels -w $w --top 20 > "$T_DIR/hw.txt"
        room=$((w * 2 / 5)); [ $room -lt 40 ] && room=$((w / 2 < 40 ? w / 2 : 40))
        got=$(namew "$T_DIR/hw.txt")
        check "-w $w: kernel names get $room or more characters (got $got)" \
            [ "$got" -ge $room ]
        check "-w $w: fits (widest $(maxw "$T_DIR/hw.txt"))" \
            [ "$(maxw "$T_DIR/hw.txt")" -le $w ]
        check "-w $w keeps the numbers left of the dropped columns" \
            grep -q "^Kernel  *Calls  *Total" "$T_DIR/hw.txt"
        # 20 different kernels: 20 different shortened names (issue #32)
        shown=$(awk -F'  +' '/^\(/ { exit } NR > 1 && !/^ / { print $1 }' "$T_DIR/hw.txt" |
                sort -u | wc -l)
        check "-w $w: 20 kernels read as 20 names (got $shown)" \
            [ "$shown" -eq 20 ]
    done
    "$PR_BIN" table -i "$HTA" --kind kernels -w 120 --top 20 > "$T_DIR/hw.txt"
    check "-w 120 names the columns it left out" \
        sh -c "tr '\n' ' ' < '$T_DIR/hw.txt' | grep -q 'more column.*rule; widen with -w'"
else
    skip "name column at -w 60..200" "no shared traces at $PR_SHARED/traces"
fi

# --- human units in text, data in CSV and JSON
T --kind operators --top 10 > "$T_DIR/ops.txt"
check "times read as ms / µs" grep -q " ms  .* µs\| µs  .* ms" "$T_DIR/ops.txt"
T --kind memory --top 10 > "$T_DIR/mem.txt"
check "sizes read in binary units" grep -q "[0-9] [KMG]iB" "$T_DIR/mem.txt"
T --kind operators --top 10 --csv -c name,device_self > "$T_DIR/ops.csv"
check "CSV keeps plain numbers" \
    awk -F, 'NR > 1 && $2 !~ /^[0-9.]+$/ { bad = 1 } END { exit bad }' \
    "$T_DIR/ops.csv"
T --kind kernels --csv -c name > "$T_DIR/names.csv"
T --kind kernels -w 80 -c name,total > "$T_DIR/names.txt"
check "CSV keeps kernel names in full (longest $(maxw "$T_DIR/names.csv"))" \
    [ "$(maxw "$T_DIR/names.csv")" -gt 100 ]
check "text shows them shortened, without 'void '" \
    [ "$(grep -c '^void ' "$T_DIR/names.txt")" -eq 0 ]

# review 25u #11: the usage message names every kind table --help lists
"$PR_BIN" table --input "$IN" > /dev/null 2> "$T_DIR/nokind.err"
check "table without --kind lists all nine kinds" \
    grep -q "operators|kernels|kernel-calls|memory|steps|modules|layers|critical-path|findings" \
    "$T_DIR/nokind.err"

done_tests
