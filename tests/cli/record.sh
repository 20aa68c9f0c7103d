#!/bin/sh
# record.sh - `profreport record` end to end without a GPU: the exit status
# passes through; a command without CUDA gives an empty trace and, when it
# succeeded, exit 2 (nothing captured); a command that cannot start leaves
# no folder.
. "$PR_SRCDIR/tests/lib.sh"

"$PR_BIN" record --help > "$T_DIR/help" 2>&1
# every build has record (the CUPTI collector is what is optional)
if ! grep -q "Usage: profreport record" "$T_DIR/help"; then
    not_ok "profreport record --help shows no usage: $(head -c 200 "$T_DIR/help")"
    echo "1..$T_N"
    exit 1
fi
ok "record --help shows usage"

cd "$T_DIR" || exit 1
"$PR_BIN" record --output "$T_DIR/run1" -- true 2> "$T_DIR/err"
check "record -- true exits 2: nothing was captured" [ $? -eq 2 ]
check "record -- true says that nothing was captured" \
    grep -q "nothing was captured" "$T_DIR/err"
check "record -- true leaves an empty trace" \
    sh -c "ls '$T_DIR/run1/'*.pt.trace.json > /dev/null"
check "the empty trace is JSON with traceEvents" \
    sh -c "grep -q traceEvents '$T_DIR/run1/'*.pt.trace.json"

"$PR_BIN" record --output "$T_DIR/run2" -- sh -c 'exit 7' 2> /dev/null
check "the command's exit status passes through" [ $? -eq 7 ]

"$PR_BIN" record --output "$T_DIR/run3" --json "$T_DIR/out.json" -- true \
    2> "$T_DIR/err"
check "record --json -- true exits 2" [ $? -eq 2 ]
check "record --json -- true says no report was written" \
    grep -q "no report" "$T_DIR/err"

"$PR_BIN" record --output "$T_DIR/run4" -- /nonexistent/cmd 2> "$T_DIR/err"
check "a missing command exits 127" [ $? -eq 127 ]
check "a missing command is named" grep -q "nonexistent" "$T_DIR/err"
check "a missing command leaves no output folder" [ ! -e "$T_DIR/run4" ]
"$PR_BIN" record --output "$T_DIR/run5" -- no-such-command-xyz 2> "$T_DIR/err"
check "a command not in PATH exits 127" [ $? -eq 127 ]
check "  and leaves no output folder" [ ! -e "$T_DIR/run5" ]
n=$(grep -c "^profreport:" "$T_DIR/err")
check "  and says so once (got $n lines)" [ "$n" -eq 1 ]
# a script whose interpreter is missing, and a file that is no program:
# both pass the PATH check and fail at exec; neither leaves a folder
printf '#!/nonexistent/interp\n' > "$T_DIR/badinterp.sh"
printf 'not a program\n' > "$T_DIR/noexec"
chmod +x "$T_DIR/badinterp.sh" "$T_DIR/noexec"
for c in badinterp.sh noexec; do
    "$PR_BIN" record --output "$T_DIR/run_$c" -- "$T_DIR/$c" 2> "$T_DIR/err"
    rc=$?
    check "$c: exits 127 (got $rc)" [ "$rc" -eq 127 ]
    check "$c: leaves no output folder" [ ! -e "$T_DIR/run_$c" ]
    check "$c: names the command" grep -q "$c" "$T_DIR/err"
done
# a folder that was there before is the user's: kept, with what is in it
mkdir "$T_DIR/mine" && echo keep > "$T_DIR/mine/note"
"$PR_BIN" record --output "$T_DIR/mine" -- /nonexistent/cmd 2> /dev/null
check "an existing output folder is kept when the command cannot start" \
    [ -f "$T_DIR/mine/note" ]

# a build without the collector (CUPTI absent): said, and nothing captured
# after a command that succeeded is still exit 2
PROFREPORT_COLLECTOR=$T_DIR/no-collector.so "$PR_BIN" record \
    --output "$T_DIR/run6" -- true 2> "$T_DIR/err"
