#!/bin/sh
# saved.sh - a saved summary is an input (issue #15): the reports and the
# tables re-rendered from it alone are byte for byte those of the traces;
# what only traces can give is a usage error, not a silent difference.
. "$PR_SRCDIR/tests/lib.sh"

IN=$PR_SRCDIR/examples/resnet_like.pt.trace.json.gz
SOURCE_DATE_EPOCH=1700000000
export SOURCE_DATE_EPOCH
cd "$T_DIR" || exit 1

"$PR_BIN" -q --input "$IN" --json s.json --html a.html --pdf a.pdf
check "the trace gives a summary" [ -s s.json ]
"$PR_BIN" -q --input s.json --json t.json --html b.html --pdf b.pdf \
    2> err
check "a saved summary is an input (exit 0: $(head -c 200 err))" [ $? -eq 0 ]
check "  its JSON is the summary itself" cmp -s s.json t.json
check "  its HTML is the trace's, byte for byte" cmp -s a.html b.html
check "  its PDF is the trace's, byte for byte" cmp -s a.pdf b.pdf
for k in operators kernels memory steps; do
    "$PR_BIN" table --input "$IN" --kind "$k" > ta.txt 2> /dev/null
    "$PR_BIN" table --input s.json --kind "$k" > tb.txt 2> err
    check "table --kind $k from the summary is the trace's" cmp -s ta.txt tb.txt
done
"$PR_BIN" table --input s.json --kind operators --csv > tc.txt 2> err
check "table --csv from the summary" [ -s tc.txt ]

"$PR_BIN" table --input s.json --kind kernel-calls > /dev/null 2> err
check "kernel-calls from a summary is a usage error" [ $? -eq 1 ]
check "  that says it needs the traces" grep -q "needs the traces" err
"$PR_BIN" -q --input s.json --input "$IN" --json m.json 2> err
check "a summary mixed with a trace is a usage error" [ $? -eq 1 ]
"$PR_BIN" -q --input s.json --peak-tflops 100 --json m.json 2> err
check "--peak-tflops with a summary is a usage error" [ $? -eq 1 ]
"$PR_BIN" -q --input s.json --input t.json --json m.json 2> err
check "two summaries of one run are refused (exit 2)" [ $? -eq 2 ]
check "  naming both files" grep -q "s.json and t.json: both hold run" err
check "  and nothing is written" [ ! -e m.json ]

# damaged figures (issue #35): a negative time or count, a number cJSON
# reads as infinity; refused with their path in the tree, exit 2
B=$PR_SRCDIR/tests/data/diff/base.json
sed '0,/"duration_us": 97806.2/s//"duration_us": -97806.2/' "$B" > neg.json
"$PR_BIN" -q --input neg.json --json m.json 2> err
check "a negative step time is refused (exit 2: $(head -c 200 err))" [ $? -eq 2 ]
check "  naming its path and why" grep -q \
    "neg.json: runs\[0\].steps\[0\].duration_us: -97806.2, but a time, count or size is never negative" err
check "  and nothing is written" [ ! -e m.json ]
sed '0,/"duration_us": 97806.2/s//"duration_us": 1e999/' "$B" > inf.json
"$PR_BIN" diff -q -b inf.json -i "$B" 2> err
check "diff: a step time of 1e999 is refused (exit 2: $(head -c 200 err))" \
    [ $? -eq 2 ]
check "  as no finite number" grep -q \
    "inf.json: runs\[0\].steps\[0\].duration_us: expected a finite number" err
cnt=$(grep -m1 -n '"calls": [0-9]' "$B" | cut -d: -f1)
sed "${cnt}s/\"calls\": \([0-9]*\)/\"calls\": -\1/" "$B" > negcalls.json
"$PR_BIN" -q --input negcalls.json --json m.json 2> err
check "a negative call count is refused (exit 2: $(head -c 200 err))" [ $? -eq 2 ]

echo "1..$T_N"
