#!/bin/sh
# job.sh - issue #33's benchmark: a job of many real ranks, read directly
# and merged from per-rank summaries, against the goals (wall <= 20 s,
# peak RSS <= 1 GiB, summary JSON <= 64 MB, PDF < 40 pages whatever the
# world size).  Not a test: `make check` never runs it.
#
#   bench/job.sh [PROFREPORT]
#
# PROFREPORT  the binary (argument, else $PROFREPORT, else ./profreport)
# RANKS       ranks in the job (default 1024)
# BENCH_DIR   scratch folder (default /tmp/profreport-bench); the job is
#             generated once into $BENCH_DIR/job$RANKS and reused
# SAMPLES     the real ranks it is made of (default HTA's
#             trace_filter/sampled_rank-0 and -1 in ../shared/traces:
#             two ranks of a 128-rank PyTorch job, 1.7 MB each)
# MERGE=0     skip the per-rank summaries and their merge
# JOBS        per-rank summaries written at once (default: nproc)
#
# The job: bench/gen_rank_traces.py, rank r a copy of sample r mod 2 with
# its own rank, times stretched by up to 2%, and rank RANKS*3/4+1 by 1.4x
# (the straggler).  Prints a Markdown table of each way through the job:
# wall and CPU (user + system) seconds, peak RSS, the summary JSON's size,
# the HTML's size, the PDF's pages, whether the job's slowest rank is the
# straggler, and whether the merged outputs are the direct run's bytes.
# Exits 1 when a run failed.
set -u
LC_ALL=C
export LC_ALL
here=$(cd "$(dirname "$0")" && pwd)
PROFREPORT=${1:-${PROFREPORT:-./profreport}}
RANKS=${RANKS:-1024}
BENCH_DIR=${BENCH_DIR:-/tmp/profreport-bench}
S=$here/../../shared/traces/hta/trace_filter
SAMPLES=${SAMPLES:-$S/sampled_rank-0.json.gz $S/sampled_rank-1.json.gz}
MERGE=${MERGE:-1}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
TIME=/usr/bin/time

die() { echo "job.sh: $*" >&2; exit 2; }
[ -x "$PROFREPORT" ] || die "$PROFREPORT: no such program"
[ -x "$TIME" ] || die "$TIME missing (Debian: apt-get install time)"
command -v pdfinfo >/dev/null || die "pdfinfo missing (poppler-utils)"
PROFREPORT=$(cd "$(dirname "$PROFREPORT")" && pwd)/$(basename "$PROFREPORT")
job=$BENCH_DIR/job$RANKS
out=$BENCH_DIR/job$RANKS.out
straggler=$((RANKS * 3 / 4 + 1))
mkdir -p "$out" || die "cannot create $out"
if [ ! -d "$job" ]; then
    # shellcheck disable=SC2086 # SAMPLES is a list of paths
    python3 "$here/gen_rank_traces.py" "$RANKS" "$job.tmp" $SAMPLES ||
        die "generating the job failed"
    mv "$job.tmp" "$job"
fi
bytes=$(cat "$job"/* | wc -c | tr -d ' ')
SOURCE_DATE_EPOCH=0
export SOURCE_DATE_EPOCH

# field FILE "Label": a value of `time -v`'s report
field() { sed -n "s/^[[:space:]]*$2: *//p" "$1"; }
# wall FILE: `time -v`'s elapsed m:ss.ss as seconds
wall() { field "$1" "Elapsed (wall clock) time (h:mm:ss or m:ss)" |
    awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.1f", s }'; }
cpu() { awk -F: '/(User|System) time \(seconds\)/ {c += $2} END {printf "%.1f", c}' "$1"; }
rss() { field "$1" "Maximum resident set size (kbytes)" | awk '{printf "%.0f", $1 / 1024}'; }
size_mb() { [ -f "$1" ] && wc -c < "$1" | awk '{printf "%.1f", $1 / 1e6}' || echo -; }
pages() { pdfinfo "$1" 2>/dev/null | sed -n 's/^Pages: *//p'; }
slowest() {
    python3 -c "
import json, sys
j = json.load(open(sys.argv[1]))['job']
print('yes' if j and j['slowest'] and j['slowest']['rank'] == $straggler else 'NO')" "$1" 2>/dev/null || echo '?'
}

failed=0
# run NAME ARGS...: the full job under time -v, outputs in $out/NAME.*
run() {
    name=$1
    shift
    rm -f "$out/$name".*
    "$TIME" -v -o "$out/$name.time" "$PROFREPORT" -q "$@" \
        --json "$out/$name.json" --html "$out/$name.html" \
        --pdf "$out/$name.pdf" 2> "$out/$name.err" ||
        { echo "job.sh: $name failed: $(head -c 300 "$out/$name.err")" >&2; failed=1; }
}
row() {
    name=$1 what=$2 same=$3
    echo "| $what | $(wall "$out/$name.time") | $(cpu "$out/$name.time") | $(rss "$out/$name.time") | $(size_mb "$out/$name.json") | $(size_mb "$out/$name.html") | $(pages "$out/$name.pdf") | $(slowest "$out/$name.json") | $same |"
}

echo "profreport: $PROFREPORT ($("$PROFREPORT" --version 2>/dev/null | head -n 1))"
echo "job:        $job ($RANKS ranks, $(echo "$bytes" | awk '{printf "%.2f GB", $1 / 1e9}'), straggler rank $straggler)"
echo "load:       $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min) on $(nproc) CPUs"
echo
run direct --input "$job"
if [ "$MERGE" = 1 ]; then
    sums=$out/sums
    rm -rf "$sums"
    mkdir -p "$sums"
    # one summary per rank, JOBS at once, as an array's tasks would
    "$TIME" -v -o "$out/ranks.time" sh -c '
        cd "$1" && ls "$2" | xargs -P "$3" -I{} sh -c \
            "\"\$0\" -q --input \"\$1/\$2\" --json \"\${2%%.pt.trace.json*}.summary.json\"" \
            "$4" "$2" {}' _ "$sums" "$job" "$JOBS" "$PROFREPORT" ||
        { echo "job.sh: per-rank summaries failed" >&2; failed=1; }
    sum_bytes=$(cat "$sums"/*.summary.json | wc -c | tr -d ' ')
    # the merge, as examples/slurm-array.sh runs it
    set --
    for s in "$sums"/*.summary.json; do set -- "$@" --input "$s"; done
    run merged "$@"
    msame=yes
    for k in json html pdf; do
        cmp -s "$out/direct.$k" "$out/merged.$k" || msame="NO ($k differs)"
    done
fi
echo "| way | wall s | CPU s | peak RSS (MiB) | JSON (MB) | HTML (MB) | PDF pages | slowest = straggler | same bytes as direct |"
echo "|---|---:|---:|---:|---:|---:|---:|---|---|"
row direct "direct: \`--input DIR\`" -
if [ "$MERGE" = 1 ]; then
    echo "| per-rank summaries ($JOBS at once; $RANKS files, $(echo "$sum_bytes" | awk '{printf "%.0f MB", $1 / 1e6}')) | $(wall "$out/ranks.time") | $(cpu "$out/ranks.time") | $(rss "$out/ranks.time") (largest) | | | | | |"
    row merged "merged: \`--input rank*.summary.json\`" "$msame"
fi
echo "| goal | 20 | | 1024 | 64 | | < 40 | yes | yes |"
exit "$failed"
