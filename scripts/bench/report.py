#!/usr/bin/env python3
"""Writes report.md and PNG plots from the raw outputs of scripts/bench.sh.

Usage: report.py RESULTS_DIR

RESULTS_DIR holds meta.txt (key=value lines) and raw/<scenario>/<label>.r<k>.txt
(benchmark output, one figure a line: "<bench> <name>: <value> [unit] [(note)]")
or .r<k>.txt holding Google Benchmark JSON (codec_bench). Every figure is
reported as median [min - max] over the repeats k. Plots are drawn with
gnuplot (skipped with a note when gnuplot is missing).
"""
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
from collections import defaultdict

FIGURE = re.compile(r"^(\S+) (\S+): (-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|nan|inf)(?: ([^\s(]\S*))?")
RAW_NAME = re.compile(r"^(.+)\.r(\d+)\.txt$")


def load(results):
    """data[scenario][label][figure] = {repeat: value}; units[figure] = unit."""
    data = defaultdict(lambda: defaultdict(lambda: defaultdict(dict)))
    units = {}
    raw = os.path.join(results, "raw")
    for scen in sorted(os.listdir(raw)) if os.path.isdir(raw) else []:
        for name in sorted(os.listdir(os.path.join(raw, scen))):
            m = RAW_NAME.match(name)
            if not m:
                continue
            label, rep = m.group(1), int(m.group(2))
            with open(os.path.join(raw, scen, name), errors="replace") as f:
                text = f.read()
            if text.lstrip().startswith("{"):
                parse_benchmark_json(text, data[scen][label], units, rep)
                continue
            for line in text.splitlines():
                fm = FIGURE.match(line)
                if not fm:
                    continue
                key = fm.group(1) + " " + fm.group(2)
                try:
                    data[scen][label][key][rep] = float(fm.group(3))
                except ValueError:
                    continue
                units[key] = fm.group(4) or ""
    return data, units


def parse_benchmark_json(text, figures, units, rep):
    try:
        doc = json.loads(text)
    except ValueError:
        return
    for b in doc.get("benchmarks", []):
        if b.get("run_type", "iteration") != "iteration":
            continue
        name = b["name"]
        if "bytes_per_second" in b:
            figures[name + " MB/s"][rep] = b["bytes_per_second"] / 1e6
            units[name + " MB/s"] = "MB/s"
        for c in ("ratio", "lz4_ratio", "deflate_ratio", "value_bytes", "desc_bytes"):
            if c in b:
                figures[name + " " + c][rep] = float(b[c])
                units[name + " " + c] = ""
        scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}.get(b.get("time_unit", "ns"), 1e-3)
        figures[name + " time_us"][rep] = b["cpu_time"] * scale
        units[name + " time_us"] = "us"


def fmt(v):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    a = abs(v)
    if a >= 1e9:
        return "%.2fG" % (v / 1e9)
    if a >= 1e6:
        return "%.2fM" % (v / 1e6)
    if a >= 1e4:
        return "%.0fk" % (v / 1e3)
    if a >= 100:
        return "%.0f" % v
    if a >= 10:
        return "%.1f" % v
    if a >= 1:
        return "%.2f" % v
    return "%.3g" % v


def cell(vals):
    """'median [min-max]' of a {repeat: value} dict (or a list)."""
    vs = sorted(vals.values() if isinstance(vals, dict) else vals)
    if not vs:
        return "-"
    med = statistics.median(vs)
    if len(vs) == 1:
        return fmt(med)
    return "%s [%s-%s]" % (fmt(med), fmt(vs[0]), fmt(vs[-1]))


def median(vals):
    vs = list(vals.values() if isinstance(vals, dict) else vals)
    return statistics.median(vs) if vs else None


def ratio(num, den):
    """Per-repeat ratios of two {repeat: value} dicts (repeats present in both)."""
    return {r: num[r] / den[r] for r in num if r in den and den[r] > 0}


