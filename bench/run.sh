#!/bin/sh
# run.sh - ingest benchmark: time and peak memory of
# `profreport --input FILE --json OUT --quiet` on synthetic traces of 10 MB,
# 200 MB and 1 GB, plain and gzip.  Not a test: `make check` never runs it.
#
#   bench/run.sh [PROFREPORT]
#
# PROFREPORT  the binary to measure (argument, else $PROFREPORT, else
#             ./profreport); GEN_TRACE the generator (default
#             ./bench/gen_trace next to it); BENCH_DIR the scratch folder
#             (default /tmp/profreport-bench); SIZES the sizes in MB
#             (default "10 200 1000"); BENCH_REPEAT runs per file (default 1,
#             the best is kept).  Traces are generated once and reused.
#
# Prints a Markdown table: uncompressed size, format, wall seconds, MB/s of
# uncompressed trace, peak RSS (MiB) and the memory target of
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

# measure FILE: prints "seconds rss_kib status" for the best of the runs.
measure() {
    best_s=
    best_kb=
    st=ok
    i=0
    while [ "$i" -lt "$BENCH_REPEAT" ]; do
        i=$((i + 1))
        rm -f "$BENCH_DIR/out.json"
        t0=$(date +%s.%N)
        "$TIME" -v -o "$BENCH_DIR/time.txt" "$PROFREPORT" --input "$1" \
            --json "$BENCH_DIR/out.json" --quiet 2> "$BENCH_DIR/err.txt"
        rc=$?
        t1=$(date +%s.%N)
        [ "$rc" -eq 0 ] || st="exit $rc"
        kb=$(awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' \
            "$BENCH_DIR/time.txt")
        s=$(echo "$t0 $t1" | awk '{printf "%.3f", $2 - $1}')
        if [ -z "$best_s" ] || awk "BEGIN {exit !($s < $best_s)}"; then
            best_s=$s
            best_kb=$kb
        fi
    done
    echo "$best_s $best_kb $st"
}

echo "profreport: $PROFREPORT ($("$PROFREPORT" --version 2>/dev/null | head -n 1))"
echo "traces in:  $BENCH_DIR"
echo
echo "| size (MB) | format | seconds | MB/s | peak RSS (MiB) | target (MiB) | memory |"
echo "|---:|---|---:|---:|---:|---:|---|"
failed=0
for mb in $SIZES; do
    plain=$(gen "$mb" plain)
    bytes=$(wc -c < "$plain" | tr -d ' ')
    for fmt in plain gzip; do
        f=$(gen "$mb" "$fmt")
        set -- $(measure "$f")
        secs=$1
        kb=$2
        shift 2
        st=$*
        line=$(awk -v b="$bytes" -v s="$secs" -v kb="$kb" 'BEGIN {
            mib = b / 1048576; target = 0.25 * mib + 64; rss = kb / 1024;
            printf "%.0f|%.2f|%.0f|%.1f|%.0f|%s", b / 1e6, s,
                (s > 0 ? b / 1e6 / s : 0), rss, target,
                (rss <= target ? "pass" : "FAIL") }')
        IFS='|' read -r size secs mbs rss target verdict <<EOF
$line
EOF
        if [ "$st" != ok ]; then
            verdict="error ($st)"
            failed=1
            sed 's/^/    /' "$BENCH_DIR/err.txt" | head -n 5 >&2
        fi
        [ "$verdict" = FAIL ] && failed=1
        echo "| $size | $fmt | $secs | $mbs | $rss | $target | $verdict |"
    done
done
rm -f "$BENCH_DIR/out.json" "$BENCH_DIR/time.txt" "$BENCH_DIR/err.txt"
exit "$failed"
