#!/bin/sh
# threads.sh - the work that runs on a second thread (the event sort's
# halves, the memory, source and module passes beside the operator and
# kernel tables; issue #17) gives the reports of one thread, byte for
# byte: the side's keys land where the one-thread order puts them.  CI
# runs this under ThreadSanitizer too.
. "$PR_SRCDIR/tests/lib.sh"

W=$T_DIR/w
mkdir -p "$W"
SOURCE_DATE_EPOCH=1
export SOURCE_DATE_EPOCH

# about 12,000 events, most out of order: both halves of the sort are big
"$PR_GEN" --steps 6 --memory --stack --python --blocks 4 --ranks 2 \
    -o "$W/run" > /dev/null
T1=$(ls "$W"/run/*rank0*)
for n in 1 2 3; do
    "$PR_BIN" --input "$T1" --threads $n --json "$W/s$n.json" \
        --html "$W/r$n.html" --quiet
    check "--threads $n exits 0" [ $? -eq 0 ]
done
for n in 2 3; do
    check "--threads $n writes the summary of --threads 1" \
        cmp -s "$W/s1.json" "$W/s$n.json"
    check "  and its HTML" cmp -s "$W/r1.html" "$W/r$n.html"
done
for k in memory sources modules source_view module_view; do
    check "  which holds the side passes' \"$k\"" \
        grep -q "^$(printf '\t\t\t')\"$k\":" "$W/s2.json"
done

# two ranks at once, each with the threads left over
"$PR_BIN" --input "$W/run" --jobs 1 --threads 4 --json "$W/j1.json" --quiet
"$PR_BIN" --input "$W/run" --jobs 2 --threads 4 --json "$W/j2.json" --quiet
check "--jobs 2 --threads 4 writes the summary of --jobs 1" \
    cmp -s "$W/j1.json" "$W/j2.json"

echo "1..$T_N"
