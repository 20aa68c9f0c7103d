#!/bin/sh
# many_skips.sh - a folder of 20,000 files profreport does not read
# (issue #35: 100,000 empty files printed 100,000 warnings): the first 10
# of each reason are named, the rest counted in one line per reason, and
# the run's diagnostics say how many were skipped; a member's bytes are
# never quoted (its name and the kind of its content are), while a file
# the user named still shows how it starts.
. "$PR_SRCDIR/tests/lib.sh"

IN=$PR_SRCDIR/examples/resnet_like.pt.trace.json.gz
R=$T_DIR/run
mkdir -p "$R"
cp "$IN" "$R/w0.pt.trace.json.gz"
(cd "$R" && seq 1 20000 | sed 's/^/e/; s/$/.pt.trace.json/' | xargs touch)
printf 'TOKEN=hunter2 do not echo\n' > "$R/secret.txt"
printf 'a,b,c\n1,2,3\n' > "$R/table.csv"

/usr/bin/time -f '%M' -o "$T_DIR/rss" "$PR_BIN" --input "$R" \
    --json "$T_DIR/o.json" 2> "$T_DIR/err"
check "a folder with 20,000 empty files still reports its trace ($?)" \
    [ -s "$T_DIR/o.json" ]
n=$(grep -c "skipping .*/e[0-9]*.pt.trace.json: .*an empty file" "$T_DIR/err")
check "the first 10 empty files are named (got $n)" [ "$n" -eq 10 ]
check "  the rest counted in one line ($(grep -F '...' "$T_DIR/err" | head -c 200))" \
    grep -q "^profreport: warning: ... and 19,990 more skipped like this: not a format profreport reads (an empty file" "$T_DIR/err"
lines=$(wc -l < "$T_DIR/err")
check "stderr holds a few lines, not 20,000 ($lines)" [ "$lines" -lt 20 ]
check "a member is named with the kind of its content" \
    grep -q "skipping $R/secret.txt: not a format profreport reads (text;" \
    "$T_DIR/err"
check "  and a CSV one as CSV text" \
    grep -q "skipping $R/table.csv: not a format profreport reads (CSV text" \
    "$T_DIR/err"
check "  its bytes are not quoted" sh -c "! grep -q hunter2 '$T_DIR/err'"
check "the run's diagnostics count the 20,002 skipped files" \
    python3 -c "
import json, sys
d = json.load(open('$T_DIR/o.json'))
rows = [x for x in d['runs'][0]['diagnostics'] if x['kind'] == 'skipped_files']
sys.exit(not (len(rows) == 1 and rows[0]['count'] == 20002))"
# the list of skipped members is bounded: 18,000 more skips cost their
# names while the folder is read (about 1 MiB), not a kept warning each
# (about 6 MiB when each was kept)
rss20=$(tail -1 "$T_DIR/rss")
(cd "$R" && seq 2001 20000 | sed 's/^/e/; s/$/.pt.trace.json/' | xargs rm -f)
/usr/bin/time -f '%M' -o "$T_DIR/rss" "$PR_BIN" -q --input "$R" \
    --json "$T_DIR/o.json" 2> /dev/null
rss2=$(tail -1 "$T_DIR/rss")
if grep -qa __asan_init "$PR_BIN"; then
    skip "peak RSS of 20,000 skips" "a sanitizer build"
else
    check "peak RSS with 20,000 skips (${rss20} KiB) within 3 MiB of 2,000 (${rss2} KiB)" \
        [ $((rss20 - rss2)) -lt 3072 ]
fi

# a file the user named is quoted: it is theirs
"$PR_BIN" -q --input "$R/table.csv" 2> "$T_DIR/err"
check "a file given by name still says how it starts ($(head -c 200 "$T_DIR/err"))" \
    grep -q 'text starting "a,b,c"' "$T_DIR/err"

echo "1..$T_N"
