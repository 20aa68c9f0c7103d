#!/bin/sh
# options.sh - every numeric option of every command takes plain decimal
# numbers only (issue #19): hexadecimal, inf/nan, overflow and fractions
# where a whole number is meant are usage errors (exit 1) that name the
# option, never a silent reinterpretation.
. "$PR_SRCDIR/tests/lib.sh"

IN=$PR_SRCDIR/examples/resnet_like.pt.trace.json.gz
S=$PR_SRCDIR/tests/data/diff/base.json

# refused "what" CMD...: exit 1 and the message names the value
refused() {
    what=$1
    shift
    "$PR_BIN" "$@" > /dev/null 2> "$T_DIR/err"
    rc=$?
    if [ "$rc" -eq 1 ]; then
        ok "$what is refused"
    else
        not_ok "$what: exit $rc, want 1 ($(head -c 200 "$T_DIR/err"))"
    fi
}

for v in 0x10 inf nan 1e999 1.5 " 5" "5 " ""; do
    refused "--top '$v'" --input "$IN" --top "$v"
    refused "--threads '$v'" --input "$IN" --threads "$v"
    refused "-w '$v'" table --input "$IN" --kind steps -w "$v"
    refused "diff --top '$v'" diff -b "$S" -i "$S" --top "$v"
done
for v in 0x10 inf nan 1e999 -1 "" abc; do
    refused "--peak-tflops '$v'" --input "$IN" --peak-tflops "$v"
    refused "--peak-gbps '$v'" --input "$IN" --peak-gbps "$v"
    refused "--min-time '$v'" table --input "$IN" --kind kernels \
        --min-time "$v"
    refused "diff --threshold '$v'" diff -b "$S" -i "$S" --threshold "$v"
    refused "diff --alpha '$v'" diff -b "$S" -i "$S" --alpha "$v"
    refused "diff --min-share '$v'" diff -b "$S" -i "$S" --min-share "$v"
    refused "trend --threshold '$v'" trend -i "$S" "$S" --threshold "$v"
done
for v in 0.5 0 -1 0x10 1e308GiB 1.0005KB 5gib "1 GiB" 18446744073709551616; do
    refused "--max-input '$v'" --input "$IN" --max-input "$v"
done
"$PR_BIN" --input "$IN" --max-input 1.5KiB > /dev/null 2> "$T_DIR/err"
check "--max-input 1.5KiB is a limit of 1536 bytes (exit 2)" [ $? -eq 2 ]
"$PR_BIN" --input "$IN" --max-input 1GiB --top 5 > /dev/null 2> "$T_DIR/err"
check "--max-input 1GiB is accepted" [ $? -eq 0 ]

for r in 'step.mean>0x10%' 'step.mean>inf%' 'memory.peak>1e308GiB' \
    'step.mean>1e999%'; do
    refused "diff --fail-on '$r'" diff -b "$S" -i "$S" --fail-on "$r"
    refused "trend --fail-on '$r'" trend -i "$S" "$S" --fail-on "$r"
done
"$PR_BIN" diff -q -b "$S" -i "$S" --fail-on 'step.mean > +3%' > /dev/null
check "diff --fail-on 'step.mean > +3%' (blanks) is accepted" [ $? -eq 0 ]

echo "1..$T_N"
