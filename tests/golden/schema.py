#!/usr/bin/env python3
"""schema.py MODE ... - check the summary against src/summary/schema.def
(issue #34; tests/cli/schema.sh and outputs.sh beside it run it).

  json DEF KEYS_H FILE...   every key of each summary FILE is a row of its
                            object, each value has one of the row's types,
                            and an object's keys come in its rows' order
  keys DEF KEYS_H           every PR_K_ constant of keys.h is a row's key
  docs DEF KEYS_H DOC SPEC  every key the docs' and the spec's annotated
                            trees name is a row, and every row is named
  literals DEF KEYS_H RATCHET FILE...
                            the summary keys each C FILE passes as a string
                            literal where the summary API takes a key, per
                            file, against the counts RATCHET allows

Prints one line per finding; exits 1 if any."""
import json
import re
import sys

TYPES = {"NUM": "number", "STR": "string", "NUL": "null", "BOOL": "boolean",
         "OBJ": "object", "ARR": "array"}


def load(def_path, keys_h):
    consts = dict(re.findall(r'#define (PR_K_[A-Z0-9_]+)\s+(?:\\\s*)?"([^"]*)"',
                             open(keys_h).read()))
    consts["PR_K_ANY"] = "*"
    text = re.sub(r"(?s)/\*.*?\*/", "", open(def_path).read())
    objs, rows = {}, {}
    for m in re.finditer(r'PR_SCHEMA_OBJECT\(\s*(\w+),\s*(\w+),\s*"([^"]*)"', text):
        objs[m.group(1)] = m.group(3)
        rows[m.group(1)] = {}
    for m in re.finditer(r'PR_SCHEMA_KEY\(\s*(\w+),\s*(\w+),\s*([\w|]+),\s*(\w+),'
                         r'\s*([\w|]+),\s*(\w+),', text):
        obj, c, types, _, flags, child = m.groups()
        key = consts.get(c)
        if key is None:
            raise SystemExit("schema.def: %s is no keys.h constant" % c)
        rows[obj][key] = {"const": c, "types": set(types.split("|")),
                          "flags": set(flags.split("|")), "child": child}
    return objs, rows, consts


def kind(v):
    if v is None:
        return "NUL"
    if isinstance(v, bool):
        return "BOOL"
    if isinstance(v, (int, float)):
        return "NUM"
    if isinstance(v, str):
        return "STR"
    return "OBJ" if isinstance(v, dict) else "ARR"


def check_order(rows, obj, v, path, out):
    """The members of v follow the order of obj's rows (what the summary
    writes first is the earlier row)."""
    order = {k: i for i, k in enumerate(rows[obj])}
    last, last_key = -1, None
    for k in v:
        if k.startswith("_") or k not in order:
            continue
        if order[k] < last:
            out.add("%s: \"%s\" is written after \"%s\", but its row of %s "
                    "comes first: schema.def's rows are in the order the "
                    "summary writes them" % (path or "(top)", k, last_key, obj))
        else:
            last, last_key = order[k], k


def check_every(rows, run, path, out):
    """A run holds every part flagged EVERY (a rank form those it keeps,
    RANK): the loader takes a run without one for an older writer's."""
    rank = run.get("form") == "rank"
    for k, row in rows["RUNS"].items():
        if "EVERY" in row["flags"] and k not in run and \
                (not rank or "RANK" in row["flags"]):
            out.add("%s: no \"%s\", a part schema.def flags EVERY (written "
                    "on every run%s)" % (path, k, " a rank form keeps" if rank
                                         else ""))


def walk(rows, obj, v, path, out):
    if not isinstance(v, dict):
        return
    if "*" not in rows[obj]:
        check_order(rows, obj, v, path, out)
    if obj == "RUNS":
        check_every(rows, v, path, out)
    for k, x in v.items():
        if k.startswith("_"):
            continue  # a run's private members are never written
        row = rows[obj].get(k) or rows[obj].get("*")
        p = "%s.%s" % (path, k) if path else k
        if row is None:
            out.add("%s: no row for key \"%s\" in object %s" % (p, k, obj))
            continue
        if kind(x) not in row["types"]:
            out.add("%s: a %s, but the row of %s.%s says %s"
                    % (p, TYPES[kind(x)], obj, k, "|".join(sorted(row["types"]))))
        if row["child"] == "NONE":
            continue
        for e in (x if isinstance(x, list) else [x]):
            walk(rows, row["child"], e, p + ("[]" if isinstance(x, list) else ""), out)


