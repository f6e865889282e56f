#!/usr/bin/env python3
"""Fails when a source file includes a header of a higher layer.

The tree is a stack of layers. `common/` and `statestore/` are the base every
daemon shares; catalogd and coordinator-sim are two stacks on top of that
base, and neither may include the other. Within a stack a directory may
include only its own files and those of directories with a lower rank; two
directories of the same rank do not include each other. The daemons' main()
files (`*_main.cc`) sit above everything of their stack. A header named
`*_internal.h` may be included only from its own directory. A door
(DOORS: the directories that translate a wire protocol into the command
core's commands) never includes the metastore or the file system: reads
and changes of stored objects, and directories, are the core's.

The ranks below are the layering rule; docs/ARCHITECTURE.md explains them.
Test, benchmark and fuzzing code under tests/ may include anything.

Usage: check_layers.py [REPO_ROOT]   (exit 0 clean, 1 violations, 2 usage)
       check_layers.py --self-test   (the checker finds planted violations)
"""

import os
import re
import sys

# (directory, stack, rank). The longest matching directory wins.
LAYERS = [
    ("common/util", "base", 0),
    ("common/metrics", "base", 1),
    ("common/rpc", "base", 2),
    ("common/codec", "base", 3),
    ("common/types", "base", 3),
    ("common/hive", "base", 4),
    ("common/web", "base", 4),
    ("common/sql", "base", 5),
    ("common/daemon", "base", 5),
    ("statestore", "base", 6),
    # catalogd: storage, then the immutable catalog, then what builds and
    # publishes states, the core's shared writer, the operations, the
    # observability that reads them, the wiring, the daemon.
    ("catalogd/metastore", "catalogd", 10),
    ("catalogd/catalog", "catalogd", 11),
    ("catalogd/loader", "catalogd", 12),
    ("catalogd/topic", "catalogd", 12),
    ("catalogd/core", "catalogd", 13),
    ("catalogd/ddl", "catalogd", 14),
    ("catalogd/fetch", "catalogd", 14),
    ("catalogd/ops", "catalogd", 15),
    ("catalogd/events", "catalogd", 16),
    ("catalogd/mds", "catalogd", 16),
    ("catalogd/hms", "catalogd", 16),
    ("catalogd/web", "catalogd", 17),
    ("catalogd/service", "catalogd", 18),
    ("catalogd", "catalogd", 19),
    # coordinator-sim: local catalogs, execution, the
    # coordinator itself, its pages and the shell, the daemon.
    ("coordinator-sim/catalog", "coordinator", 10),
    ("coordinator-sim/exec", "coordinator", 11),
    ("coordinator-sim", "coordinator", 12),
    ("coordinator-sim/shell", "coordinator", 13),
    ("coordinator-sim/web", "coordinator", 13),
]
# Doors of catalogd's command core and what they may not include: the
# metastore (reads are the core's queries, changes its commands) and the
# file system (directories are the core's).
DOORS = ("catalogd/hms", "catalogd/mds")
DOOR_FORBIDDEN = ("catalogd/metastore/", "catalogd/loader/file_system.h",
                  "catalogd/loader/confined_file_system.h")
MAIN_RANK = 99  # *_main.cc: above everything of its stack
SOURCE_DIRS = ("common", "statestore", "catalogd", "coordinator-sim")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(path):
    best = None
    for directory, stack, rank in LAYERS:
        if path == directory or path.startswith(directory + "/"):
            if best is None or len(directory) > len(best[0]):
                best = (directory, stack, rank)
    if best is None:
        return None
    if os.path.basename(path).endswith("_main.cc"):
        return (best[0] + " (main)", best[1], MAIN_RANK)
    return best


