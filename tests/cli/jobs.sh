#!/bin/sh
# jobs.sh - rank files read at once (--jobs, issue #17) give the summary and
# the messages of reading them one after another: parts are merged in file
# order, the first failure in that order is the run's error, and a folder
# member that is not a trace is still named in a warning.
. "$PR_SRCDIR/tests/lib.sh"

W=$T_DIR/w
mkdir -p "$W"
SOURCE_DATE_EPOCH=1
export SOURCE_DATE_EPOCH

"$PR_GEN" --ranks 4 --steps 3 --blocks 2 --attn 1 -o "$W/run" > /dev/null
echo '{"not": "a trace"}' > "$W/run/notes.json"
for j in 1 3; do
    "$PR_BIN" --input "$W/run" --input "$PR_SRCDIR/examples/resnet_like.pt.trace.json.gz" \
        --jobs $j --json "$W/s$j.json" 2> "$W/err$j"
    check "--jobs $j: a 4-rank folder and a file exit 0" [ $? -eq 0 ]
done
check "--jobs 3 writes the summary of --jobs 1, byte for byte" \
    cmp -s "$W/s1.json" "$W/s3.json"
check "  with the same messages in the same order" cmp -s "$W/err1" "$W/err3"
check "  which name the member that is not a trace" grep -q "notes.json" "$W/err3"
runs=$(grep -o '"worker":' "$W/s3.json" | wc -l)
check "  and every rank is a run (inputs + runs name 5 workers each: $runs)" \
    [ "$runs" -ge 10 ]

# a damaged rank: the error of the first failing file in input order
head -c 300 "$W/run/$(ls "$W/run" | grep rank1 | head -1)" > "$W/bad1.json"
head -c 200 "$W/run/$(ls "$W/run" | grep rank2 | head -1)" > "$W/bad2.json"
for j in 1 4; do
    "$PR_BIN" -q --input "$W/run" --input "$W/bad1.json" --input "$W/bad2.json" \
        --jobs $j --json "$W/x$j.json" 2> "$W/xerr$j"
    check "--jobs $j: a damaged file exits 2" [ $? -eq 2 ]
    check "  and writes nothing" [ ! -e "$W/x$j.json" ]
done
check "--jobs 4 reports the first damaged file, as --jobs 1 does" \
    cmp -s "$W/xerr1" "$W/xerr4"
check "  which is bad1.json" grep -q "bad1.json" "$W/xerr4"

"$PR_BIN" --input "$W/run" --jobs 0 --json "$W/z.json" 2> "$W/zerr"
check "--jobs 0 is refused with exit 1" [ $? -eq 1 ]
check "  naming the option" grep -q -- "--jobs" "$W/zerr"

echo "1..$T_N"