def doc_paths(text):
    """(object path, key) for every key of the ``` blocks of a markdown
    file whose trees are JSON with // comments and "..." elisions."""
    out = []
    for b in text.split("```")[1::2]:
        stack, pending = [], None
        for line in b.splitlines():
            code = line.split("//", 1)[0]
            i = 0
            while i < len(code):
                c = code[i]
                if c == '"':
                    j = i + 1
                    while j < len(code) and code[j] != '"':
                        j += 2 if code[j] == "\\" else 1
                    s, i = code[i + 1:j], j + 1
                    m = re.match(r"\s*:", code[i:])
                    pending = None
                    if m:
                        i += m.end()
                        path = ".".join(k for _, k in stack if k is not None)
                        out.append((path.replace(".[]", "[]"), s))
                        pending = s
                    continue
                if c == "{":
                    stack.append(("obj", pending))
                elif c == "[":
                    if pending is not None:
                        stack += [("arr", pending), ("in", "[]")]
                    else:
                        stack.append(("arr", None))
                elif c in "}]":
                    if stack and stack.pop()[0] == "in" and stack:
                        stack.pop()
                elif c.isspace() or c == ",":
                    i += 1
                    continue
                pending = None
                i += 1
    return out


def uncomment(text):
    """The docs and the spec give an object that may be null as
    `"key": null,  // or, when ...:` and the object in comments below;
    read those comments as the object."""
    out, on = [], False
    for line in text.splitlines():
        code, _, com = line.partition("//")
        if on and not code.strip() and com.lstrip()[:1] in tuple('{["}]/'):
            out.append(com)
            continue
        on = bool(re.search(r'"[a-z_0-9]+":\s*null,?\s*$', code)) and \
            com.strip().startswith("or")
        inline = re.match(r"\s*or\s+(\[?\{.*[}\]])", com) if on else None
        if inline:  # "null, // or [{"worker": "...", "steps": 0}] when ..."
            out.append(re.sub(r"null(,?)\s*$", inline.group(1) + r"\1", code))
            on = False
            continue
        out.append(re.sub(r"null(,?)\s*$", "", code) if on else line)
    return "\n".join(out)


# Objects the docs give as "the same fields as" another: a key of the
# first is named where the docs name it in the second.
SAME = {
    "RUNS_OPERATORS_BY_SHAPE": "RUNS_OPERATORS",  # spec: "same fields plus"
    "DISTRIBUTED_LINK_TYPES": "RUNS_COMMUNICATION_LINK_TYPES",  # "as runs[]..."
    "JOB_MEDIAN": "JOB_SLOWEST",  # "median": {"run": 113, ...}
    "JOB_SLOWEST_BY_MEAN": "JOB_SLOWEST",
    "RUNS_STEP_PHASES_MEAN": "RUNS_STEP_PHASES_STEPS",  # "each phase's mean"
}


def resolve(rows, path):
    """The object at a path of key names and [] from the top, or None."""
    obj = "TOP"
    for part in re.findall(r"[^.\[\]]+|\[\]", path):
        if part == "[]":
            continue
        row = rows[obj].get(part) or rows[obj].get("*")
        if row is None or row["child"] == "NONE":
            return None
        obj = row["child"]
    return obj


# The summary API: each takes the key as its second argument.
KEY_API = re.compile(r"\b(pr_sget(?:_num|_long|_str|_str_or|_true|_first|_path|_is)?"
                     r"|pr_sput|pr_emit_\w+|cJSON_\w*Object\w*)\s*\(")
LITERAL = re.compile(r'^\s*"((?:[^"\\\n]|\\.)*)"\s*$')


def code_only(text):
    """text with comments and character constants blanked, lines kept."""
    return re.sub(r"/\*.*?\*/|//[^\n]*|'(?:[^'\\\n]|\\.)*'",
                  lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)


def split_top(text, start):
    """The top-level comma-separated fields from start to the bracket that
    closes the one before start (or the text's end): [(offset, field)]."""
    out, depth, at, q, j = [], 0, start, None, start
    while j < len(text):
        c = text[j]
        if q:
            if c == "\\":
                j += 1
            elif c == q:
                q = None
        elif c == '"':
            q = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif c == "," and depth == 0:
            out.append((at, text[at:j]))
            at = j + 1
        j += 1
    out.append((at, text[at:j]))
    return out


def second_arg(text, i):
    """The text of the second argument of the call whose "(" is at i, and
    its offset."""
    args = split_top(text, i + 1)
    return (args[1][1], args[1][0]) if len(args) >= 2 else (None, None)


# Tables whose rows name a summary key: the struct and the field that
# holds the key (figures.h's column, keys.h's category).
# (an anonymous struct whose first member is "const char *key" counts as
# a table whose rows start with the key)
TABLE = re.compile(r"\bstruct\s+(pr_col|pr_category|\{\s*const char\s*\*key\b"
                   r"[^{}]*\})\s*\w+\s*\[[^\]]*\]\s*=\s*\{")
TABLE_KEY = {"pr_col": 1, "pr_category": 0}


