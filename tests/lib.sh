# lib.sh - shared prelude for tests/cli/*.sh: TAP helpers, a temp dir that is
# removed on exit, and the paths run.sh exports (PR_BIN, PR_SRCDIR, PR_SHARED).
set -u
LC_ALL=C
TZ=UTC
export LC_ALL TZ
T_N=0
T_DIR=$(mktemp -d)
trap 'rm -rf "$T_DIR"' EXIT

ok() { T_N=$((T_N + 1)); echo "ok $T_N - $1"; }
not_ok() { T_N=$((T_N + 1)); echo "not ok $T_N - $1"; }
skip() { T_N=$((T_N + 1)); echo "ok $T_N - $1 # SKIP ${2:-}"; }
# check "description" command...  : ok when the command succeeds
check() { d=$1; shift; if "$@"; then ok "$d"; else not_ok "$d"; fi; }
have_shared() { [ -d "$PR_SHARED/traces" ]; }
# shared_summary NAME INPUT: $T_DIR/NAME.json (stderr in NAME.err) from
# INPUT under ../shared/traces; 1 when that input is absent
shared_summary() {
    [ -e "$PR_SHARED/traces/$2" ] || return 1
    "$PR_BIN" -q --input "$PR_SHARED/traces/$2" --json "$T_DIR/$1.json" \
        2> "$T_DIR/$1.err"
}

# shared_report NAME INPUT: $T_DIR/NAME.{json,html,term} (the terminal's
# report of a plain run) from a shared input; 1 when absent
shared_report() {
    [ -e "$PR_SHARED/traces/$2" ] || return 1
    "$PR_BIN" -q --input "$PR_SHARED/traces/$2" --json "$T_DIR/$1.json" \
        --html "$T_DIR/$1.html" 2> "$T_DIR/$1.err" &&
        "$PR_BIN" --input "$PR_SHARED/traces/$2" > "$T_DIR/$1.term" \
            2> /dev/null
}
