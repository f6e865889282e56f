#!/usr/bin/env python3
"""Checks this project's Thrift IDL against the upstream IDL it must match.

For every struct, union and exception declared both in our IDL
(common/thrift/*.thrift) and upstream (Apache Impala's common/thrift
directory and the Hive metastore's hive_metastore.thrift, which a developer
points this script to; neither is part of this tree), it compares the fields
by id: name, type (typedefs resolved, module prefixes dropped, byte == i8)
and requiredness (default, required, optional). It reports:

  MISMATCH  a field id both sides declare differs in name, type or
            requiredness (exit status 1 unless the allow-list covers it)
  ALLOWED   such a difference that the allow-list explains
  LACK      a field upstream declares that we do not (information: optional
            fields may be left out; a required one is flagged REQUIRED)
  EXTRA     a field only we declare (information; our own extensions should
            use ids upstream will not, and be listed in the allow-list)

Files are matched by kind: our hive_metastore*.thrift files are compared with
the Hive file, every other file with Impala's files. Default values, enums,
constants and services are not compared.

Allow-list (default scripts/idl_allowlist.txt): one deliberate difference a
line, "<Struct>.<field id> <kind>  # why", kind one of name, type,
requiredness, extra, any. Blank lines and lines starting with '#' are
ignored. Entries that match nothing are reported as stale (exit status 1 with
--strict).

Exit status: 0 when there is no unexplained mismatch, 1 otherwise, 2 on bad
arguments or unreadable files.

Example:
  scripts/check_idl.py --impala <impala>/common/thrift \\
      --hive <hive>/standalone-metastore/metastore-common/src/main/thrift/hive_metastore.thrift
"""

import argparse
import os
import re
import sys

KINDS = ("name", "type", "requiredness", "extra", "any")
REQUIREDNESS = ("required", "optional")


# ---- tokenizing and parsing --------------------------------------------------

_TOKEN = re.compile(
    r'"(?:[^"\\]|\\.)*"'          # double-quoted string
    r"|'(?:[^'\\]|\\.)*'"         # single-quoted string
    r"|[A-Za-z_][A-Za-z0-9_.]*"   # identifier (possibly module-qualified)
    r"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"  # number
    r"|0x[0-9A-Fa-f]+"
    r"|[{}()<>\[\],;:=&*]"        # punctuation
)


