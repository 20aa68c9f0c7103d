#!/bin/sh
# diff.sh - `profreport diff` end to end: exit codes (0 pass, 1 bad rule,
# 2 bad input, 3 gate tripped), the noise-aware default gate, reports, and
# the HTA control/test traces when ../shared is present.
. "$PR_SRCDIR/tests/lib.sh"
D=$PR_SRCDIR/tests/data/diff

# every build has diff: a broken one is a failure, never a skip
if ! "$PR_BIN" diff --help > "$T_DIR/help" 2>&1; then
    not_ok "profreport diff --help fails: $(head -c 200 "$T_DIR/help")"
    echo "1..$T_N"
    exit 1
fi
check "--help shows the rule grammar" grep -q "rule grammar" "$T_DIR/help"

"$PR_BIN" diff -q --baseline "$D/base.json" --input "$D/base.json" \
    --json "$T_DIR/self.json" > /dev/null
check "a run against itself exits 0" [ $? -eq 0 ]
check "  and says pass" grep -q '"verdict":[[:space:]]*"pass"' "$T_DIR/self.json"

"$PR_BIN" diff -q -b "$D/base.json" -i "$D/rerun.json" > /dev/null
check "a rerun of the same program exits 0" [ $? -eq 0 ]

"$PR_BIN" diff -q -b "$D/base.json" -i "$D/slow.json" \
    --markdown "$T_DIR/d.md" --junit "$T_DIR/d.xml" --json "$T_DIR/d.json"
check "a 20% slowdown exits 3" [ $? -eq 3 ]
check "  markdown names the regression" grep -q "REGRESSION" "$T_DIR/d.md"
check "  markdown lists the new operator" grep -q "aten::softmax.*new" "$T_DIR/d.md"
# issue #15: the side a new or vanished row lacks is a dash, not a 0
check "  its baseline is a dash, not 0" \
    grep -q '^| `aten::softmax` | – | [0-9]' "$T_DIR/d.md"
check "  junit has one failing test" grep -q 'failures="1"' "$T_DIR/d.xml"
check "  json has the noise test" grep -q '"p_value"' "$T_DIR/d.json"

