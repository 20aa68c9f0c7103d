#!/bin/sh
# run.sh - ingest benchmark: time and peak memory of
# `profreport --input FILE --json OUT --quiet` (with BENCH_FULL=1 the full
# job, `--json --html --pdf`) on synthetic traces of 10 MB, 200 MB and
# 1 GB, plain and gzip.  Not a test: `make check` never runs it.
#
#   bench/run.sh [PROFREPORT]
#
# PROFREPORT  the binary to measure (argument, else $PROFREPORT, else
#             ./profreport); GEN_TRACE the generator (default
#             ./bench/gen_trace next to it); BENCH_DIR the scratch folder
#             (default /tmp/profreport-bench); SIZES the sizes in MB
#             (default "10 200 1000"); FORMATS "plain gzip" (default) or
#             one of them; BENCH_REPEAT runs per file (default 1, the best
#             is kept); BENCH_FULL=1 also writes the HTML and PDF reports.
#             Traces are generated once and reused.
#
# Prints a Markdown table: uncompressed size, format, wall seconds, MB/s of
# uncompressed trace, CPU (user + system) seconds and MB per CPU second,
# peak RSS (MiB), its ratio to the trace size and the memory target of
# 0.25 x uncompressed size + 64 MiB with pass/fail.  Exits 1 if the tool
# failed on any input or missed a memory target.
set -u
LC_ALL=C
export LC_ALL

PROFREPORT=${1:-${PROFREPORT:-./profreport}}
GEN_TRACE=${GEN_TRACE:-$(dirname "$PROFREPORT")/bench/gen_trace}
BENCH_DIR=${BENCH_DIR:-/tmp/profreport-bench}
SIZES=${SIZES:-10 200 1000}
BENCH_REPEAT=${BENCH_REPEAT:-1}
FORMATS=${FORMATS:-plain gzip}
BENCH_FULL=${BENCH_FULL:-0}
TIME=/usr/bin/time

die() { echo "run.sh: $*" >&2; exit 2; }
[ -x "$PROFREPORT" ] || die "$PROFREPORT: no such program (argument or PROFREPORT)"
[ -x "$GEN_TRACE" ] || die "$GEN_TRACE: no such program (set GEN_TRACE)"
[ -x "$TIME" ] || die "$TIME missing (Debian: apt-get install time)"
mkdir -p "$BENCH_DIR" || die "cannot create $BENCH_DIR"

# gen SIZE_MB FORMAT: makes (once) and names the trace file.
gen() {
    f=$BENCH_DIR/bench_$1mb.pt.trace.json
    gz=
    [ "$2" = gzip ] && f=$f.gz && gz=--gzip
    if [ ! -s "$f" ]; then
        t0=$(date +%s.%N)
        # shellcheck disable=SC2086 # $gz is one word or none
        "$GEN_TRACE" --size-mb "$1" --memory $gz -o "$f.tmp" ||
            die "generator failed for $f"
        mv "$f.tmp" "$f"
        t1=$(date +%s.%N)
        echo "generated $(basename "$f") in $(echo "$t0 $t1" |
            awk '{printf "%.2f", $2 - $1}') s" >&2
    fi
    echo "$f"
}

# measure FILE: prints "seconds rss_kib cpu_s status" for the best of the
# runs (by wall time).
measure() {
    best_s=
    best_kb=
    best_cpu=
    st=ok
    i=0
    while [ "$i" -lt "$BENCH_REPEAT" ]; do
        i=$((i + 1))
        rm -f "$BENCH_DIR/out.json" "$BENCH_DIR/out.html" "$BENCH_DIR/out.pdf"
        full=
        [ "$BENCH_FULL" = 1 ] &&
            full="--html $BENCH_DIR/out.html --pdf $BENCH_DIR/out.pdf"
        t0=$(date +%s.%N)
        # shellcheck disable=SC2086 # $full is words or none
        "$TIME" -v -o "$BENCH_DIR/time.txt" "$PROFREPORT" --input "$1" \
            --json "$BENCH_DIR/out.json" $full --quiet 2> "$BENCH_DIR/err.txt"
        rc=$?
        t1=$(date +%s.%N)
        [ "$rc" -eq 0 ] || st="exit $rc"
        kb=$(awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' \
            "$BENCH_DIR/time.txt")
        cpu=$(awk -F: '/(User|System) time \(seconds\)/ {c += $2}
            END {printf "%.2f", c}' "$BENCH_DIR/time.txt")
        s=$(echo "$t0 $t1" | awk '{printf "%.3f", $2 - $1}')
        if [ -z "$best_s" ] || awk "BEGIN {exit !($s < $best_s)}"; then
            best_s=$s
            best_kb=$kb
            best_cpu=$cpu
        fi
    done
    echo "$best_s $best_kb $best_cpu $st"
}

echo "profreport: $PROFREPORT ($("$PROFREPORT" --version 2>/dev/null | head -n 1))"
echo "traces in:  $BENCH_DIR"
echo
echo "| size (MB) | format | seconds | MB/s | CPU s | MB/CPU s | peak RSS (MiB) | RSS / size | target (MiB) | memory |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|---:|---|"
failed=0
for mb in $SIZES; do
    plain=$(gen "$mb" plain)
    bytes=$(wc -c < "$plain" | tr -d ' ')
    for fmt in $FORMATS; do
        f=$(gen "$mb" "$fmt")
        set -- $(measure "$f")
        secs=$1
        kb=$2
        cpu=$3
        shift 3
        st=$*
        line=$(awk -v b="$bytes" -v s="$secs" -v kb="$kb" -v c="$cpu" 'BEGIN {
            mib = b / 1048576; target = 0.25 * mib + 64; rss = kb / 1024;
            printf "%.0f|%.2f|%.0f|%.2f|%.0f|%.1f|%.2f|%.0f|%s", b / 1e6, s,
                (s > 0 ? b / 1e6 / s : 0), c, (c > 0 ? b / 1e6 / c : 0),
                rss, rss / mib, target, (rss <= target ? "pass" : "FAIL") }')
        IFS='|' read -r size secs mbs cpu mbc rss ratio target verdict <<EOF
$line
EOF
        if [ "$st" != ok ]; then
            verdict="error ($st)"
            failed=1
            sed 's/^/    /' "$BENCH_DIR/err.txt" | head -n 5 >&2
        fi
        [ "$verdict" = FAIL ] && failed=1
        echo "| $size | $fmt | $secs | $mbs | $cpu | $mbc | $rss | $ratio | $target | $verdict |"
    done
done
rm -f "$BENCH_DIR/out.json" "$BENCH_DIR/out.html" "$BENCH_DIR/out.pdf" \
    "$BENCH_DIR/time.txt" "$BENCH_DIR/err.txt"
exit "$failed"
