#!/usr/bin/env python3
"""What the JIT compiled, and what it threw away, from a JFR recording of a server.

    bench/wrk/jit.py <recording.jfr> [--zero <UTC time>] [--window <from>:<to>]... [--top N]

The recording needs jdk.Compilation with threshold 0 and jdk.Deoptimization on, e.g. the server's
JAVA_OPTS with -XX:StartFlightRecording:settings=default,jdk.Compilation#threshold=0ms,
jdk.Deoptimization#enabled=true,filename=<file>,dumponexit=true (the default settings otherwise;
never the profile settings). Times are seconds from --zero (e.g. when the server reported ready:
seconds since the epoch, or HH:MM:SS[.fff] of the recording's day, UTC), else from the JVM's start. Prints, for each window
(default: all of it): compile tasks and their time by compiler and tier, C2's time by package and by
method, the methods C2 compiled more than twice, the biggest tasks, and deoptimizations by reason and
by method. Uses the JDK's jfr tool (JAVA_HOME, else the one on PATH).
"""
import argparse
import collections
import datetime
import json
import os
import re
import signal
import subprocess
import sys


def parse_duration(text):
    # ISO-8601 as JFR writes it: PT0.000187398S, PT1M2.5S
    m = re.fullmatch(r"PT(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?", text)
    if not m:
        raise ValueError("not a JFR duration: " + text)
    h, mi, s = m.groups()
    return int(h or 0) * 3600 + int(mi or 0) * 60 + float(s or 0)


