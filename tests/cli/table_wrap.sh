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

if have_shared && [ -d "$PR_SHARED/traces/tb_plugin/resnet50_num_workers_0" ]; then
    "$PR_BIN" table -q --input "$PR_SHARED/traces/tb_plugin/resnet50_num_workers_0" \
        --kind findings -w 80 > "$T_DIR/r.txt" 2> "$T_DIR/err"
    check "resnet50: the one worker said once" \
        grep -q "^Worker worker0 (every row)$" "$T_DIR/r.txt"
    check "resnet50: no Worker column; a Span column (two spans)" \
        grep -q "^Span  *#  *Finding" "$T_DIR/r.txt"
    check "resnet50: 'Input loading on the critical path' whole over two lines" \
        sh -c 'grep -q "  Input loading on  " "$1" && grep -q "^  *the critical path  " "$1"' \
        - "$T_DIR/r.txt"
    check "resnet50: no middle cut" sh -c '! grep -q "…" "$1"' - "$T_DIR/r.txt"
    check "resnet50: fits 80 (widest $(maxw "$T_DIR/r.txt"))" \
        [ "$(maxw "$T_DIR/r.txt")" -le 80 ]
    # one rule for every row: no operator loses "aten::" where others keep it
    "$PR_BIN" table -q --input "$PR_SHARED/traces/tb_plugin/resnet50_num_workers_0" \
        --kind operators -w 60 --top 10 > "$T_DIR/o.txt" 2> "$T_DIR/err"
    check "resnet50 operators at 60: every row keeps aten:: ($(sed -n 3p "$T_DIR/o.txt"))" \
        sh -c '[ "$(grep -c "^[0-9]\{13\}  aten::" "$1")" -ge 10 ]' - "$T_DIR/o.txt"
else
    skip "resnet50 findings at 80" "no shared traces"
fi
echo "1..$T_N"