def check_file(root, rel, problems):
    src = layer_of(rel)
    if src is None:
        problems.append(f"{rel}: not in any layer (add its directory to LAYERS)")
        return
    src_dir = os.path.dirname(rel)
    with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
        for lineno, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            inc = m.group(1)
            if not inc.startswith(tuple(d + "/" for d in SOURCE_DIRS)):
                continue  # generated code, system and third-party headers
            inc_dir = os.path.dirname(inc)
            where = f"{rel}:{lineno}: includes {inc}"
            if inc.startswith(DOOR_FORBIDDEN) and src_dir.startswith(DOORS):
                problems.append(f"{where}: a door ({src_dir}) leaves the metastore and the "
                                "file system to the command core (catalogd/ops)")
                continue
            if inc.endswith("_internal.h") and inc_dir != src_dir:
                problems.append(f"{where}: an _internal.h header is private to {inc_dir}/")
                continue
            if inc_dir == src_dir:
                continue
            dst = layer_of(inc)
            if dst is None:
                problems.append(f"{where}: the header is not in any layer")
                continue
            if dst[1] != "base" and dst[1] != src[1]:
                problems.append(f"{where}: {src[1]} code may not include {dst[1]} code")
            elif dst[1] == src[1] and dst[2] >= src[2]:
                relation = "the same layer" if dst[2] == src[2] else "a higher layer"
                problems.append(f"{where}: {dst[0]} (rank {dst[2]}) is {relation} than "
                                f"{src[0]} (rank {src[2]})")
            elif src[1] == "base" and dst[2] >= src[2]:
                problems.append(f"{where}: {dst[0]} (rank {dst[2]}) is not below "
                                f"{src[0]} (rank {src[2]})")


def check_tree(root):
    problems = []
    files = 0
    for top in SOURCE_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for name in sorted(filenames):
                if name.endswith((".h", ".cc")):
                    rel = os.path.relpath(os.path.join(dirpath, name), root)
                    check_file(root, rel, problems)
                    files += 1
    return files, problems


def self_test():
    """Plants one violation of each kind in a scratch tree."""
    import tempfile
    planted = {
        "common/util/a.h": '#include "common/rpc/b.h"\n',             # base uphill
        "common/rpc/b.h": '#include "common/util/a.h"\n',             # fine
        "catalogd/ddl/c.cc": '#include "catalogd/service/d.h"\n',     # stack uphill
        "catalogd/mds/e.cc": '#include "catalogd/events/f.h"\n',      # same rank
        "catalogd/events/f.h": '#include "catalogd/ddl/x_internal.h"\n',  # private header
        "coordinator-sim/exec/g.cc": '#include "catalogd/catalog/h.h"\n',  # other stack
        "coordinator-sim/coordinator_sim_main.cc": '#include "coordinator-sim/web/i.h"\n',
        "statestore/j.cc": '#include "catalogd/catalog/h.h"\n',       # base -> stack
        "catalogd/hms/k.cc": '#include "catalogd/loader/file_system.h"\n',  # door -> files
        "catalogd/mds/l.cc": '#include "catalogd/metastore/metastore.h"\n',  # door -> store
    }
    with tempfile.TemporaryDirectory() as root:
        for rel, text in planted.items():
            os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w") as f:
                f.write(text)
        _, problems = check_tree(root)
    want = ["common/util/a.h:1", "catalogd/ddl/c.cc:1", "catalogd/mds/e.cc:1",
            "catalogd/events/f.h:1", "coordinator-sim/exec/g.cc:1", "statestore/j.cc:1",
            "catalogd/hms/k.cc:1", "catalogd/mds/l.cc:1"]
    found = [w for w in want if any(p.startswith(w) for p in problems)]
    if found != want or len(problems) != len(want):
        print("self-test failed; reported:", *problems, sep="\n  ")
        return 1
    print(f"check_layers self-test: {len(want)} planted violations found, none else")
    return 0


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    if len(argv) > 2:
        print(__doc__.strip().splitlines()[-2], file=sys.stderr)
        return 2
    root = argv[1] if len(argv) == 2 else os.path.join(os.path.dirname(__file__), "..")
    files, problems = check_tree(os.path.abspath(root))
    for p in problems:
        print(p)
    print(f"check_layers: {files} files, {len(problems)} violations")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
