#!/bin/sh
# hostile.sh - inputs built to break the arithmetic (issue #19): times at
# the edges of what the reader accepts (+-4.6e15 us), durations whose sums
# pass int64.  Every run must end (no hang), exit 0 or 2, and never show a
# negative time; under the sanitizer build any signed overflow aborts the
# run, so this also proves the sums are checked.
. "$PR_SRCDIR/tests/lib.sh"

H=$PR_SRCDIR/tests/data/hostile
# keys that hold a duration or total: never negative
NEG='"(kernel_time_us|total_us|duration_us|[a-z_]*self_us|mean_us|min_us|max_us|median_us|p90_us|bucket_us|computation_us|overlap_us|communication_us|other_us)":[[:space:]]*-'

for f in "$H"/*.json; do
    n=$(basename "$f")
    rm -f "$T_DIR/o.json" "$T_DIR/o.html" "$T_DIR/o.pdf"
    timeout 120 "$PR_BIN" -q --input "$f" --json "$T_DIR/o.json" \
        --html "$T_DIR/o.html" --pdf "$T_DIR/o.pdf" 2> "$T_DIR/err"
    rc=$?
    check "$n: ends with exit 0 or 2 (got $rc: $(head -c 300 "$T_DIR/err"))" \
        [ "$rc" -eq 0 -o "$rc" -eq 2 ]
    if [ "$rc" -eq 0 ]; then
        check "$n: no negative time in the summary" \
            sh -c "! grep -Eq '$NEG' '$T_DIR/o.json'"
    fi
    for k in operators kernels kernel-calls memory steps; do
        timeout 120 "$PR_BIN" table --input "$f" --kind "$k" \
            > /dev/null 2> "$T_DIR/err"
        rc=$?
        check "$n: table --kind $k ends with exit 0 or 2 (got $rc)" \
            [ "$rc" -eq 0 -o "$rc" -eq 2 ]
    done
done

echo "1..$T_N"
