#!/bin/sh
# run.sh SRCDIR BUILDDIR "PROGRAMS" [FILTER] - the only test entry point.
# FILTER (or T=...): run only the tests whose name holds one of its
# comma-separated substrings ("T=tests/ingest/,shared_traces").
# Runs every cmocka program (TAP output) and every tests/cli/*.sh script (TAP
# via tests/lib.sh), counts ok / not ok / skip, keeps a log per failing
# program, and ends with the line "N passed, N failed[, N skipped]".
# The tests run PR_TEST_JOBS at a time (default: one per CPU); each writes
# its own log and temp dir, and they are counted and reported in the list's
# order, so the output does not depend on which finished first.

# run.sh --one KIND NAME: run one test (KIND prog or cli) into its log, its
# exit status beside it (NAME.log.rc); what the parallel runner calls
if [ "${1:-}" = --one ]; then
    case $2 in
    prog)
        log=$PR_BUILDDIR/tests/logs/$(echo "$3" | tr '/' '_').log
        (cd "$PR_BUILDDIR" && "./$3") > "$log" 2>&1
        ;;
    *)
        log=$PR_BUILDDIR/tests/logs/$(basename "$3").log
        sh "$PR_SRCDIR/$3" > "$log" 2>&1
        ;;
    esac
    echo $? > "$log.rc"
    exit 0
fi
srcdir=$1
builddir=$2
programs=$3
filter=${T:-$4}
LC_ALL=C
TZ=UTC
export LC_ALL TZ
CMOCKA_MESSAGE_OUTPUT=TAP
export CMOCKA_MESSAGE_OUTPUT
PR_SRCDIR=$srcdir
PR_BUILDDIR=$builddir
PR_BIN=$builddir/profreport
PR_GEN=$builddir/bench/gen_trace
PR_SHARED=${PR_SHARED:-$srcdir/../shared}
export PR_SRCDIR PR_BUILDDIR PR_BIN PR_GEN PR_SHARED
logdir=$builddir/tests/logs
mkdir -p "$logdir"
passed=0
failed=0
skipped=0
failures=""

count() {
    # $1 = name, $2 = exit status, $3 = log
    # cmocka 1.1.5 reports a skipped test as "not ok N # SKIP"
    p=$(grep '^ok ' "$3" | grep -vc '# *[Ss][Kk][Ii][Pp]' | tr -d ' ')
    s=$(grep -E '^(not )?ok ' "$3" | grep -c '# *[Ss][Kk][Ii][Pp]' | tr -d ' ')
    f=$(grep '^not ok ' "$3" | grep -vc '# *[Ss][Kk][Ii][Pp]' | tr -d ' ')
    if [ "$2" -ne 0 ] && [ "$f" -eq 0 ]; then
        f=1  # crashed or exited non-zero without reporting a failure
        echo "not ok - $1 exited with status $2" >> "$3"
    fi
    if [ $((p + f + s)) -eq 0 ]; then
        f=1
        echo "not ok - $1 ran no test" >> "$3"
    fi
    passed=$((passed + p))
    failed=$((failed + f))
    skipped=$((skipped + s))
    if [ "$f" -gt 0 ]; then
        failures="$failures $1"
        # a failure's own explanation (the golden diffs) is indented "#   "
        grep -E '^not ok|^#   ' "$3" | grep -v '# *[Ss][Kk][Ii][Pp]' |
            head -n 60 | sed "s|^|  $1: |"
        echo "  log: $3"
    else
        rm -f "$3"
    fi
}

# wanted NAME: does NAME hold one of the filter's substrings?
wanted() {
    [ -z "$filter" ] && return 0
    rest=$filter,
    while [ -n "$rest" ]; do
        one=${rest%%,*}
        rest=${rest#*,}
        [ -n "$one" ] || continue
        case $1 in *"$one"*) return 0 ;; esac
    done
    return 1
}

jobs=${PR_TEST_JOBS:-$(getconf _NPROCESSORS_ONLN 2> /dev/null || echo 1)}
case $jobs in '' | *[!0-9]* | 0) jobs=1 ;; esac
list=$logdir/tests.list
: > "$list"
for prog in $programs; do
    wanted "$prog" && echo "prog $prog" >> "$list"
done
for script in "$srcdir"/tests/cli/*.sh; do
    [ -f "$script" ] || continue
    name=tests/cli/$(basename "$script")
    wanted "$name" && echo "cli $name" >> "$list"
done
xargs -P "$jobs" -L 1 sh "$srcdir/tests/run.sh" --one < "$list"
while read -r kind name; do
    if [ "$kind" = prog ]; then
        log=$logdir/$(echo "$name" | tr '/' '_').log
    else
        log=$logdir/$(basename "$name").log
    fi
    rc=127 # no status: the runner never ran it
    [ -f "$log.rc" ] && rc=$(cat "$log.rc")
    rm -f "$log.rc"
    [ -f "$log" ] || echo "not ok - $name: no log" > "$log"
    count "$name" "$rc" "$log"
done < "$list"
rm -f "$list"

if [ "$skipped" -gt 0 ]; then
    echo "$passed passed, $failed failed, $skipped skipped"
else
    echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