def strip_comments(text):
    """Removes //, # and /* */ comments, keeping string literals intact."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i) or c == "#":
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            out.append(" ")
            i = n if j < 0 else j + 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def tokenize(text):
    return _TOKEN.findall(strip_comments(text))


class Field:
    def __init__(self, fid, name, ftype, req):
        self.id = fid
        self.name = name
        self.type = ftype          # raw type string, normalized later
        self.req = req             # "default", "required" or "optional"


class Struct:
    def __init__(self, kind, name, path):
        self.kind = kind           # struct, union or exception
        self.name = name
        self.path = path
        self.fields = {}           # id -> Field


def parse_type(tokens, i):
    """Parses a type starting at tokens[i]; returns (type string, next index)."""
    t = tokens[i]
    i += 1
    if t in ("list", "set", "map") and i < len(tokens) and tokens[i] == "<":
        i += 1
        args = []
        while True:
            a, i = parse_type(tokens, i)
            args.append(a)
            if tokens[i] == ",":
                i += 1
                continue
            if tokens[i] == ">":
                i += 1
                break
            raise ValueError("bad container type near %r" % tokens[i])
        t = "%s<%s>" % (t, ",".join(args))
    # Type annotations: (key = "value", ...).
    if i < len(tokens) and tokens[i] == "(":
        i = skip_balanced(tokens, i, "(", ")")
    return t, i


def skip_balanced(tokens, i, open_tok, close_tok):
    depth = 0
    while i < len(tokens):
        if tokens[i] == open_tok:
            depth += 1
        elif tokens[i] == close_tok:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


def parse_file(path):
    """Returns (structs by name, typedefs by name) declared in one file."""
    with open(path, encoding="utf-8") as f:
        tokens = tokenize(f.read())
    structs, typedefs = {}, {}
    i, n = 0, len(tokens)
    while i < n:
        t = tokens[i]
        if t in ("struct", "union", "exception") and i + 2 < n and tokens[i + 2] == "{":
            s = Struct(t, tokens[i + 1], path)
            i += 3
            while i < n and tokens[i] != "}":
                if tokens[i] in (",", ";"):
                    i += 1
                    continue
                fid = int(tokens[i], 0)
                if tokens[i + 1] != ":":
                    raise ValueError("%s: %s: expected ':' after field id" % (path, s.name))
                i += 2
                req = "default"
                if tokens[i] in REQUIREDNESS:
                    req = tokens[i]
                    i += 1
                ftype, i = parse_type(tokens, i)
                if tokens[i] == "&":
                    i += 1
                name = tokens[i]
                i += 1
                if i < n and tokens[i] == "=":
                    i += 1
                    if tokens[i] in ("{", "["):
                        i = skip_balanced(tokens, i, tokens[i], "}" if tokens[i] == "{" else "]")
                    else:
                        i += 1
                if i < n and tokens[i] == "(":
                    i = skip_balanced(tokens, i, "(", ")")
                s.fields[fid] = Field(fid, name, ftype, req)
            i += 1
            if i < n and tokens[i] == "(":
                i = skip_balanced(tokens, i, "(", ")")
            structs[s.name] = s
        elif t == "typedef":
            base, j = parse_type(tokens, i + 1)
            typedefs[tokens[j]] = base
            i = j + 1
        elif t in ("enum", "senum", "service") and i + 1 < n:
            j = i
            while j < n and tokens[j] != "{":
                j += 1
            i = skip_balanced(tokens, j, "{", "}")
        else:
            i += 1
    return structs, typedefs


def parse_files(paths):
    structs, typedefs = {}, {}
    for p in paths:
        s, t = parse_file(p)
        for name, st in s.items():
            structs.setdefault(name, st)
        typedefs.update(t)
    return structs, typedefs


# ---- normalization -----------------------------------------------------------

def normalize(t, typedefs, depth=0):
    """Canonical form of a type: module prefixes dropped, typedefs resolved."""
    m = re.match(r"^(list|set|map)<(.*)>$", t)
    if m:
        args, level, cur = [], 0, ""
        for ch in m.group(2):
            if ch == "," and level == 0:
                args.append(cur)
                cur = ""
                continue
            level += ch == "<"
            level -= ch == ">"
            cur += ch
        args.append(cur)
        return "%s<%s>" % (m.group(1), ",".join(normalize(a, typedefs, depth) for a in args))
    base = t.split(".")[-1]
    if base == "byte":
        base = "i8"
    if base in typedefs and depth < 20:
        return normalize(typedefs[base], typedefs, depth + 1)
    return base


# ---- allow-list --------------------------------------------------------------

def load_allowlist(path):
    entries = {}
    if not path:
        return entries
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            parts = text.split()
            m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*)\.(\d+)$", parts[0]) if parts else None
            if len(parts) != 2 or not m or parts[1] not in KINDS:
                raise ValueError("%s:%d: expected '<Struct>.<id> <%s>'"
                                 % (path, lineno, "|".join(KINDS)))
            entries[(m.group(1), int(m.group(2)), parts[1])] = lineno
    return entries


# ---- comparison --------------------------------------------------------------

def describe(f):
    req = "" if f.req == "default" else f.req + " "
    return "%d: %s%s %s" % (f.id, req, f.type, f.name)


def compare(ours, ours_td, theirs, theirs_td, allow, verbose, out):
    counts = dict(structs=0, fields=0, mismatches=0, allowed=0, lack=0, lack_required=0,
                  extra=0, ours_only_structs=0)
    used = set()

    def allowed(struct, fid, kind):
        for k in (kind, "any"):
            if (struct, fid, k) in allow:
                used.add((struct, fid, k))
                return True
        return False

    for name in sorted(ours):
        mine = ours[name]
        up = theirs.get(name)
        if up is None:
            counts["ours_only_structs"] += 1
            if verbose:
                out.append("INFO      %s: not declared upstream" % name)
            continue
        counts["structs"] += 1
        for fid in sorted(set(mine.fields) | set(up.fields)):
            a, b = mine.fields.get(fid), up.fields.get(fid)
            if a is None:
                counts["lack"] += 1
                flag = "REQUIRED " if b.req == "required" else ""
                if b.req == "required":
                    counts["lack_required"] += 1
                if verbose or b.req == "required":
                    out.append("LACK      %s.%d: upstream %s%s" % (name, fid, flag, describe(b)))
                continue
            if b is None:
                counts["extra"] += 1
                tag = "ALLOWED  " if allowed(name, fid, "extra") else "EXTRA    "
                out.append("%s %s.%d: only ours: %s" % (tag, name, fid, describe(a)))
                continue
            counts["fields"] += 1
            diffs = []
            if a.name != b.name:
                diffs.append(("name", "name %s vs upstream %s" % (a.name, b.name)))
            ta, tb = normalize(a.type, ours_td), normalize(b.type, theirs_td)
            if ta != tb:
                diffs.append(("type", "type %s vs upstream %s" % (ta, tb)))
            if a.req != b.req:
                diffs.append(("requiredness", "%s vs upstream %s" % (a.req, b.req)))
            for kind, text in diffs:
                if allowed(name, fid, kind):
                    counts["allowed"] += 1
                    out.append("ALLOWED   %s.%d (%s): %s" % (name, fid, a.name, text))
                else:
                    counts["mismatches"] += 1
                    out.append("MISMATCH  %s.%d (%s): %s  [%s]"
                               % (name, fid, a.name, text, os.path.basename(mine.path)))
    stale = sorted(k for k in allow if k not in used)
    return counts, stale


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--impala", help="Apache Impala's common/thrift directory")
    ap.add_argument("--hive", help="the Hive metastore's hive_metastore.thrift")
    ap.add_argument("--ours", default=os.path.join(here, "..", "common", "thrift"),
                    help="our IDL directory (default: common/thrift of this tree)")
    ap.add_argument("--allow", default=os.path.join(here, "idl_allowlist.txt"),
                    help="allow-list of deliberate differences ('' for none)")
    ap.add_argument("--verbose", "-v", action="store_true",
                    help="also list every field we lack and structs only we declare")
    ap.add_argument("--strict", action="store_true", help="fail on stale allow-list entries")
    args = ap.parse_args(argv)
    if not args.impala and not args.hive:
        ap.error("give --impala and/or --hive")

    try:
        allow = load_allowlist(args.allow) if args.allow else {}
        our_files = sorted(os.path.join(args.ours, f) for f in os.listdir(args.ours)
                           if f.endswith(".thrift"))
        hive_side = [f for f in our_files if os.path.basename(f).startswith("hive_metastore")]
        impala_side = [f for f in our_files if f not in hive_side]
        groups = []
        if args.impala:
            up = sorted(os.path.join(args.impala, f) for f in os.listdir(args.impala)
                        if f.endswith(".thrift"))
            groups.append(("Impala", impala_side, up))
        if args.hive:
            groups.append(("Hive", hive_side, [args.hive]))
        parsed = []
        for label, mine_files, up_files in groups:
            ours, ours_td = parse_files(mine_files)
            theirs, theirs_td = parse_files(up_files)
            parsed.append((label, ours, ours_td, theirs, theirs_td))
        # Typedefs of either side may be used across files of the same side.
        all_ours_td = {}
        for p in parsed:
            all_ours_td.update(p[2])
    except (OSError, ValueError) as e:
        print("check_idl: %s" % e, file=sys.stderr)
        return 2

    total = None
    stale_all = None
    for label, ours, _, theirs, theirs_td in parsed:
        out = []
        counts, stale = compare(ours, all_ours_td, theirs, theirs_td, allow, args.verbose, out)
        print("== %s: %d structs compared, %d field ids compared, %d mismatches, "
              "%d allowed differences, %d fields we lack (%d of them required), "
              "%d fields only ours, %d structs only ours"
              % (label, counts["structs"], counts["fields"], counts["mismatches"],
                 counts["allowed"], counts["lack"], counts["lack_required"], counts["extra"],
                 counts["ours_only_structs"]))
        for line in out:
            print("  " + line)
        if total is None:
            total, stale_all = dict(counts), set(stale)
        else:
            for k, v in counts.items():
                total[k] += v
            stale_all &= set(stale)  # stale only if no group used it
    print("== total: %d structs compared, %d field ids compared, %d mismatches, "
          "%d allowed differences, %d fields we lack"
          % (total["structs"], total["fields"], total["mismatches"], total["allowed"],
             total["lack"]))
    # Entries are only judged stale when every side was checked.
    if args.impala and args.hive:
        for struct, fid, kind in sorted(stale_all):
            print("STALE     allow-list line %d: %s.%d %s matches nothing"
                  % (allow[(struct, fid, kind)], struct, fid, kind))
        if stale_all and args.strict:
            return 1
    return 1 if total["mismatches"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