def parse_time(text):
    # 2026-11-28T20:46:46.482286720Z: microseconds are enough
    m = re.fullmatch(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?Z", text)
    base = datetime.datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S").replace(tzinfo=datetime.timezone.utc)
    return base.timestamp() + float("0." + (m.group(2) or "0"))


def method_name(m):
    if m is None:
        return "?"
    return m["type"]["name"].replace("/", ".") + "." + m["name"]


def package(name, depth=3):
    parts = name.split(".")
    # class and method are the last two
    return ".".join(parts[:max(1, min(depth, len(parts) - 2))])


def events(recording):
    jfr = os.path.join(os.environ["JAVA_HOME"], "bin", "jfr") if os.environ.get("JAVA_HOME") else "jfr"
    out = subprocess.run([jfr, "print", "--json", "--events", "jdk.Compilation,jdk.Deoptimization,jdk.JVMInformation",
                          recording], check=True, capture_output=True, text=True).stdout
    return json.loads(out)["recording"]["events"]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("recording")
    p.add_argument("--zero", help="the time that counts as 0 s: seconds since the epoch, or a UTC time of day "
                                  "(default: the JVM's start)")
    p.add_argument("--window", action="append", default=[], help="<from>:<to> seconds from zero")
    p.add_argument("--top", type=int, default=15)
    a = p.parse_args()

    compiles, deopts, start = [], [], None
    for e in events(a.recording):
        v = e["values"]
        if e["type"] == "jdk.JVMInformation":
            start = parse_time(v["jvmStartTime"])
        elif e["type"] == "jdk.Compilation":
            compiles.append(dict(t=parse_time(v["startTime"]), d=parse_duration(v["duration"]),
                                 compiler=v["compiler"], level=v["compileLevel"], method=method_name(v["method"]),
                                 osr=v["isOsr"], ok=v["succeded"], size=v["codeSize"], inlined=v["inlinedBytes"]))
        elif e["type"] == "jdk.Deoptimization":
            deopts.append(dict(t=parse_time(v["startTime"]), method=method_name(v["method"]),
                               reason=v["reason"], action=v["action"], instruction=v["instruction"],
                               line=v["lineNumber"], compiler=v["compiler"]))
    zero = start
    if a.zero and re.fullmatch(r"[\d.]+", a.zero):
        zero = float(a.zero)
    elif a.zero:
        day = datetime.datetime.fromtimestamp(start, datetime.timezone.utc).strftime("%Y-%m-%d")
        zero = parse_time(day + "T" + a.zero + ("" if "." in a.zero else ".0") + "Z")
    for c in compiles + deopts:
        c["t"] -= zero
    print(f"recording {a.recording}: {len(compiles)} compile tasks, {len(deopts)} deoptimizations; "
          f"times in s from {'--zero ' + a.zero if a.zero else 'the JVM start'}"
          f" (the JVM started at {start - zero:+.1f} s)")
    windows = [tuple(float(x) for x in w.split(":")) for w in a.window] or [(-1e9, 1e9)]
    for lo, hi in windows:
        report([c for c in compiles if lo <= c["t"] < hi], [d for d in deopts if lo <= d["t"] < hi],
               f"{lo:g} to {hi:g} s" if len(a.window) else "the whole recording", a.top)


def report(compiles, deopts, title, top):
    print(f"\n===== {title}: {len(compiles)} compile tasks, {len(deopts)} deoptimizations")
    by_tier = collections.defaultdict(lambda: [0, 0.0, 0, 0])
    for c in compiles:
        k = (c["compiler"], c["level"], "OSR" if c["osr"] else "")
        by_tier[k][0] += 1
        by_tier[k][1] += c["d"]
        by_tier[k][2] += c["size"]
        by_tier[k][3] += 0 if c["ok"] else 1
    print("compiler tier       tasks   time s  code KiB  failed")
    for k, (n, d, size, failed) in sorted(by_tier.items(), key=lambda kv: -kv[1][1]):
        print(f"{k[0]:>4} {k[1]} {k[2]:<9} {n:7d} {d:8.2f} {size / 1024:9.0f} {failed:7d}")
    c2 = [c for c in compiles if c["compiler"] in ("c2", "jvmci")]
    total = sum(c["d"] for c in c2) or 1e-9
    for depth in (2, 3):
        by_pkg = collections.Counter()
        for c in c2:
            by_pkg[package(c["method"], depth)] += c["d"]
        print(f"\nC2 time by package ({depth} parts): " + "; ".join(
            f"{p} {d:.2f} s ({100 * d / total:.0f} %)" for p, d in by_pkg.most_common(top)))
    by_method = collections.defaultdict(list)
    for c in c2:
        by_method[c["method"]].append(c)
    print(f"\nC2 time by method (top {top}; tasks, time, largest code, inlined bytes)")
    for m, cs in sorted(by_method.items(), key=lambda kv: -sum(c["d"] for c in kv[1]))[:top]:
        print(f"  {sum(c['d'] for c in cs):6.2f} s {len(cs):3d}x  {max(c['size'] for c in cs):7d} B "
              f"{max(c['inlined'] for c in cs):7d}  {m}")
    again = sorted(((m, cs) for m, cs in by_method.items() if len(cs) > 2), key=lambda kv: -len(kv[1]))
    print(f"\nmethods C2 compiled more than twice: {len(again)}, "
          f"{sum(sum(c['d'] for c in cs) for _, cs in again):.2f} s of C2 time")
    for m, cs in again[:top]:
        print(f"  {len(cs):3d}x {sum(c['d'] for c in cs):6.2f} s  {m}")
    print(f"\nbiggest C2 tasks (time, code bytes, inlined bytes, at s)")
    for c in sorted(c2, key=lambda c: -c["d"])[:top]:
        print(f"  {c['d']:6.3f} s {c['size']:7d} {c['inlined']:7d} {c['t']:7.1f}{' OSR' if c['osr'] else ''}  {c['method']}")
    print("\nC2 time per 10 s: " + " ".join(
        f"{int(t)}:{d:.1f}" for t, d in sorted(bucket(c2, 10).items())))
    by_reason = collections.Counter((d["reason"], d["action"]) for d in deopts)
    print("\ndeoptimizations by reason and action: " + "; ".join(
        f"{r}/{act} {n}" for (r, act), n in by_reason.most_common(top)))
    by_site = collections.Counter((d["method"], d["line"], d["instruction"], d["reason"]) for d in deopts)
    print(f"deoptimizations by site (top {top}):")
    for (m, line, ins, r), n in by_site.most_common(top):
        print(f"  {n:4d}  {m}:{line} {ins} {r}")


def bucket(items, width):
    out = collections.Counter()
    for c in items:
        out[width * (c["t"] // width)] += c["d"]
    return out


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quietly, when read through head
    sys.exit(main())
