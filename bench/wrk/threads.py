# threads.py snapshot <pid> <file>: each thread's CPU so far (user+system ticks from /proc) with its
#   Java name (from `jcmd <pid> Thread.print`; /proc cuts names at 15 characters), as JSON.
# threads.py diff <before> <after> <operations>: the CPU between the two snapshots by group of
#   threads (HTTP, broker, stream threads, producers, ...), in microseconds per operation, one line;
#   then each group's voluntary context switches per operation (its threads' waits: parks, polls).
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


if __name__ == "__main__":
    if sys.argv[1] == "snapshot":
        snapshot(sys.argv[2], sys.argv[3])
    else:
        diff(sys.argv[2], sys.argv[3], int(sys.argv[4]))
