#!/usr/bin/env python3
"""Route equivalence: one algorithm reached through every route gets the same verdicts.

Fauerby's algorithm in float is reached four ways (docs/judge.md): built in
(`--algorithm fauerby`), behind the exec protocol (the C++ example client, which is that
algorithm), as paths written by `verify --write-paths` and judged by `judge`, and on fast/
(`--implementation fast`). On a small corpus of canonical and rotated moves, every command
that can take each route must give the same verdicts through it:

  verify      level A classes, their depths and the final position of every query (all four
              routes); every class, level B included, built in against fast/
  shards      verify --shard 0/2 and 1/2 merged give the whole run's records (built in, exec)
  resume      exec: a run killed with SIGKILL and resumed gives the whole run's records
  eps-sweep   built in against exec, under --scales and --offsets (the transformed scene is the
              one the client is given): the same level A counts in every cell
  search      built in against exec, plain and --rotated: the same failure found (scene and move)
  shrink      the case search found, shrunk by the shrink command: search's own minimal case, on
              each route (a built-in's shrink also keeps its first divergent step, which an exec
              client does not report, so minimal cases are compared within a route)

Usage: route_matrix.py SLIDECHECK EXEC_EXAMPLE SOURCE_DIR WORK_DIR [long]
`long` (ctest label campaign) takes every scale, offset and rotation of the shapes and more
search seeds. Prints "ok" last when every comparison holds; exits 1 naming the first that does
not.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import time

slidecheck, example, source, work = sys.argv[1:5]
long_form = len(sys.argv) > 5 and sys.argv[5] == "long"
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
EXEC = "exec:" + example
LEVEL_A = {"penetration", "path_penetration", "tunnelling", "nonfinite", "recovery"}


def fail(what):
    print("FAIL: " + what, file=sys.stderr)
    sys.exit(1)


def run(*args, ok=(0, 1)):
    """Runs slidecheck; fails unless it exits with one of `ok`."""
    p = subprocess.run([slidecheck, *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode not in ok:
        print(p.stdout[-4000:], file=sys.stderr)
        fail(f"slidecheck {' '.join(args)} exited {p.returncode}")
    return p.stdout


def records(directory):
    out = {}
    with open(os.path.join(directory, "records.jsonl")) as f:
        for line in f:
            r = json.loads(line)
            out[r["query_id"]] = r
    return out


def level_a(r):
    """What every route must agree on: level A classes with their depths, and where it ended."""
    depths = sorted((f["class"], f.get("depth")) for f in r["failures"] if f["class"] in LEVEL_A)
    return (sorted(c for c in r["classes"] if c in LEVEL_A), depths, r["final_position"], r["invalid_start"])


def same(name, a, b, key, what="queries"):
    if set(a) != set(b):
        fail(f"{name}: the routes judged other {what} ({len(a)} against {len(b)})")
    differ = [q for q in a if key(a[q]) != key(b[q])]
    for q in differ[:5]:
        print(f"  {q}:\n    {key(a[q])}\n    {key(b[q])}", file=sys.stderr)
    if differ:
        fail(f"{name}: {len(differ)} of {len(a)} {what} differ")
    print(f"{name}: {len(a)} {what}, the same verdicts")


# The corpus: canonical and rotated moves on three shapes, at unit scale near and far from the
# origin (every scale and offset in the long form).
shapes = ["floor", "room_corner", "stairs"] if not long_form else ["floor", "room_corner", "stairs", "acute_corner",
                                                                     "thin_wedge", "seams"]
run("corpus", "build", "--out", f"{work}/mv", "--movements", "--seed", "1", "--rotations", "1", "--walks", "2",
    *sum((["--shape", s] for s in shapes), []), ok=(0,))
with open(f"{work}/mv/queries.jsonl") as f:
    lines = f.readlines()
if not long_form:
    lines = [l for l in lines if "_s1_o0_" in l or "_s1_o10000_" in l]
corpus = f"{work}/mv/part.jsonl"
with open(corpus, "w") as f:
    f.writelines(lines)
print(f"corpus: {len(lines)} queries")

# verify through every route.
common = ["--quiet", "--no-views", "--corpus", corpus]
run("verify", *common, "--algorithm", "fauerby", "--precision", "float", "--out", f"{work}/builtin",
    "--write-paths", f"{work}/paths")
run("verify", *common, "--algorithm", "fauerby", "--precision", "float", "--implementation", "fast",
    "--out", f"{work}/fast")
run("verify", *common, "--implementation", EXEC, "--out", f"{work}/exec")
run("judge", *common, "--paths", f"{work}/paths/fauerby-float.paths.jsonl", "--out", f"{work}/judge")
builtin = records(f"{work}/builtin")
if not any(level_a(r)[0] for r in builtin.values()):
    fail("no query of the corpus fails at level A: the comparison would prove nothing")
same("verify exec", builtin, records(f"{work}/exec"), level_a)
same("judge paths", builtin, records(f"{work}/judge"), level_a)
same("verify fast", builtin, records(f"{work}/fast"),
     lambda r: (sorted(r["classes"]), r["final_position"], r["resting_positions"]))

# Sharded and merged.
for route, extra in (("builtin", ["--algorithm", "fauerby", "--precision", "float"]), ("exec", ["--implementation", EXEC])):
    for i in (0, 1):
        run("verify", *common, *extra, "--shard", f"{i}/2", "--out", f"{work}/{route}-shard{i}")
    run("merge", "--out", f"{work}/{route}-merged", f"{work}/{route}-shard0", f"{work}/{route}-shard1")
    same(f"shards merged ({route})", records(f"{work}/{route}"), records(f"{work}/{route}-merged"),
         lambda r: json.dumps(r, sort_keys=True))

# Killed with SIGKILL once the first records are on disk, then resumed. A killed run cannot
# remove its exec scene folder, so it makes it under the work folder, not in /tmp.
killed = f"{work}/exec-killed"
os.makedirs(f"{work}/tmp-killed")
p = subprocess.Popen([slidecheck, "verify", *common, "--implementation", EXEC, "--threads", "1", "--out", killed],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                     env={**os.environ, "TMPDIR": f"{work}/tmp-killed"})
deadline = time.time() + 60
while p.poll() is None and time.time() < deadline:
    path = f"{killed}/records.jsonl"
    if os.path.exists(path) and os.path.getsize(path) > 0:
        break
    time.sleep(0.005)
if p.poll() is not None:
    fail("the exec run ended before it could be killed: the corpus is too small for this test")
p.send_signal(signal.SIGKILL)
p.wait()
with open(f"{killed}/records.jsonl") as f:
    kept = sum(1 for _ in f)
run("verify", *common, "--implementation", EXEC, "--threads", "1", "--out", killed, "--resume")
same(f"killed after {kept} records and resumed (exec)", records(f"{work}/exec"), records(killed),
     lambda r: json.dumps(r, sort_keys=True))

# eps-sweep under moved and scaled worlds: the client must be given the transformed scene.
sweep = ["eps-sweep", "--quiet", "--no-views", "--corpus", corpus, "--precision", "float", "--values",
         "0x1p-20,0x1p-10,0x1p-6", "--scales", "1,8", "--offsets", "0,16384"]


def cells(directory):
    out = {}
    with open(os.path.join(directory, "cells.jsonl")) as f:
        for line in f:
            c = json.loads(line)
            out[(c["scale"], c["offset"], c["value"])] = c
    return out


run(*sweep, "--algorithm", "fauerby", "--tolerance", "very_close_distance", "--out", f"{work}/sweep-builtin")
run(*sweep, "--implementation", EXEC, "--tolerance", "very_close_distance", "--out", f"{work}/sweep-exec")
a, b = cells(f"{work}/sweep-builtin"), cells(f"{work}/sweep-exec")
# What both routes can see: level A per cell. Iteration caps and back-face culling are known to
# the built-in only (the exec client reports neither), so eps-class counts and eps* may differ.
same("eps-sweep cells", a, b,
     lambda c: (c["queries"], c["invalid"], {k: v for k, v in c["queries_with"].items() if k in LEVEL_A}), "cells")
if not any(c["queries_with"].get("penetration") for k, c in a.items() if k[1] != "0x0p+0"):
    fail("eps-sweep: no penetration in a moved world: the comparison would prove nothing")


# search, plain and rotated: the same failure found through both routes; shrink: the shrink
# command gives what search's own shrink gave, on each route. Shrinking a built-in's case keeps
# its first divergent step (level B, docs/search.md), which an exec client does not report, so the
# two routes' minimal cases may differ by design: each is compared within its route.
def case_of(path):
    """The case's scene and move, without what names the implementation that ran it."""
    with open(path) as f:
        c = json.load(f)
    q = {k: v for k, v in c["query"].items() if k not in ("algorithm", "tolerances", "id", "scene")}
    return q, [line for line in c["scene"]["lines"] if not line.startswith("source ")]