def table(header, rows):
    out = ["", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for r in rows:
        out.append("| " + " | ".join(r) + " |")
    return "\n".join(out) + "\n"


class Plotter:
    def __init__(self, results):
        self.dir = results
        self.gnuplot = shutil.which("gnuplot")
        self.made = []

    def plot(self, name, title, xlabel, ylabel, series, logx=False, logy=False, y2=None):
        """series: list of (title, [(x, y)]) ; y2: optional (ylabel, [(title, pts)])."""
        series = [(t, sorted(p)) for t, p in series if p]
        if not self.gnuplot or not series:
            return None
        dat = os.path.join(self.dir, name + ".dat")
        blocks, idx = [], 0
        plots = []
        allseries = [(t, p, "x1y1") for t, p in series]
        if y2:
            allseries += [(t, sorted(p), "x1y2") for t, p in y2[1] if p]
        with open(dat, "w") as f:
            for t, pts, axes in allseries:
                f.write("# %s\n" % t)
                for x, y in pts:
                    f.write("%g %g\n" % (x, y))
                f.write("\n\n")
                plots.append("'%s' index %d using 1:2 with linespoints lw 2 pt 7 axes %s title '%s'"
                             % (dat, idx, axes, t.replace("'", "")))
                idx += 1
        gp = [
            "set terminal pngcairo size 900,540 font 'sans,10' noenhanced",
            "set output '%s'" % os.path.join(self.dir, name + ".png"),
            "set title '%s'" % title.replace("'", ""),
            "set xlabel '%s'" % xlabel,
            "set ylabel '%s'" % ylabel,
            "set grid",
            "set key top left",
            "set yrange [0:*]" if not logy else "set logscale y",
        ]
        if logx:
            gp.append("set logscale x")
        if y2:
            gp += ["set y2label '%s'" % y2[0], "set y2tics", "set ytics nomirror", "set y2range [0:*]"]
        gp.append("plot " + ", ".join(plots))
        script = os.path.join(self.dir, name + ".gp")
        with open(script, "w") as f:
            f.write("\n".join(gp) + "\n")
        r = subprocess.run([self.gnuplot, script], capture_output=True, text=True)
        if r.returncode != 0:
            sys.stderr.write("gnuplot %s: %s\n" % (name, r.stderr))
            return None
        self.made.append(name + ".png")
        return name + ".png"


def sizes_of(figs, prefix, suffix):
    """Sorted N for figures '<prefix>n<N><suffix>'."""
    pat = re.compile("^" + re.escape(prefix) + r"n(\d+)" + re.escape(suffix) + "$")
    return sorted({int(m.group(1)) for k in figs for m in [pat.match(k)] if m})


def section_s1(data, plot):
    s1 = data.get("s1")
    if not s1:
        return ""
    ours, redis, ss = s1.get("ours", {}), s1.get("redis", {}), s1.get("statestore", {})
    bare = s1.get("thrift", {})
    replied = s1.get("statestore_replied", {})
    md = ["## 1. Propagation and SYNC_DDL (baseline: Redis PUBLISH)\n\n"]
    md.append(
        "*Ours* = ALTER TABLE ADD PARTITION issued on coordinator 0 until every one of N "
        "coordinators' local catalogs has the new version (DDL RPC incl. the durable SQLite "
        "commit, topic publication, statestore push, apply). *Statestore fan-out* = one topic "
        "entry pushed by a subscriber (RequestTopicUpdate carrying it) until all N subscribers "
        "received it (statestore_bench, no catalogd; its subscribers accept updates without a "
        "reply, UpdateStateOneway; *replied*: the same with every update waiting for its "
        "reply, as for Impala's subscribers). *Redis* = PUBLISH of the same payload until all N subscribers received it. "
        "*Bare Thrift* = the same payload as a one-entry UpdateState RPC from one plain sender "
        "thread to N plain receivers, every request written before any reply is read "
        "(thrift_fanout_bench): the floor of Impala's request/response protocol, which Redis "
        "does not pay (no reply per receiver). "
        "All four: same clock and percentiles (tests/bench/fanout_stats.h). Ratios are per repeat, "
        "then median [min-max]. Latencies in ms.\n")
    rows, pts = [], defaultdict(list)
    for n in sizes_of(ours, "propagation ", "_all_received_p99"):
        o = lambda f: ours.get("propagation n%d_%s" % (n, f), {})
        r = lambda f: redis.get("redis_fanout n%d_%s" % (n, f), {})
        s = lambda f: ss.get("statestore_fanout n%d_%s" % (n, f), {})
        b = lambda f: bare.get("thrift_fanout n%d_%s" % (n, f), {})
        sr = lambda f: replied.get("statestore_fanout n%d_%s" % (n, f), {})
        rows.append([
            str(n), cell(o("all_received_p50")), cell(o("all_received_p99")),
            cell(o("sync_ddl_p50")), cell(o("sync_ddl_p99")),
            cell(s("all_received_p50")), cell(s("all_received_p99")), cell(sr("all_received_p99")),
            cell(r("all_received_p50")), cell(r("all_received_p99")),
            cell(b("all_received_p99")),
            cell(ratio(o("all_received_p99"), r("all_received_p99"))),
            cell(ratio(s("all_received_p99"), r("all_received_p99"))),
            cell(o("payload_bytes")), cell(o("sync_ddl_violations")),
        ])
        for title, d in (("ours: DDL until all applied (p99)", o("all_received_p99")),
                         ("ours: SYNC_DDL statement (p99)", o("sync_ddl_p99")),
                         ("statestore fan-out (p99)", s("all_received_p99")),
                         ("Redis PUBLISH fan-out (p99)", r("all_received_p99")),
                         ("bare Thrift UpdateState fan-out (p99)", b("all_received_p99"))):
            if d:
                pts[title].append((n, median(d)))
    md.append(table(["N", "ours p50", "ours p99", "SYNC_DDL p50", "SYNC_DDL p99",
                     "statestore p50", "statestore p99", "statestore replied p99",
                     "Redis p50", "Redis p99",
                     "bare Thrift p99", "ours/Redis p99", "statestore/Redis p99", "payload bytes",
                     "SYNC_DDL violations"], rows))
    rows = []
    for n in sizes_of(ours, "propagation ", "_all_received_p99"):
        o = lambda f: ours.get("propagation n%d_%s" % (n, f), {})
        rows.append([str(n), cell(o("per_receiver_p50")), cell(o("ddl_rpc_p50")),
                     cell(o("ddl_rpc_p99")), cell(o("startup")), cell(o("statestored_cpu")),
                     cell(o("statestored_rss")), cell(o("incomplete_rounds"))])
    md.append("\nBreakdown of our side: per-coordinator p50 (ms), the DDL RPC alone (ms), "
              "start-up of N coordinators (s), statestored CPU (% of one core) and RSS (bytes) "
              "during the DDL rounds.\n")
    md.append(table(["N", "per-coordinator p50", "DDL RPC p50", "DDL RPC p99", "start-up s",
                     "statestored CPU %", "statestored RSS", "incomplete rounds"], rows))
    rows = []
    for n in sizes_of(ss, "statestore_fanout ", "_sender_cpu_us"):
        s = lambda f: ss.get("statestore_fanout n%d_%s" % (n, f), {})
        r = lambda f: redis.get("redis_fanout n%d_%s" % (n, f), {})
        b = lambda f: bare.get("thrift_fanout n%d_%s" % (n, f), {})
        sr = lambda f: replied.get("statestore_fanout n%d_%s" % (n, f), {})
        rows.append([str(n), cell(s("sender_cpu_us")), cell(s("receiver_cpu_us")),
                     cell(sr("sender_cpu_us")), cell(sr("receiver_cpu_us")),
                     cell(r("sender_cpu_us")), cell(r("receiver_cpu_us")),
                     cell(b("sender_cpu_us")), cell(b("receiver_cpu_us")),
                     cell(s("spacing_us")), cell(r("spacing_us")), cell(b("spacing_us"))])
    if rows:
        md.append("\nWhere the fan-out's CPU goes: CPU microseconds per delivery (rounds x N) on "
                  "the sending side (statestored; redis-server; the bare sender thread) and on "
                  "the receiving side (the process of the N receivers and the publisher), over "
                  "the measured rounds (tests/bench/fanout_cpu.h); and the spacing of "
                  "deliveries (us per receiver). On 2 cores a round lasts about the CPU of "
                  "both sides over the cores.\n")
        md.append(table(["N", "statestored", "its subscribers", "statestored (replied)",
                         "its subscribers (replied)", "redis-server",
                         "its subscribers", "bare sender", "its receivers",
                         "statestore spacing", "Redis spacing", "bare spacing"], rows))
    p = plot.plot("s1_propagation", "Propagation to N receivers (p99, median of repeats)", "N",
                  "ms", list(pts.items()), logx=True)
    if p:
        md.append("\n![propagation](%s)\n" % p)
    # Targets.
    o99 = ours.get("propagation n100_all_received_p99")
    r99 = redis.get("redis_fanout n100_all_received_p99")
    if o99:
        md.append("\nTarget p99 <= 10 ms at N = 100: median %s ms -> **%s**. " %
                  (fmt(median(o99)), "met" if median(o99) <= 10 else "not met"))
        if r99:
            rr = median(ratio(o99, r99))
            md.append("Target ours/Redis p99 <= 2.5 at N = 100: %s -> **%s**.\n" %
                      (fmt(rr), "met" if rr is not None and rr <= 2.5 else "not met"))
    for n in (100, 500):
        s99 = ss.get("statestore_fanout n%d_all_received_p99" % n)
        rn99 = redis.get("redis_fanout n%d_all_received_p99" % n)
        b99 = bare.get("thrift_fanout n%d_all_received_p99" % n)
        if s99 and rn99:
            sr = median(ratio(s99, rn99))
            md.append("\nTarget statestore/Redis p99 <= 1.5 at N = %d: %s -> **%s**." %
                      (n, fmt(sr), "met" if sr is not None and sr <= 1.5 else "not met"))
            if b99:
                md.append(" Bare Thrift/Redis p99: %s; statestore/bare Thrift p99: %s." %
                          (fmt(median(ratio(b99, rn99))), fmt(median(ratio(s99, b99)))))
            sr99 = replied.get("statestore_fanout n%d_all_received_p99" % n)
            if sr99:
                md.append(" With every update replied: statestore/Redis p99 %s." %
                          fmt(median(ratio(sr99, rn99))))
            md.append("\n")
    return "".join(md) + "\n"


def section_s2(data, plot):
    f = data.get("s2", {}).get("fetch")
    if not f:
        return ""
    md = ["## 2. Partial fetch (baseline: a bare Thrift server returning the same bytes)\n\n",
          "GetPartialCatalogObject for 100 random partitions with files of a 10,000-partition "
          "table, closed loop per client (partial_fetch_rpc_bench). Target ratio >= 0.9.\n"]
    rows, pts = [], defaultdict(list)
    clients = sorted({int(m.group(1)) for k in f for m in [re.match(r".* clients(\d+)_ratio$", k)] if m})
    for c in clients:
        g = lambda x: f.get("partial_fetch_rpc clients%d_%s" % (c, x), {})
        rows.append([str(c), cell(g("catalogd_req_per_sec")), cell(g("bare_req_per_sec")),
                     cell(g("ratio")), cell(g("catalogd_p99")), cell(g("bare_p99")),
                     cell(g("p99_ratio"))])
        for t, d in (("catalogd", g("catalogd_req_per_sec")), ("bare Thrift", g("bare_req_per_sec"))):
            if d:
                pts[t].append((c, median(d)))
    md.append(table(["clients", "catalogd req/s", "bare req/s", "ratio", "catalogd p99 us",
                     "bare p99 us", "p99 ratio"], rows))
    p = plot.plot("s2_partial_fetch", "Partial fetch throughput", "concurrent clients", "requests/s",
                  list(pts.items()), logx=True)
    if p:
        md.append("\n![partial fetch](%s)\n" % p)
    return "".join(md) + "\n"


def s3_labels(s3):
    return sorted((int(l[1:]), l) for l in s3 if re.match(r"^p\d+$", l))


def section_s3(data, plot):
    s3 = data.get("s3")
    if not s3:
        return ""
    md = ["## 3. Catalog load and memory\n\n",
          "catalog_load_bench per size: synthetic HMS catalog in SQLite, loaded as catalogd does "
          "(background loaders), 10 synthetic files per partition; memory = RSS growth of the "
          "loading process (and the object estimate).\n"]
    rows, t_pts, b_pts, e_pts = [], [], [], []
    for p, l in s3_labels(s3):
        g = lambda x: s3[l].get("catalog_load " + x, {})
        rows.append([str(p), cell(g("files_loaded")), cell(g("load_time")),
                     cell(g("partitions_per_sec")), cell(g("files_per_sec")),
                     cell(g("partitions_per_cpu_sec")), cell(g("rss_delta_total")),
                     cell(g("rss_bytes_per_partition")), cell(g("rss_bytes_per_file_desc")),
                     cell(g("estimate_bytes_per_partition"))])
        if g("load_time"):
            t_pts.append((p, median(g("load_time"))))
        if g("rss_delta_total"):
            b_pts.append((p, median(g("rss_delta_total")) / 1e6))
        if g("estimate_bytes_total"):
            e_pts.append((p, median(g("estimate_bytes_total")) / 1e6))
    md.append(table(["partitions", "files", "load s", "partitions/s", "files/s",
                     "partitions/cpu-s", "RSS growth", "RSS B/partition", "RSS B/file desc",
                     "estimate B/partition"], rows))
    a = plot.plot("s3_load_time", "Load time vs partitions (10 files each)", "partitions",
                  "seconds", [("load time", t_pts)])
    b = plot.plot("s3_load_bytes", "catalogd memory vs partitions (10 files each)", "partitions",
                  "MB", [("RSS growth", b_pts), ("object estimate", e_pts)])
    for x in (a, b):
        if x:
            md.append("\n![%s](%s)\n" % (x[:-4], x))
    return "".join(md) + "\n"


def section_s4(data, plot):
    s3 = data.get("s3")
    if not s3:
        return ""
    md = ["## 4. Topic size (v1 = full, v2 = minimal, mixed = both; LZ4-compacted or not)\n\n",
          "Full topic built by CatalogTopicPublisher::BuildFullTopic over the catalogs of "
          "section 3 (cold build = fresh publisher).\n"]
    rows, pts = [], defaultdict(list)
    for p, l in s3_labels(s3):
        for mode, v in (("full", "v1"), ("mixed", "v1+v2"), ("minimal", "v2")):
            g = lambda x: s3[l].get("catalog_load topic_%s_%s" % (mode, x), {})
            rows.append([str(p), "%s (%s)" % (mode, v), cell(g("uncompressed_entries")),
                         cell(g("uncompressed_bytes")), cell(g("lz4_bytes")), cell(g("lz4_ratio")),
                         cell(g("uncompressed_build_cold")), cell(g("lz4_build_cold")),
                         cell(g("lz4_build_warm"))])
            for t, d in (("%s uncompressed" % mode, g("uncompressed_bytes")),
                         ("%s LZ4" % mode, g("lz4_bytes"))):
                if d and mode != "mixed":
                    pts[t].append((p, median(d) / 1e6))
    md.append(table(["partitions", "mode", "entries", "bytes", "LZ4 bytes", "LZ4 ratio",
                     "build ms", "LZ4 build ms", "LZ4 warm build ms"], rows))
    x = plot.plot("s4_topic_bytes", "Full topic size vs partitions (log scale)", "partitions",
                  "MB", list(pts.items()), logy=True)
    if x:
        md.append("\n![topic size](%s)\n" % x)
    return "".join(md) + "\n"


def section_s5(data, plot):
    idle = data.get("s5", {}).get("idle", {})
    ours = data.get("s1", {}).get("ours", {})
    if not idle and not ours:
        return ""
    md = ["## 5. Statestore scale\n\n",
          "Idle: statestored (separate process) with M registered subscribers at the default "
          "heartbeat cadence (statestore_bench). Busy: statestored during the DDL rounds of "
          "section 1 with N coordinators (+ catalogd + one observer).\n"]
    rows, cpu, rss = [], [], []
    for m in sizes_of(idle, "statestore_idle ", "_cpu"):
        c = idle.get("statestore_idle n%d_cpu" % m, {})
        r = idle.get("statestore_idle n%d_rss" % m, {})
        rows.append(["idle", str(m), cell(c), cell(r)])
        if c:
            cpu.append((m, median(c)))
        if r:
            rss.append((m, median(r) / 1e6))
    for n in sizes_of(ours, "propagation ", "_statestored_cpu"):
        rows.append(["DDL rounds", str(n), cell(ours.get("propagation n%d_statestored_cpu" % n, {})),
                     cell(ours.get("propagation n%d_statestored_rss" % n, {}))])
    md.append(table(["load", "subscribers", "CPU % of one core", "RSS bytes"], rows))
    join_rows = []
    for j in sizes_of(idle, "statestore_join ", "_seconds"):
        key = "statestore_join n%d_" % j
        join_rows.append([str(j), cell(idle.get(key + "topic_bytes", {})),
                          cell(idle.get(key + "seconds", {})),
                          cell(idle.get(key + "peak_rss_growth", {}))])
    if join_rows:
        md.append("\nJoin: J subscribers register at once while the topic already holds the "
                  "given bytes (a statestore restart, a cluster start); each gets the full topic. "
                  "Seconds until all hold it, and statestored's peak RSS growth meanwhile (one "
                  "shared encoding of the full update, not one copy per subscriber).\n\n")
        md.append(table(["subscribers", "topic bytes", "seconds", "peak RSS growth bytes"],
                        join_rows))
    x = plot.plot("s5_statestore", "statestored when idle vs subscribers", "subscribers",
                  "CPU % of one core", [("CPU", cpu)], y2=("RSS MB", [("RSS", rss)]))
    if x:
        md.append("\n![statestore](%s)\n" % x)
    return "".join(md) + "\n"


def section_s6(data, plot):
    f = data.get("s6", {}).get("coordmem")
    if not f:
        return ""
    md = ["## 6. Coordinator memory: full replica vs on demand\n\n",
          "One coordinator process per mode against the same catalog (coordinator_memory_bench); "
          "RSS after catching up with the topic and after 1% of the tables were used "
          "(DESCRIBE + pruned EXPLAIN). Latencies in ms.\n"]
    rows = []
    for mode in ("full_replica", "on_demand"):
        g = lambda x: f.get("coordinator_memory %s_%s" % (mode, x), {})
        rows.append([mode, cell(g("catch_up_time")), cell(g("rss_after_catch_up")),
                     cell(g("rss_after_touch")), cell(g("cold_describe_p50")),
                     cell(g("cold_explain_p50")), cell(g("warm_explain_p50"))])
    md.append(table(["mode", "catch-up s", "RSS caught up", "RSS after use", "cold DESCRIBE p50",
                     "cold EXPLAIN p50", "warm EXPLAIN p50"], rows))
    md.append("\nRSS ratio on demand / full replica: %s (topic %s bytes, %s entries).\n" % (
        cell(f.get("coordinator_memory rss_ratio_on_demand_vs_full_replica", {})),
        cell(f.get("coordinator_memory topic_bytes", {})),
        cell(f.get("coordinator_memory topic_entries", {}))))
    return "".join(md) + "\n"


def section_s7(data, plot):
    f = data.get("s7", {}).get("codec")
    if not f:
        return ""
    md = ["## 7. Codec limits\n\n",
          "codec_bench on a v1 table object with 10 or 1,000 partitions of 4 files (Raw* = the "
          "library alone on the serialized bytes; EncodeTopicValue = our topic value path). "
          "MB/s of uncompressed bytes.\n"]
    names = sorted({k.rsplit(" ", 1)[0] for k in f})
    rows = []
    for n in names:
        ratio_k = next((n + " " + c for c in ("ratio", "lz4_ratio", "deflate_ratio")
                        if (n + " " + c) in f), None)
        rows.append([n, cell(f.get(n + " MB/s", {})), cell(f.get(n + " time_us", {})),
                     cell(f[ratio_k]) if ratio_k else "-"])
    md.append(table(["benchmark", "MB/s (per CPU-second)", "CPU us per op", "compression ratio"], rows))
    return "".join(md) + "\n"


def section_s8(data, plot):
    runs = data.get("s8", {})
    if not runs:
        return ""
    md = ["## 8. The real path: catalogd memory, REFRESH rate, ADD PARTITION latency\n\n",
          "real_path_bench: the daemons as processes; one table created through the HMS "
          "endpoint with every partition's full storage descriptor, Spark-style data files on "
          "tmpfs, REFRESH through a coordinator; catalogd VmRSS from /proc before and after "
          "the first REFRESH. ADD PARTITION through the coordinator on a 100-partition table "
          "and on the big table, alternating.\n"]
    rows = []
    per_part = {}
    for label in sorted(runs, key=lambda l: tuple(int(x[1:]) for x in l.split("_"))):
        f = runs[label]
        g = lambda x: f.get("real_path " + x, {})
        p, files = (int(x[1:]) for x in label.split("_"))
        per_part[(p, files)] = g("rss_bytes_per_partition")
        big = next((k for k in f if k.startswith("real_path add_partition_ms_p50_t")
                    and not k.endswith("_t100")), None)
        direct_big = next((k for k in f if k.startswith("real_path catalogd_add_partition_ms_p50_t")
                           and not k.endswith("_t100")), None)
        rows.append([str(p), str(files), cell(g("rss_bytes_per_partition")),
                     cell(g("rss_after_refresh_mb")), cell(g("refresh_partitions_per_s")),
                     cell(g("second_refresh_partitions_per_s")),
                     cell(g("unchanged_refresh_partitions_per_s_median")),
                     cell(g("load_refresh_partitions_per_s_median")),
                     cell(g("add_partition_ms_p50_t100")), cell(f.get(big, {})) if big else "-",
                     cell(g("add_partition_p50_ratio")),
                     cell(g("catalogd_add_partition_ms_p50_t100")),
                     cell(f.get(direct_big, {})) if direct_big else "-",
                     cell(g("catalogd_add_partition_p50_ratio"))])
    md.append(table(["partitions", "files each", "RSS B/partition", "RSS MiB after",
                     "REFRESH partitions/s", "unchanged REFRESH partitions/s",
                     "unchanged REFRESH, median", "reload (INVALIDATE + REFRESH), median",
                     "ADD PARTITION ms (100)", "ADD PARTITION ms (big)", "ratio",
                     "catalogd ExecDdl ms (100)", "catalogd ExecDdl ms (big)", "ratio"], rows))
    extra = []
    for (p, files), v in sorted(per_part.items()):
        one = per_part.get((p, 1))
        if files > 1 and one:
            per_file = {r: (v[r] - one[r]) / (files - 1) for r in v if r in one}
            extra.append("%d partitions: %s B per additional file" % (p, cell(per_file)))
    if extra:
        md.append("\nRSS per additional file (same run, %s): %s.\n" % (
            "10 files vs 1 per partition", "; ".join(extra)))
    return "".join(md) + "\n"


def section_s9(data, plot):
    f = data.get("s9", {}).get("failover")
    if not f:
        return ""
    md = ["## 9. catalogd failover\n\n",
          "ha_failover_bench: statestored, two HA catalogds sharing one SQLite metastore, one "
          "coordinator-sim process; a CREATE TABLE storm on coordinator 0; kill -9 of the active "
          "catalogd. \"default\": statestored's default heartbeat timings; \"fast\": 100 ms "
          "heartbeats, the failing active probed every 50 ms. Apache Impala's anchors: 10-40 s "
          "to detect, then a full metadata reset.\n"]
    rows = []
    for prof in ("default", "fast"):
        g = lambda x: f.get("ha_failover %s_%s" % (x, prof), {})
        if not g("failover_to_ack_ms"):
            continue
        rows.append([prof, cell(g("failover_to_ack_ms")), cell(g("failover_to_applied_ms")),
                     cell(g("storm_ddl_per_s_before")), cell(g("storm_ddl_per_s_failover")),
                     cell(g("cache_hit_ratio_after"))])
    md.append(table(["timings", "kill -> DDL acked ms", "kill -> all coordinators ms",
                     "storm DDL/s before", "storm DDL/s over the failover",
                     "cache hit ratio after"], rows))
    return "".join(md) + "\n"


def appendix(data, units):
    md = ["## Appendix: every figure (min / median / max over repeats)\n\n"]
    rows = []
    for scen in sorted(data):
        for label in sorted(data[scen]):
            for fig in sorted(data[scen][label]):
                vs = sorted(data[scen][label][fig].values())
                if not vs:
                    continue
                rows.append([scen, label, fig, units.get(fig, ""), fmt(vs[0]),
                             fmt(statistics.median(vs)), fmt(vs[-1]), str(len(vs))])
    md.append(table(["scenario", "run", "figure", "unit", "min", "median", "max", "runs"], rows))
    return "".join(md)


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: report.py RESULTS_DIR\n")
        return 2
    results = sys.argv[1]
    meta = {}
    try:
        with open(os.path.join(results, "meta.txt")) as f:
            for line in f:
                if "=" in line:
                    k, v = line.rstrip("\n").split("=", 1)
                    meta[k] = v
    except OSError:
        pass
    data, units = load(results)
    plot = Plotter(results)
    md = ["# Benchmark report\n\n"]
    md.append(table(["", ""], [
        ["mode", meta.get("mode", "?")], ["commit", meta.get("commit", "?")],
        ["date (UTC)", meta.get("date", "?")], ["cores", meta.get("cores", "?")],
        ["CPU", meta.get("cpu", "?")], ["memory GB", meta.get("memory_gb", "?")],
        ["load average at start / end", "%s / %s" % (meta.get("loadavg_start", "?"),
                                                      meta.get("loadavg_end", "?"))],
        ["repeats", meta.get("repeats", "?")],
        ["benchmark time s (build + setup)", "%s (%s)" % (meta.get("bench_seconds", "?"),
                                                           meta.get("build_seconds", "?"))],
        ["baseline", meta.get("redis", "?")],
        ["failed runs", meta.get("failed", "") or "none"],
    ]))
    md.append("\nCells are median [min-max] over the repeats. The machine may be shared: "
              "compare ratios measured in the same repeat rather than absolute figures.\n\n")
    for sec in (section_s1, section_s2, section_s3, section_s4, section_s5, section_s6, section_s7,
                section_s8, section_s9):
        md.append(sec(data, plot))
    if not plot.gnuplot:
        md.append("\n(gnuplot not found: no plots)\n")
    md.append(appendix(data, units))
    with open(os.path.join(results, "report.md"), "w") as f:
        f.write("".join(md))
    print("report: %s/report.md, %d plots" % (results, len(plot.made)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