# issue #34: standard output (no report file asked for) gets the terminal
# tables of `profreport table`, not Markdown; --format md keeps Markdown
COLUMNS=120 "$PR_BIN" diff -q -b "$D/base.json" -i "$D/slow.json" > "$T_DIR/t.txt"
check "stdout: the 20% slowdown exits 3" [ $? -eq 3 ]
check "  as text tables, no Markdown table" sh -c "! grep -q '^|' '$T_DIR/t.txt'"
check "  headings underlined" grep -q '^Gates$' "$T_DIR/t.txt"
check "  the gate's row" grep -Eq '^FAIL +step\.mean>\+5% \(default\) +step\.mean' "$T_DIR/t.txt"
# numbers right-aligned under their headings, a new row's baseline "-"
check "  columns aligned as table's" grep -Eq '^aten::softmax +- +2\.50 ms +\+2\.50 ms +new +– -> 1$' "$T_DIR/t.txt"
check "  its heading's numbers end where the cells do" sh -c "
    h=\$(grep -m1 -n '^Name  *Baseline  *Current  *Change  *Status' '$T_DIR/t.txt' | cut -d: -f1)
    r=\$(grep -n '^aten::add_ ' '$T_DIR/t.txt' | cut -d: -f1)
    [ -n \"\$h\" ] && [ -n \"\$r\" ] &&
    hb=\$(sed -n \"\${h}p\" '$T_DIR/t.txt' | awk '{print index(\$0, \"Baseline\") + 7}') &&
    rb=\$(sed -n \"\${r}p\" '$T_DIR/t.txt' | awk '{print index(\$0, \"1.50 ms\") + 6}') &&
    [ \"\$hb\" = \"\$rb\" ]"
COLUMNS=60 "$PR_BIN" diff -q -b "$D/base.json" -i "$D/slow.json" > "$T_DIR/t60.txt"
check "  a narrow terminal: names shortened as table shortens them" \
    grep -Eq '^elementwise_kernel<128, 4> +1\.50 ms' "$T_DIR/t60.txt"
check "  and the columns left out named" grep -q 'more column.*status' "$T_DIR/t60.txt"
"$PR_BIN" diff -q -b "$D/base.json" -i "$D/slow.json" --format md > "$T_DIR/m.md"
check "--format md: stdout is the Markdown of --markdown" cmp -s "$T_DIR/m.md" "$T_DIR/d.md"
"$PR_BIN" diff -q -b "$D/base.json" -i "$D/slow.json" --format xml 2> "$T_DIR/err" > /dev/null
check "--format xml exits 1" [ $? -eq 1 ]
check "  naming the formats" grep -q 'expected text or md' "$T_DIR/err"

# `diff BASE CUR`: the same comparison as -b BASE -i CUR
"$PR_BIN" diff -q "$D/base.json" "$D/slow.json" --json "$T_DIR/p.json" > /dev/null
check "diff BASE CUR: the 20% slowdown exits 3" [ $? -eq 3 ]
check "  the same comparison as -b/-i" sh -c "grep -v '\"path\"\\|generated' '$T_DIR/p.json' > '$T_DIR/p1' && grep -v '\"path\"\\|generated' '$T_DIR/d.json' > '$T_DIR/p2' && cmp -s '$T_DIR/p1' '$T_DIR/p2'"
"$PR_BIN" diff -q "$D/base.json" "$D/slow.json" "$D/rerun.json" 2> "$T_DIR/e3" > /dev/null
check "three paths exit 1" [ $? -eq 1 ]
check "  saying how to give them" grep -q "BASE CUR" "$T_DIR/e3"

"$PR_BIN" diff -q -b "$D/base.json" -i "$D/slow.json" --threshold 25 > /dev/null
check "--threshold 25 lets +20% pass" [ $? -eq 0 ]

"$PR_BIN" diff -q -b "$D/base.json" -i "$D/slow.json" \
    --fail-on 'memory.peak>+1GiB' --fail-on 'op:aten::conv*>+10%' > /dev/null
check "rules that hold beside the default gate: the slowdown exits 3" [ $? -eq 3 ]
"$PR_BIN" diff -q -b "$D/base.json" -i "$D/slow.json" --no-default-gate \
    --fail-on 'memory.peak>+1GiB' --fail-on 'op:aten::conv*>+10%' > /dev/null
check "rules that hold without the default gate exit 0" [ $? -eq 0 ]

"$PR_BIN" diff -q -b "$D/ranks_base.json" -i "$D/ranks_cur.json" \
    --fail-on 'memory.peak>+256MiB' --junit "$T_DIR/r.xml" > /dev/null
check "per-rank memory gate exits 3" [ $? -eq 3 ]
check "  names the rank's worker" grep -q 'worker1' "$T_DIR/r.xml"

"$PR_BIN" diff -b "$D/base.json" -i "$D/slow.json" --fail-on 'step.mean>3' \
    2> "$T_DIR/err"
check "a malformed rule exits 1" [ $? -eq 1 ]
check "  names the rule" grep -q 'bad rule "step.mean>3"' "$T_DIR/err"
check "  shows the grammar" grep -q "rule grammar" "$T_DIR/err"

"$PR_BIN" diff -b "$D/base.json" 2> "$T_DIR/err"
check "missing --input exits 1" [ $? -eq 1 ]

"$PR_BIN" diff -b "$D/base.json" -i "$T_DIR/nope.json" 2> "$T_DIR/err"
check "a missing input exits 2" [ $? -eq 2 ]

printf '{"schema_version": 9, "runs": []}' > "$T_DIR/v9.json"
"$PR_BIN" diff -b "$D/base.json" -i "$T_DIR/v9.json" 2> "$T_DIR/err"
check "a newer schema exits 2" [ $? -eq 2 ]
check "  and says so" grep -q "schema_version 9" "$T_DIR/err"

"$PR_BIN" diff -q -b "$D/base.json" -i "$D/slow.json" --html "$T_DIR/d.html"
check "diff --html writes a page with inline SVG" grep -q "<svg" "$T_DIR/d.html"
check "  the new operator's baseline is a dash" \
    sh -c 'sed "s/<wbr>//g" "$1" | grep -q ">aten::softmax</td><td class=\"num\" data-v=\"–\">–</td>"' \
    sh "$T_DIR/d.html"
# issue #34: one product: the diff page is laid out by the main report's
# layout (its stylesheet, navigation, sections and tables), and its numbers
# are the report's (three significant digits)
"$PR_BIN" --input "$D/base.json" --html "$T_DIR/r.html" > /dev/null 2>&1
sed -n '/<style>/,/}/p' "$T_DIR/r.html" > "$T_DIR/r.css"
sed -n '/<style>/,/}/p' "$T_DIR/d.html" > "$T_DIR/d.css"
check "  with the report's stylesheet" sh -c "[ -s '$T_DIR/r.css' ] &&
    cmp -s '$T_DIR/r.css' '$T_DIR/d.css'"
check "  its header and navigation" sh -c "grep -q '<header class=\"top\">' \
    '$T_DIR/d.html' && grep -q '<nav class=\"toc\"' '$T_DIR/d.html'"
for id in gates runs operators kernels method; do
    check "  section $id as the report's" \
        grep -q "<section id=\"$id\">" "$T_DIR/d.html"
done
check "  gate and change cells in the report's table" \
    sh -c "grep -q '<td class=\"verdict-cell fail\"' '$T_DIR/d.html' &&
        grep -q '<td class=\"num up\"' '$T_DIR/d.html'"
check "  no fixed-decimal time (the diff's old 153.5 us)" \
    sh -c "! grep -Eq '>[0-9]{3}\.[0-9] (µs|ms)<' '$T_DIR/d.html'"

"$PR_BIN" trend -q --input "$D/base.json" "$D/rerun.json" "$D/slow.json" \
    --html "$T_DIR/t.html" --markdown "$T_DIR/t.md"
check "trend exits 0 without --fail" [ $? -eq 0 ]
check "  marks the slow night" grep -q "| 3 | .*slow.json.*yes" "$T_DIR/t.md"
check "  and draws charts" grep -q "<svg" "$T_DIR/t.html"
# issue #15: nights on an integer axis named by their input (never 1.5),
# and a value no night has is 'no data', not a line at 0
check "  names the nights on the axis" \
    sh -c "[ \$(grep -o '>rerun</text>' '$T_DIR/t.html' | wc -l) -ge 3 ]"
check "  and draws no fractional night" \
    sh -c "! grep -q '>1\.5</text>' '$T_DIR/t.html'"
for f in base rerun slow; do
    sed 's/"peak_allocated_bytes": *[0-9]*/"peak_allocated_bytes": null/g' \
        "$D/$f.json" > "$T_DIR/$f.json"
done
"$PR_BIN" trend -q --input "$T_DIR/base.json" "$T_DIR/rerun.json" \
    "$T_DIR/slow.json" --html "$T_DIR/nomem.html"
# review 25u #3: not an empty 'no data' panel, one line
check "  a memory peak no night has is one line, not a chart" \
    sh -c "grep -q 'Memory peak: no night records memory' '$T_DIR/nomem.html' &&
        ! grep -q '>no data</text>' '$T_DIR/nomem.html'"
check "  with no 0 B scale" \
    sh -c "! grep -q '>0\.0 B</text>' '$T_DIR/nomem.html'"
# issue #34: trend's standard output (no report file asked for) is the
# terminal tables of `profreport table`, as diff's; --format md keeps the
# Markdown of --markdown
COLUMNS=100 "$PR_BIN" trend -q --input "$D/base.json" "$D/rerun.json" \
    "$D/slow.json" "$T_DIR/none.json" > "$T_DIR/tt.txt"
check "trend stdout: text tables, no Markdown table" \
    sh -c "grep -q '^Nights\$' '$T_DIR/tt.txt' && ! grep -q '^|' '$T_DIR/tt.txt'"
# numbers right-aligned under their headings, as table lays them out
check "  the crossed night's row" \
    grep -Eq '^3 +slow\.json +119 ms +122 ms +4\.50 GiB +yes +CROSSED' "$T_DIR/tt.txt"
check "  its heading's numbers end where the cells do" sh -c "
    h=\$(grep -m1 '^# *Input  *Mean step' '$T_DIR/tt.txt') &&
    r=\$(grep -m1 '^1  *base\.json' '$T_DIR/tt.txt') &&
    [ \$(printf '%s' \"\$h\" | awk '{print index(\$0, \"Mean step\") + 8}') = \
      \$(printf '%s' \"\$r\" | awk '{print index(\$0, \"100 ms\") + 5}') ]"
check "  the gates' prose wraps inside the width" \
    sh -c "[ \$(awk 'length > 100' '$T_DIR/tt.txt' | grep -vc '^profreport trend\|^---') -eq 0 ] &&
        grep -Eq '^ {20,}.*mann-whitney-exact' '$T_DIR/tt.txt'"
check "  the unreadable night named" \
    grep -q '^Warning: night .*none.json could not be read' "$T_DIR/tt.txt"
"$PR_BIN" trend -q --input "$D/base.json" "$D/rerun.json" "$D/slow.json" \
    --markdown "$T_DIR/tm.md"
"$PR_BIN" trend -q --input "$D/base.json" "$D/rerun.json" "$D/slow.json" \
    --format md > "$T_DIR/tm2.md"
check "trend --format md: stdout is the Markdown of --markdown" \
    cmp -s "$T_DIR/tm.md" "$T_DIR/tm2.md"
"$PR_BIN" trend -q -i "$D/base.json" -i "$D/slow.json" --format xml \
    2> "$T_DIR/err" > /dev/null
check "trend --format xml exits 1" [ $? -eq 1 ]
check "  naming the formats" grep -q 'expected text or md' "$T_DIR/err"

"$PR_BIN" trend -q --fail -i "$D/base.json" -i "$D/slow.json" > /dev/null
check "trend --fail exits 3 when the last night crossed" [ $? -eq 3 ]
"$PR_BIN" trend -q -i "$D/base.json" 2> /dev/null
check "trend with one night exits 1" [ $? -eq 1 ]
# saved nights are read once to order them and again, two at a time, to
# chart and gate them (issue #17): given out of order, the same trend as
# in order
"$PR_BIN" trend -q -i "$D/slow.json" -i "$D/ranks_base.json" \
    -i "$D/base.json" -i "$D/rerun.json" --json "$T_DIR/tr1.json"
"$PR_BIN" trend -q --keep-order -i "$D/base.json" -i "$D/rerun.json" \
    -i "$D/slow.json" -i "$D/ranks_base.json" --json "$T_DIR/tr2.json"
check "trend orders saved nights it reads twice" \
    cmp -s "$T_DIR/tr1.json" "$T_DIR/tr2.json"
check "  (four nights, the slow one crossed)" python3 -c "
import json, sys
t = json.load(open('$T_DIR/tr1.json'))
sys.exit([n['label'] for n in t['nights']] !=
         ['base.json', 'rerun.json', 'slow.json', 'ranks_base.json'] or
         not t['nights'][2]['crossed'])"
# a trace among the nights is analysed once and held
"$PR_BIN" trend -q -i "$D/base.json" \
    -i "$PR_SRCDIR/examples/resnet_like.pt.trace.json.gz" -i "$D/slow.json" \
    --json "$T_DIR/tr3.json"
check "trend with a trace among saved nights" python3 -c "
import json, sys
t = json.load(open('$T_DIR/tr3.json'))
sys.exit(len(t['nights']) != 3 or
         t['nights'][1]['label'] != 'resnet_like.pt.trace.json.gz')"

# --pdf: valid, fonts embedded, reproducible, readable, atomic
pdf_tools=yes
for tool in qpdf pdffonts pdftotext; do
    command -v "$tool" > /dev/null 2>&1 || pdf_tools=no
done
SOURCE_DATE_EPOCH=1700000000 "$PR_BIN" diff -q -b "$D/base.json" \
    -i "$D/slow.json" --pdf "$T_DIR/d.pdf"
check "diff --pdf exits 3 on the slowdown" [ $? -eq 3 ]
check "  and writes a PDF" sh -c "head -c 5 '$T_DIR/d.pdf' | grep -q '%PDF-'"
SOURCE_DATE_EPOCH=1700000000 "$PR_BIN" diff -q -b "$D/base.json" \
    -i "$D/slow.json" --pdf "$T_DIR/d2.pdf"
check "  byte-identical under SOURCE_DATE_EPOCH" cmp -s "$T_DIR/d.pdf" \
    "$T_DIR/d2.pdf"
if [ $pdf_tools = yes ]; then
    check "  qpdf --check passes" sh -c "qpdf --check '$T_DIR/d.pdf' > /dev/null 2>&1"
    pdffonts "$T_DIR/d.pdf" > "$T_DIR/fonts" 2>/dev/null
    check "  every font is embedded" awk 'NR > 2 { n++; if ($(NF-4) != "yes") bad = 1 }
        END { exit !(n > 0 && !bad) }' "$T_DIR/fonts"
    pdftotext "$T_DIR/d.pdf" "$T_DIR/d.txt" 2> /dev/null
    check "  shows the verdict" grep -q "REGRESSION" "$T_DIR/d.txt"
    check "  shows the noise test" grep -q "significant (MWU" "$T_DIR/d.txt"
    check "  lists the new operator" grep -q "aten::softmax" "$T_DIR/d.txt"
else
    for c in "qpdf --check" "fonts embedded" "verdict text" "noise test" \
        "new operator"; do
        skip "diff --pdf: $c" "qpdf, pdffonts or pdftotext missing"
    done
fi
mkdir "$T_DIR/w" "$T_DIR/w/taken.pdf"
"$PR_BIN" diff -q -b "$D/base.json" -i "$D/slow.json" \
    --pdf "$T_DIR/w/taken.pdf" 2> "$T_DIR/err"
check "a PDF that cannot be renamed into place exits 2" [ $? -eq 2 ]
check "  leaves no temporary file" [ "$(ls -A "$T_DIR/w")" = "taken.pdf" ]
"$PR_BIN" diff -q -b "$D/base.json" -i "$D/slow.json" \
    --pdf "$T_DIR/nope/d.pdf" 2> "$T_DIR/err"
check "a PDF into a missing folder exits 2" [ $? -eq 2 ]
check "  and writes nothing" [ ! -e "$T_DIR/nope" ]
"$PR_BIN" trend -q --input "$D/base.json" "$D/rerun.json" "$D/slow.json" \
    --pdf "$T_DIR/t.pdf"
check "trend --pdf exits 0" [ $? -eq 0 ]
if [ $pdf_tools = yes ]; then
    check "  qpdf --check passes" sh -c "qpdf --check '$T_DIR/t.pdf' > /dev/null 2>&1"
    pdftotext "$T_DIR/t.pdf" "$T_DIR/t.txt" 2> /dev/null
    check "  marks the slow night" grep -q "CROSSED" "$T_DIR/t.txt"
else
    skip "trend --pdf: qpdf --check" "qpdf or pdftotext missing"
    skip "trend --pdf: crossed night" "qpdf or pdftotext missing"
fi

H=$PR_SHARED/traces/hta/trace_diff
if have_shared && [ -f "$H/control/control.json.gz" ]; then
    "$PR_BIN" diff -q -b "$H/control/control.json.gz" \
        -i "$H/test/test.json.gz" --json "$T_DIR/hta.json" > /dev/null
    rc=$?
    check "HTA control vs test trips the default gate" [ $rc -eq 3 ]
    "$PR_BIN" diff -q -b "$H/control/control.json.gz" \
        -i "$H/control/control.json.gz" > /dev/null
    check "HTA control against itself exits 0" [ $? -eq 0 ]
    # Two different kernels never read alike (issue #32): the Markdown's
    # shortened names, across all its tables, are as many as the kernels
    # they stand for; the HTML's too, each with its full name in title.
    "$PR_BIN" diff -q -b "$H/control/control.json.gz" \
        -i "$H/test/test.json.gz" --top 40 --markdown "$T_DIR/hta.md" \
        --html "$T_DIR/hta.html" > /dev/null
    if command -v python3 > /dev/null 2>&1; then
        python3 - "$T_DIR/hta.md" "$T_DIR/hta.html" > "$T_DIR/names.txt" <<'PY'
import html, re, sys
md = open(sys.argv[1], encoding="utf-8").read()
shown = [m for m in re.findall(r"^\| `([^`]*)` \|", md, re.M)
         if "<" in m or "kernel" in m.lower()]
page = open(sys.argv[2], encoding="utf-8").read().replace("<wbr>", "")
pairs = {}
for full, form in re.findall(
        r'<td class="name" data-v="([^"]*)">(?:<span title="[^"]*">)?([^<]*)',
        page):
    pairs.setdefault(html.unescape(form), set()).add(html.unescape(full))
alike = [f for f, names in pairs.items() if len(names) > 1]
print(len(shown), len(set(shown)), len(pairs), len(alike))
PY
        read -r n uniq forms alike < "$T_DIR/names.txt"
        check "diff Markdown: $n kernel rows, none read alike ($uniq forms)" \
            [ "$n" -gt 40 -a "$n" -eq "$uniq" ]
        check "diff HTML: no form stands for two names ($alike of $forms)" \
            [ "$forms" -gt 40 -a "$alike" -eq 0 ]
    else
        skip "diff Markdown names read apart" "python3 missing"
        skip "diff HTML names read apart" "python3 missing"
    fi
else
    skip "HTA control vs test" "no $H"
    skip "HTA control against itself" "no $H"
    skip "diff Markdown names read apart" "no $H"
    skip "diff HTML names read apart" "no $H"
fi

echo "1..$T_N"
