# The server's own timers between two moments, from its /_metrics (Prometheus text):
#
# timers.py snapshot <base url> <file>        every tablestream_*_seconds histogram (buckets, sum, count), as JSON
# timers.py diff <before> <after>             per timer and labels: the count between the two, its mean, and
#                                             the share at or under 0.5, 1, 2 and 5 ms (the buckets' bounds)
# timers.py count <before> <after> <op>...    the requests of those operations between the two (e.g. INSERT_ENTITY)
import json, re, sys, urllib.request

LINE = re.compile(r'^(tablestream_[a-z_]+_seconds)_(bucket|sum|count)(?:\{([^}]*)\})? (\S+)$')  # a timer without tags: no braces
BOUNDS = ("0.0005", "0.001", "0.002", "0.005")


def snapshot(base, out):
    timers = {}
    for line in urllib.request.urlopen(base + "/_metrics", timeout=30).read().decode().splitlines():
        m = LINE.match(line)
        if not m:
            continue
        name, kind, labels, value = m.groups()
        pairs = dict(re.findall(r'(\w+)="([^"]*)"', labels or ""))
        le = pairs.pop("le", None)
        key = name + "{" + ",".join("%s=%s" % kv for kv in sorted(pairs.items())) + "}"
        entry = timers.setdefault(key, {"buckets": {}, "sum": 0.0, "count": 0.0})
        if kind == "bucket":
            entry["buckets"][str(float(le)) if le != "+Inf" else "inf"] = float(value)
        else:
            entry[kind] = float(value)
    json.dump(timers, open(out, "w"))


def deltas(before, after):
    b, a = json.load(open(before)), json.load(open(after))
    for key, entry in sorted(a.items()):
        earlier = b.get(key, {"buckets": {}, "sum": 0.0, "count": 0.0})
        n = entry["count"] - earlier["count"]
        if n <= 0:
            continue
        shares = [(entry["buckets"].get(str(float(x)), 0) - earlier["buckets"].get(str(float(x)), 0)) / n for x in BOUNDS]
        yield key, n, (entry["sum"] - earlier["sum"]) / n, shares


def diff(before, after):
    for key, n, mean, shares in deltas(before, after):
        if key.startswith("tablestream_http_requests_seconds") and "operation=INTERNAL" in key:
            continue
        print("      %-90s %7d  mean %6.2f ms  <=0.5/1/2/5 ms %s" % (key, n, 1e3 * mean,
              " ".join("%3.0f%%" % (100 * s) for s in shares)))


def count(before, after, operations):
    print(int(sum(n for key, n, _, _ in deltas(before, after)
                  if key.startswith("tablestream_http_requests_seconds")
                  and any("operation=%s," % op in key for op in operations))))


if __name__ == "__main__":
    if sys.argv[1] == "snapshot":
        snapshot(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "diff":
        diff(sys.argv[2], sys.argv[3])
    else:
        count(sys.argv[2], sys.argv[3], sys.argv[4:])
