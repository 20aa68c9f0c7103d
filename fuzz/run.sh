#!/bin/sh
# run.sh BUILDDIR SRCDIR SECONDS [TARGET...] - `make fuzz`: run each
# libFuzzer target for SECONDS on its corpus, which starts from the small
# seeds in fuzz/seeds, the repository's test data and the shared traces
# (../shared/traces, when present) cut small at run time by seeds.py
# (nothing of them is committed).  New inputs and any finding (crash-*,
# leak-*, timeout-*, oom-*) land in BUILDDIR/fuzz/out/TARGET.
#
# Prints one TAP line per target ("ok N - fuzz TARGET: R runs in S s") and
# "1..N", so .ci/run counts the fuzz step as tests, and exits 1 when any
# target found something (its log's finding is shown).
set -u
b=$1
s=$2
secs=$3
shift 3
targets=${*:-pipeline formats reader csv summary failon tmpl tree}
shared=${PR_SHARED:-$s/../shared}
out=$b/fuzz/out
cut=$out/cut
mkdir -p "$out"
# the process's limits, not the finding: a leak or UB aborts with a report
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS UBSAN_OPTIONS

if ! python3 "$s/fuzz/seeds.py" "$s" "$shared" "$cut.new" > "$out/seeds.log" 2>&1; then
    echo "# fuzz: cutting the seeds failed: $(tail -n 3 "$out/seeds.log")"
    mkdir -p "$cut.new"
fi
rm -rf "$cut" && mv "$cut.new" "$cut"

# the names of the format table's rows (fuzz_formats: NAME\nINPUT)
formats=""
[ -x "$b/fuzz/fuzz_formats" ] &&
    formats=$(FUZZ_LIST_FORMATS=1 "$b/fuzz/fuzz_formats" 2> /dev/null)

seed() { # seed TARGET DIR: the seeds of a target into DIR
    rm -rf "$2"
    mkdir -p "$2"
    [ -d "$s/fuzz/seeds/$1" ] && cp "$s/fuzz/seeds/$1"/* "$2"/ 2> /dev/null
    case $1 in
    pipeline)
        cp "$cut"/files/* "$cut"/folders/* "$cut"/csv/* "$2"/ 2> /dev/null ;;
    formats)
        # a file with the rows that read it (as this build's binary picks
        # them; kineto when none does), a folder with every row
        for f in "$cut"/files/* "$s"/fuzz/seeds/reader/*; do
            [ -f "$f" ] || continue
            rows=$("$b/profreport" -q --input "$f" --json - 2> /dev/null |
                sed -n 's/^[[:space:]]*"format":[[:space:]]*"\([a-z_-]*\)".*/\1/p' |
                sort -u)
            pick=""
            for name in $rows; do
                case " $(echo $formats) " in *" $name "*) pick="$pick $name" ;; esac
            done
            for name in ${pick:-kineto}; do
                { printf '%s\n' "$name"; cat "$f"; } > "$2/$name.$(basename "$f")"
            done
        done
        for f in "$cut"/folders/*; do
            [ -f "$f" ] || continue
            for name in $formats; do
                { printf '%s\n' "$name"; cat "$f"; } > "$2/$name.$(basename "$f")"
            done
        done ;;
    reader)
        for f in "$cut"/files/*; do
            case $(head -c 1 "$f") in '{' | '[') cp "$f" "$2"/ ;; esac
        done ;;
    csv)
        cp "$cut"/csv/* "$2"/ 2> /dev/null ;;
    tree)
        cp "$cut"/tree/* "$2"/ 2> /dev/null ;;
    summary)
        cp "$s"/tests/data/summary_sample.json "$s"/tests/data/diff/*.json \
            "$2"/ 2> /dev/null
        # summaries of cut traces, from this build's own binary
        n=0
        for f in "$cut"/files/*; do
            [ $n -lt 24 ] || break
            "$b/profreport" -q --input "$f" --json "$2/sum_$n.json" \
                > /dev/null 2>&1 && n=$((n + 1))
        done
        rm -f "$2/sum_$n.json" ;;
    tmpl)
        for f in "$s"/templates/*.mustache; do
            cp "$f" "$2/$(basename "$f")"
        done ;;
    esac
}

i=0
found=""
for t in $targets; do
    i=$((i + 1))
    bin=$b/fuzz/fuzz_$t
    if [ ! -x "$bin" ]; then
        echo "not ok $i - fuzz $t: $bin is not built (configure CC=clang --enable-fuzz)"
        found="$found $t"
        continue
    fi
    corpus=$out/$t/corpus
    seeds=$out/$t/seeds
    seed "$t" "$seeds"
    mkdir -p "$corpus"
    rm -f "$out/$t"/crash-* "$out/$t"/leak-* "$out/$t"/timeout-* "$out/$t"/oom-*
    dict=""
    case $t in failon | tmpl | csv) ;; *) dict=-dict=$s/fuzz/json.dict ;; esac
    len=65536
    case $t in pipeline | formats | tree) len=131072 ;; esac
    t0=$(date +%s)
    (cd "$out/$t" && "$bin" -max_total_time="$secs" -timeout=30 \
        -rss_limit_mb=2048 -max_len=$len -print_final_stats=1 $dict \
        "$corpus" "$seeds" > log 2>&1)
    rc=$?
    took=$(($(date +%s) - t0)) # past SECONDS when the seeds alone take longer
    runs=$(grep -E '^stat::number_of_executed_units' "$out/$t/log" | tail -1 |
        sed 's/.*: *//')
    if [ $rc -eq 0 ]; then
        echo "ok $i - fuzz $t: ${runs:-?} runs in $took s, $(ls "$seeds" | wc -l) seeds"
    else
        echo "not ok $i - fuzz $t: a finding (exit $rc), log $out/$t/log"
        grep -E 'ERROR: |runtime error|SUMMARY|Test unit written' "$out/$t/log" |
            head -n 6 | sed 's/^/#   /'
        found="$found $t"
    fi
done
echo "1..$i"
if [ -n "$found" ]; then
    echo "# fuzz: findings in:$found" >&2
    exit 1
fi
exit 0
