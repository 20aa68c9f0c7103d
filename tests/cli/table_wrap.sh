#!/bin/sh
# table_wrap.sh - review 25u #10: at a narrow width the terminal table
# wraps a finding's name and evidence onto continuation lines under their
# own column instead of cutting them in the middle ("Input …al path"),
# and never runs past the width.  examples/resnet_like at -w 60, and the
# shared tb_plugin resnet50 (two spans of worker0) at 80.
. "$PR_SRCDIR/tests/lib.sh"

IN=$PR_SRCDIR/examples/resnet_like.pt.trace.json.gz
maxw() { awk '{ n = length($0); if (n > m) m = n } END { print m + 0 }' "$1"; }
"$PR_BIN" table -q --input "$IN" --kind findings -w 60 > "$T_DIR/f.txt" \
    2> "$T_DIR/err"
check "findings at 60 exit 0 ($(head -c 200 "$T_DIR/err"))" [ $? -eq 0 ]
check "no cell is cut in its middle" sh -c '! grep -q "…" "$1"' - "$T_DIR/f.txt"
check "the finding's name wraps under its column" \
    sh -c 'grep -q "^1  Input loading  " "$1" && grep -q "^   on the critical *$\|^   on the critical  " "$1"' \
    - "$T_DIR/f.txt"
check "every word of the evidence is there, in order" \
    sh -c 'cut -c45- "$1" | tr -d " \n" | grep -q "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__6.5ms"' \
    - "$T_DIR/f.txt"
check "fits 60 (widest $(maxw "$T_DIR/f.txt"))" [ "$(maxw "$T_DIR/f.txt")" -le 60 ]

# two spans of one worker (the example under two file-name stamps, as
# tb_plugin's runs): at 80 the 13-digit spans are numbered, the line above
# the table names them, and the evidence gets the columns they leave (s16
# gpuleft #3: 13 columns of Span beside an Evidence of 19); wide, the spans
# are whole in their column
mkdir -p "$T_DIR/two"
cp "$IN" "$T_DIR/two/worker0.1623000000001.pt.trace.json.gz"
cp "$IN" "$T_DIR/two/worker0.1623000000002.pt.trace.json.gz"
"$PR_BIN" table -q --input "$T_DIR/two" --kind findings -w 80 > "$T_DIR/s.txt" \
    2> "$T_DIR/err"
check "two spans at 80: the spans named above the table" \
    grep -q "^Span 1 = 1623000000001, span 2 = 1623000000002$" "$T_DIR/s.txt"
check "two spans at 80: rows by span number, no 13-digit cell" \
    sh -c 'grep -q "^Span  #  Finding" "$1" && grep -q "^1     1  " "$1" &&
           grep -q "^2     1  " "$1" && ! grep -q "^[0-9]\{13\}" "$1"' \
    - "$T_DIR/s.txt"
check "two spans at 80: the evidence starts at column 57 (was 61)" \
    [ "$(sed -n 4p "$T_DIR/s.txt" | grep -bo "enumerate" | cut -d: -f1)" = 57 ]
check "two spans at 80: fits 80 (widest $(maxw "$T_DIR/s.txt"))" \
    [ "$(maxw "$T_DIR/s.txt")" -le 80 ]
"$PR_BIN" table -q --input "$T_DIR/two" --kind findings -w 200 > "$T_DIR/s2.txt" \
    2> "$T_DIR/err"
check "two spans at 200: the spans whole in their column" \
    sh -c 'grep -q "^1623000000001  1  " "$1" && ! grep -q "^Span 1 = " "$1"' \
    - "$T_DIR/s2.txt"

if have_shared && [ -d "$PR_SHARED/traces/tb_plugin/resnet50_num_workers_0" ]; then
    "$PR_BIN" table -q --input "$PR_SHARED/traces/tb_plugin/resnet50_num_workers_0" \
        --kind findings -w 80 > "$T_DIR/r.txt" 2> "$T_DIR/err"
    check "resnet50: the one worker said once" \
        grep -q "^Worker worker0 (every row)$" "$T_DIR/r.txt"
    check "resnet50: no Worker column; a Span column (two spans)" \
        grep -q "^Span  *#  *Finding" "$T_DIR/r.txt"
    check "resnet50: 'Input loading on the critical path' whole over two lines" \
        sh -c 'grep -q "  Input loading on the  " "$1" && grep -q "^  *critical path  " "$1"' \
        - "$T_DIR/r.txt"
    check "resnet50: spans numbered, the evidence 23 wide (was 19)" \
        sh -c 'grep -q "^Span 1 = 1623143089861, span 2 = 1623143566756$" "$1" &&
               grep -q "  enumerate(DataLoader)#_$" "$1"' - "$T_DIR/r.txt"
    check "resnet50: no middle cut" sh -c '! grep -q "…" "$1"' - "$T_DIR/r.txt"
    check "resnet50: fits 80 (widest $(maxw "$T_DIR/r.txt"))" \
        [ "$(maxw "$T_DIR/r.txt")" -le 80 ]
    # one rule for every row: no operator loses "aten::" where others keep it
    "$PR_BIN" table -q --input "$PR_SHARED/traces/tb_plugin/resnet50_num_workers_0" \
        --kind operators -w 60 --top 10 > "$T_DIR/o.txt" 2> "$T_DIR/err"
    check "resnet50 operators at 60: every row keeps aten:: ($(sed -n 3p "$T_DIR/o.txt"))" \
        sh -c '[ "$(grep -c "^[12]  *aten::" "$1")" -ge 10 ]' - "$T_DIR/o.txt"
else
    skip "resnet50 findings at 80" "no shared traces"
fi
echo "1..$T_N"