rc=$?
check "without a collector: exits 2 (got $rc)" [ "$rc" -eq 2 ]
check "without a collector: says the collector is not available" \
    grep -q "collector is not available" "$T_DIR/err"
check "without a collector: says why nothing was captured" \
    grep -q "nothing was captured: no collector" "$T_DIR/err"
PROFREPORT_COLLECTOR=$T_DIR/no-collector.so "$PR_BIN" record \
    --output "$T_DIR/run7" -- sh -c 'exit 5' 2> "$T_DIR/err"
check "without a collector: a failed command's status passes through" \
    [ $? -eq 5 ]
check "  with a warning that nothing was captured" \
    grep -q "warning: nothing was captured" "$T_DIR/err"

"$PR_BIN" record --version > "$T_DIR/ver" 2>&1
check "record --version prints the version" grep -q "^profreport [0-9]" \
    "$T_DIR/ver"

"$PR_BIN" record 2> "$T_DIR/err"
check "no command is a usage error" [ $? -eq 1 ]

"$PR_BIN" record -- true > /dev/null 2>&1
check "the default output folder is made" \
    sh -c "ls -d '$T_DIR'/profreport-record-* > /dev/null"

# outputs are checked before the command runs (it may take hours): an
# unwritable report fails at once, exit 2, naming the option, and the
# command never starts (it would leave "ran" behind)
rm -f "$T_DIR/ran"
"$PR_BIN" record --output "$T_DIR/out1" --html "$T_DIR/nodir/r.html" \
    -- sh -c ": > '$T_DIR/ran'" 2> "$T_DIR/err"
check "record --html in a missing folder: exit 2 before the command" [ $? -eq 2 ]
check "  naming --html" grep -q "record: --html .*nodir/r.html" "$T_DIR/err"
check "  the command did not run" [ ! -e "$T_DIR/ran" ]
check "  and the trace folder it made is removed" [ ! -e "$T_DIR/out1" ]
mkdir -p "$T_DIR/adir"
"$PR_BIN" record --output "$T_DIR/out2" --json "$T_DIR/adir" \
    -- sh -c ": > '$T_DIR/ran'" 2> "$T_DIR/err"
check "record --json naming a folder: exit 2" [ $? -eq 2 ]
check "  saying so" grep -q "record: --json .*adir' is a folder" "$T_DIR/err"
check "  the command did not run" [ ! -e "$T_DIR/ran" ]
if command -v python3 > /dev/null; then
    printf 'open("%s/ran", "w").close()\n' "$T_DIR" > "$T_DIR/script.py"
    # a launcher is there (never run): the outputs are what fails
    PROFREPORT_TORCH_LAUNCHER=$T_DIR/script.py "$PR_BIN" record \
        --output "$T_DIR/out3" --pdf "$T_DIR/nodir/r.pdf" \
        -- python3 "$T_DIR/script.py" 2> "$T_DIR/err"
    check "record --pdf unwritable -- python3 script.py: exit 2" [ $? -eq 2 ]
    check "  naming --pdf" grep -q "record: --pdf" "$T_DIR/err"
    check "  the script did not run" [ ! -e "$T_DIR/ran" ]
else
    skip "record -- python3 with an unwritable --pdf" "no python3"
fi
# a trace folder that takes no file (/proc, even for root)
if [ -d /proc/self ]; then
    "$PR_BIN" record --output /proc -- sh -c ": > '$T_DIR/ran'" \
        2> "$T_DIR/err"
    check "record --output /proc: exit 2 before the command" [ $? -eq 2 ]
    check "  the trace folder cannot take a file" \
        grep -q "trace folder /proc cannot take a file" "$T_DIR/err"
    check "  the command did not run" [ ! -e "$T_DIR/ran" ]
else
    skip "record --output /proc" "no /proc"
fi
# a report inside the trace folder the run makes is fine
"$PR_BIN" record --output "$T_DIR/out4" --json "$T_DIR/out4/s.json" \
    -- sh -c 'exit 5' 2> "$T_DIR/err"
check "a report inside the trace folder: checked once it is made (exit 5 passes through)" [ $? -eq 5 ]

echo "1..$T_N"
