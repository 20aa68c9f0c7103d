#!/bin/sh
# diff.sh - time and peak memory of `profreport diff` on synthetic saved
# summaries with many steps and many runs (issue #19: the noise tests and
# the pairing of runs must stay bounded).  Not a test: `make check` never
# runs it.
#
#   bench/diff.sh [PROFREPORT]
#
# PROFREPORT  the binary to measure (argument, else $PROFREPORT, else
#             ./profreport); BENCH_DIR the scratch folder (default
#             /tmp/profreport-bench); CASES the cases as STEPSxRUNS words
#             (default "1000x1 100000x1 1000000x1 20x10000"); BENCH_REPEAT
#             runs per case (default 1, the best is kept).
#
# Each case diffs a summary (bench/gen_summary.sh, seed 1) against one 5%
# slower (seed 2) with --json.  Prints a Markdown table: steps per run,
# runs, the two inputs' size, wall and user+system seconds, peak RSS.
set -u
LC_ALL=C
export LC_ALL

PROFREPORT=${1:-${PROFREPORT:-./profreport}}
BENCH_DIR=${BENCH_DIR:-/tmp/profreport-bench}
CASES=${CASES:-1000x1 100000x1 1000000x1 20x10000}
BENCH_REPEAT=${BENCH_REPEAT:-1}
GEN=$(dirname "$0")/gen_summary.sh
TIME=/usr/bin/time

die() { echo "diff.sh: $*" >&2; exit 2; }
[ -x "$PROFREPORT" ] || die "$PROFREPORT: no such program (argument or PROFREPORT)"
[ -x "$TIME" ] || die "$TIME missing (Debian: apt-get install time)"
mkdir -p "$BENCH_DIR" || die "cannot create $BENCH_DIR"

# gen STEPS RUNS SCALE SEED: makes (once) and names the summary.
gen() {
    f=$BENCH_DIR/sum_$1x$2_$4.json
    [ -s "$f" ] || sh "$GEN" "$1" "$2" "$3" "$4" > "$f" || die "gen_summary failed"
    echo "$f"
}

echo "| steps/run | runs | inputs (MB) | wall s | user+sys s | peak RSS (MiB) | exit |"
echo "|---:|---:|---:|---:|---:|---:|---|"
status=0
for c in $CASES; do
    steps=${c%x*}
    runs=${c#*x}
    b=$(gen "$steps" "$runs" 1 1)
    i=$(gen "$steps" "$runs" 1.05 2)
    mb=$(( ($(wc -c < "$b") + $(wc -c < "$i")) / 1000000 ))
    best=
    k=0
    while [ $k -lt "$BENCH_REPEAT" ]; do
        k=$((k + 1))
        $TIME -f '%e %U %S %M' -o "$BENCH_DIR/time.txt" "$PROFREPORT" diff -q \
            -b "$b" -i "$i" --json "$BENCH_DIR/diff.json" 2> "$BENCH_DIR/err"
        rc=$?
        set -- $(tail -n 1 "$BENCH_DIR/time.txt")
        line=$(awk -v w="$1" -v u="$2" -v s="$3" -v m="$4" \
            'BEGIN { printf "%.2f %.2f %.0f", w, u + s, m / 1024 }')
        if [ -z "$best" ] || [ "$(echo "$line $best" | awk '{ print ($2 < $5) }')" = 1 ]; then
            best=$line
        fi
    done
    set -- $best
    [ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || status=1
    echo "| $steps | $runs | $mb | $1 | $2 | $3 | $rc |"
    [ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || sed 's/^/    /' "$BENCH_DIR/err"
done
exit $status
