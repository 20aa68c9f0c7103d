#!/usr/bin/env python3
"""digest.py KIND FILE - a readable, stable digest of one output, for the
golden files of tests/golden/shared (issue #34).

A golden must fail on any change and, when it fails, say what changed.
Whole outputs are too large to keep in the repository for every real trace
(a summary is up to 1.6 MB), so each is kept as a digest that is text
throughout:

  json  every scalar as `path = value`, one per line, in document order;
        arrays of more than HEAD rows keep their first HEAD rows in full and
        the rest as one line with a count and a hash; number arrays (curves)
        as one line with their length, ends, extremes and hash.  A failure
        is a diff of key paths.
  html  the whole file's hash (the HTML is our own bytes), then per
        <section>: its id, the hash and length of its visible text, the hash
        of its SVG, and the section's first words.
  pdf   the page count, then per page the hash of `pdftotext -layout` text
        and the page's first line.  libharu's bytes are not pinned: only
        what a reader sees.
  text  a Markdown or other text report: kept whole.

Hashes are the first 16 hex digits of SHA-256."""
import hashlib
import json
import re
import subprocess
import sys

HEAD = 3
LONG = 160


def h(data):
    if isinstance(data, str):
        data = data.encode()
    return hashlib.sha256(data).hexdigest()[:16]


def scalar(v):
    s = json.dumps(v, ensure_ascii=False)
    if len(s) > LONG:
        return "%s… (%d chars, %s)" % (s[:LONG], len(s), h(s))
    return s


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def walk(path, v, out):
    if isinstance(v, dict):
        if not v:
            out.append("%s = {}" % path)
        for k, x in v.items():
            walk("%s.%s" % (path, k) if path else k, x, out)
    elif isinstance(v, list):
        if v and all(is_num(x) or x is None for x in v) and len(v) > HEAD:
            nums = [x for x in v if x is not None]
            out.append("%s = [%d numbers: first %s, last %s, min %s, max %s, %s]"
                       % (path, len(v), scalar(v[0]), scalar(v[-1]),
                          scalar(min(nums)) if nums else "-",
                          scalar(max(nums)) if nums else "-",
                          h(json.dumps(v))))
            return
        if not v:
            out.append("%s = []" % path)
        for i, x in enumerate(v[:HEAD]):
            walk("%s[%d]" % (path, i), x, out)
        if len(v) > HEAD:
            rest = json.dumps(v[HEAD:], sort_keys=False)
            out.append("%s[%d:] = (%d more rows, %s)" % (path, HEAD,
                                                         len(v) - HEAD, h(rest)))
    else:
        out.append("%s = %s" % (path, scalar(v)))


def visible(html):
    html = re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", html)
    html = re.sub(r"(?s)<svg\b.*?</svg>", " ", html)
    html = re.sub(r"<wbr>", "", html)  # a break opportunity, not a space
    text = re.sub(r"(?s)<[^>]*>", " ", html)
    return re.sub(r"\s+", " ", text).strip()


def html_digest(raw):
    out = ["file = %d bytes, %s" % (len(raw), h(raw))]
    html = raw.decode("utf-8", "replace")
    parts = re.split(r'(?=<section id=")', html)
    out.append("head = %s" % h(parts[0]))
    for p in parts[1:]:
        m = re.match(r'<section id="([^"]*)"', p)
        svgs = re.findall(r"(?s)<svg\b.*?</svg>", p)
        text = visible(p)
        out.append("section %s = text %d chars %s, %d svg %s: %s"
                   % (m.group(1), len(text), h(text), len(svgs),
                      h("".join(svgs)), text[:80]))
    return out


def pdf_digest(path):
    text = subprocess.run(["pdftotext", "-layout", path, "-"], check=True,
                          capture_output=True).stdout.decode("utf-8", "replace")
    pages = text.split("\f")
    if pages and pages[-1].strip() == "":
        pages = pages[:-1]
    out = ["pages = %d" % len(pages)]
    for i, p in enumerate(pages, 1):
        first = next((l.strip() for l in p.splitlines() if l.strip()), "")
        first = re.sub(r"\s+", " ", first)[:80]
        out.append("page %d = %s: %s" % (i, h(p), first))
    return out


def main():
    kind, path = sys.argv[1], sys.argv[2]
    if kind == "json":
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        # the build that wrote it (git describe) changes with every commit:
        # pinned as present, not by value (a summary's tool.build, a
        # diff's comparability.builds)
        for parent, keys in (("tool", ("build",)),
                             ("comparability", ("builds",))):
            o = doc.get(parent) if isinstance(doc, dict) else None
            for k in keys if isinstance(o, dict) else ():
                if isinstance(o.get(k), str):
                    o[k] = "(the build)"
                elif isinstance(o.get(k), dict):
                    for side, v in o[k].items():
                        if isinstance(v, str):
                            o[k][side] = "(the build)"
        out = []
        walk("", doc, out)
    elif kind == "html":
        with open(path, "rb") as f:
            out = html_digest(f.read())
    elif kind == "pdf":
        out = pdf_digest(path)
    else:
        with open(path, encoding="utf-8") as f:
            out = f.read().splitlines()
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