def case_dir(directory):
    found = [os.path.join(directory, d) for d in sorted(os.listdir(directory))
             if os.path.exists(os.path.join(directory, d, "case.case"))]
    if len(found) != 1:
        fail(f"{directory}: {len(found)} case directories, expected one")
    return found[0]


def found_case(d):
    original = os.path.join(d, "original.case")
    return original if os.path.exists(original) else os.path.join(d, "case.case")


seeds = [1, 2] if not long_form else [1, 2, 3, 4, 5, 6]
for rotated in ([], ["--rotated"]):
    for seed in seeds:
        name = f"search{'-rotated' if rotated else ''}-seed{seed}"
        args = ["search", "--quiet", "--precision", "float", "--property", "penetration", "--seed", str(seed), *rotated]
        run(*args, "--algorithm", "fauerby", "--out", f"{work}/{name}-builtin")
        run(*args, "--implementation", EXEC, "--out", f"{work}/{name}-exec")
        da, db = case_dir(f"{work}/{name}-builtin"), case_dir(f"{work}/{name}-exec")
        if case_of(found_case(da)) != case_of(found_case(db)):
            fail(f"{name}: the routes found other failures:\n{case_of(found_case(da))}\n{case_of(found_case(db))}")
        print(f"{name}: the same failure found ({len(case_of(found_case(da))[1])} scene lines)")
        if rotated or seed != seeds[0]:
            continue
        for route, d, how in (("builtin", da, ["--algorithm", "fauerby"]),
                              ("exec", db, ["--implementation", EXEC])):
            run("shrink", found_case(d), *how, "--property", "penetration", "--out", f"{work}/shrink-{route}")
            shrunk = case_of(f"{work}/shrink-{route}/case.case")
            if shrunk != case_of(os.path.join(d, "case.case")):
                fail(f"shrink ({route}): another minimal case than search's:\n{shrunk}\n{case_of(os.path.join(d, 'case.case'))}")
            print(f"shrink ({route}): search's minimal case ({len(shrunk[1])} scene lines)")
print("ok")