def fields(row):
    """The top-level comma-separated fields of a row's initializer."""
    return [f for _, f in split_top(row, 0)]


def table_rows(text, start):
    """(offset, text) of each {...} row of the table whose "{" ends at
    start."""
    i, depth, rs = start, 1, None
    while depth and i < len(text):
        c = text[i]
        if c == '"':
            i += 1
            while i < len(text) and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == "{":
            depth += 1
            if depth == 2:
                rs = i + 1
        elif c == "}":
            depth -= 1
            if depth == 1 and rs is not None:
                yield rs, text[rs:i]
        i += 1


# A file's own wrappers of the API: a function whose second parameter is
# "const char *key".  kclass.c's take the keys of data/kernels.json, the
# kernel table's own format, not the summary's.
WRAPPER = re.compile(r"^(\w+)\s*\(\s*(?:const\s+)?(?:struct\s+)?\w+\s*\*?\s*\w+"
                     r"\s*,\s*const char \*key\b", re.M)
WRAPPER_EXEMPT = ("src/analysis/ops/kclass.c",)


def wrappers(paths):
    """A regex of the API's calls and every wrapper paths define."""
    names = set()
    for path in paths:
        if not path.endswith(WRAPPER_EXEMPT):
            names.update(m.group(1) for m in WRAPPER.finditer(open(path).read()))
    if not names:
        return KEY_API
    return re.compile(KEY_API.pattern[:-len(r")\s*\(")] + "|" +
                      "|".join(sorted(names)) + r")\s*\(")


def key_literals(path, keys, api=KEY_API):
    """(line, literal) of every summary key passed as a literal key, or
    given as a literal in a column or category table."""
    text = code_only(open(path).read())
    out = []

    def is_key(lit):
        return lit and all(p in keys for p in lit.group(1).split("."))
    for m in api.finditer(text):
        if text.rfind("\n", 0, m.start()) + 1 == m.start():
            continue  # the wrapper's own definition
        arg, _ = second_arg(text, m.end() - 1)
        lit = LITERAL.match(arg or "")
        if is_key(lit):
            out.append((text.count("\n", 0, m.start()) + 1, lit.group(1)))
    for m in TABLE.finditer(text):
        for at, row in table_rows(text, m.end()):
            fl = fields(row)
            k = TABLE_KEY.get(m.group(1), 0)
            lit = LITERAL.match(fl[k]) if k < len(fl) else None
            if is_key(lit):
                out.append((text.count("\n", 0, at) + 1, lit.group(1)))
    return sorted(out)


def main():
    mode, def_path, keys_h = sys.argv[1:4]
    objs, rows, consts = load(def_path, keys_h)
    out = set()
    if mode == "json":
        for f in sys.argv[4:]:
            walk(rows, "TOP", json.load(open(f)), "", out)
    elif mode == "keys":
        used = {r["const"] for o in rows.values() for r in o.values()}
        for c in sorted(set(consts) - used):
            out.add("keys.h: %s (\"%s\") is the key of no row of schema.def"
                    % (c, consts[c]))
    elif mode == "docs":
        named = set()
        for md in sys.argv[4:6]:
            for path, key in doc_paths(uncomment(open(md).read())):
                obj = resolve(rows, path)
                if obj is None or (key not in rows[obj] and "*" not in rows[obj]):
                    out.add("%s: names %s.%s, which is no row of schema.def"
                            % (md.split("/")[-1], path or "(top)", key))
                else:
                    named.add((obj, key if key in rows[obj] else "*"))
        for obj, keys in rows.items():
            for key in keys:
                if (obj, key) in named or (SAME.get(obj), key) in named:
                    continue
                if key != "*":
                    out.add("schema.def: %s.%s (%s) is named by neither "
                            "docs/summary-json.md nor the spec"
                            % (objs[obj] or "(top)", key, obj))
    elif mode == "literals":
        keys = {k for o in rows.values() for k in o if k != "*"}
        allowed = {}
        for line in open(sys.argv[4]):
            f = line.split("#")[0].split()
            if len(f) == 2:
                allowed[f[1]] = int(f[0])
        api = wrappers(sys.argv[5:])
        for f in sys.argv[5:]:
            got = key_literals(f, keys, api)
            name = f[f.index("src/"):] if "src/" in f else f
            want = allowed.get(name, 0)
            if len(got) > want:
                out.add("%s: %d summary key literals (%d allowed), e.g. line "
                        "%d \"%s\": use its keys.h constant"
                        % (name, len(got), want, got[0][0], got[0][1]))
            elif len(got) < want:
                out.add("%s: %d summary key literals, fewer than the %d of "
                        "tests/data/key_literals.txt: lower it (the list only "
                        "shrinks)" % (name, len(got), want))
    for line in sorted(out):
        print(line)
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main())
