# threads.py snapshot <pid> <file>: each thread's CPU so far (user+system ticks from /proc) with its
#   Java name (from `jcmd <pid> Thread.print`; /proc cuts names at 15 characters), as JSON.
# threads.py diff <before> <after> <operations>: the CPU between the two snapshots by group of
#   threads (HTTP, broker, stream threads, producers, ...), in microseconds per operation, one line;
#   then each group's voluntary context switches per operation (its threads' waits: parks, polls).
# threads.py each <before> <after> <seconds>: the CPU (ms a second) and the voluntary context switches
#   (wake-ups a second) of each thread between the two snapshots, threads of the same name but for its
#   numbers taken together (their count in brackets), the most wake-ups first: what an idle server's
#   threads wake up for.
import json, os, re, subprocess, sys

# the groups, shared with the benchmarks' in-process measure (ThreadCpu): name, tab, pattern
GROUPS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "main", "resources", "io",
                           "tablestream", "bench", "measure", "thread-groups.tsv")
GROUPS = [tuple(line.rstrip("\n").split("\t", 1)) for line in open(GROUPS_FILE)
          if line.strip() and not line.startswith("#")]  # first match wins


def group(name):
    for g, rx in GROUPS:
        if re.search(rx, name):
            return g
    return "other"


def switches(pid, tid):
    """The thread's voluntary context switches so far (each a wait: a park, a poll, a blocking read)."""
    try:
        for line in open("/proc/%s/task/%s/status" % (pid, tid)):
            if line.startswith("voluntary_ctxt_switches:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def snapshot(pid, out):
    ticks = {}
    for tid in os.listdir("/proc/%s/task" % pid):
        try:
            stat = open("/proc/%s/task/%s/stat" % (pid, tid)).read()
            comm = open("/proc/%s/task/%s/comm" % (pid, tid)).read().strip()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        ticks[tid] = [comm, int(fields[11]) + int(fields[12]), switches(pid, tid)]
    # the names after the ticks: the thread dump's own work (in the JVM's attach thread) falls outside
    # a measure taken between an "after" snapshot's ticks and a "before" one's
    dump = subprocess.run(["jcmd", pid, "Thread.print"], capture_output=True, text=True).stdout
    for m in re.finditer(r'^"([^"]*)".* nid=(0x[0-9a-f]+|\d+)', dump, re.M):
        nid = m.group(2)
        tid = str(int(nid, 16) if nid.startswith("0x") else int(nid))
        if tid in ticks:
            ticks[tid][0] = m.group(1)
    json.dump(ticks, open(out, "w"))


def diff(before, after, operations):
    b, a = json.load(open(before)), json.load(open(after))
    hz = os.sysconf("SC_CLK_TCK")
    by, waits = {}, {}
    for tid, entry in a.items():
        name, t = entry[0], entry[1]
        earlier = b.get(tid, [name, 0, 0])
        by[group(name)] = by.get(group(name), 0) + t - earlier[1]
        if len(entry) > 2 and len(earlier) > 2:
            waits[group(name)] = waits.get(group(name), 0) + entry[2] - earlier[2]
    per_op = {g: 1e6 * t / hz / operations for g, t in by.items()}
    order = [g for g, _ in GROUPS] + ["other"]
    print("per thread group, us per operation: " + ", ".join(
        "%s %.0f" % (g, per_op[g]) for g in order if round(per_op.get(g, 0)) > 0))
    if waits:
        print("      voluntary context switches per operation: " + ", ".join(
            "%s %.2f" % (g, waits[g] / operations) for g in order if waits.get(g, 0) / operations >= 0.005))


def each(before, after, seconds):
    b, a = json.load(open(before)), json.load(open(after))
    hz = os.sysconf("SC_CLK_TCK")
    named = {}
    for tid, entry in a.items():
        earlier = b.get(tid, [entry[0], 0, 0])
        # numbers of a pool's threads, ids and ports apart: "qtp1795-21" and "qtp1795-22" are one line
        key = re.sub(r"\d+", "#", entry[0])
        n, t, w = named.get(key, (0, 0, 0))
        named[key] = (n + 1, t + entry[1] - earlier[1], w + (entry[2] - earlier[2] if len(entry) > 2 else 0))
    total_t = sum(t for _, t, _ in named.values())
    total_w = sum(w for _, _, w in named.values())
    print("%8s %10s  %s" % ("wakes/s", "CPU ms/s", "threads (count), by group"))
    print("%8.1f %10.1f  all %d threads" % (total_w / seconds, 1e3 * total_t / hz / seconds, len(a)))
    for key, (n, t, w) in sorted(named.items(), key=lambda kv: (-kv[1][2], -kv[1][1])):
        if w / seconds >= 0.05 or t > 0:
            print("%8.1f %10.1f  %s (%d), %s" % (w / seconds, 1e3 * t / hz / seconds, key, n, group(key.replace("#", "1"))))


if __name__ == "__main__":
    if sys.argv[1] == "snapshot":
        snapshot(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "each":
        each(sys.argv[2], sys.argv[3], float(sys.argv[4]))
    else:
        diff(sys.argv[2], sys.argv[3], int(sys.argv[4]))
