# The stores' and the broker's work on disk between two moments, from a server's data directory:
#
# disk.py snapshot <data dir> <file>   per RocksDB store (every LOG under the directory, grouped by store
#                                      name): its flushes and compactions so far (RocksDB's event log in
#                                      LOG), the shape of its tree after the last of them (lsm_state: files
#                                      per level) and its .sst files now; per topic of the embedded broker:
#                                      its log segments and bytes
# disk.py diff <before> <after>        per store: flushes, bytes flushed, compactions, their bytes written
#                                      and time, level-0 files now (the most of any partition's copy), .sst
#                                      files now (stores with neither changes nor .sst files left out); per
#                                      topic whose files changed: segments and bytes now
import json, os, re, sys

EVENT = re.compile(r'EVENT_LOG_v1 (\{.*\})\s*$')


def store_of(parts):
    """The store whose own directory this is: the one right under rocksdb or committed-rocksdb."""
    if len(parts) >= 2 and parts[-2] in ("rocksdb", "committed-rocksdb"):
        return parts[-1]
    return None


def read_log(path):
    """RocksDB's events in one LOG: flushes and compactions (count, bytes, time) and the last tree shape."""
    s = {"flushes": 0, "flushed_bytes": 0, "compactions": 0, "compacted_bytes": 0, "compaction_us": 0, "l0": 0}
    try:
        lines = open(path, errors="replace").read().splitlines()
    except OSError:
        return s
    for line in lines:
        m = EVENT.search(line)
        if not m:
            continue
        try:
            e = json.loads(m.group(1))
        except ValueError:
            continue
        kind = e.get("event")
        if kind == "flush_started":
            s["flushes"] += 1
            s["flushed_bytes"] += e.get("total_data_size", 0)
        elif kind == "compaction_finished":
            s["compactions"] += 1
            s["compacted_bytes"] += e.get("total_output_size", 0)
            s["compaction_us"] += e.get("compaction_time_micros", 0)
        if "lsm_state" in e and e.get("cf_name", "default") == "default":
            s["l0"] = e["lsm_state"][0]
    return s


def snapshot(root, out):
    stores, topics = {}, {}
    for d, _, files in os.walk(root):
        rel = os.path.relpath(d, root).split(os.sep)
        store = store_of(rel)
        if store is not None:
            entry = stores.setdefault(store, {"copies": 0, "flushes": 0, "flushed_bytes": 0, "compactions": 0,
                                              "compacted_bytes": 0, "compaction_us": 0, "l0_max": 0, "sst": 0})
            if "LOG" in files:
                s = read_log(os.path.join(d, "LOG"))
                entry["copies"] += 1
                for k in ("flushes", "flushed_bytes", "compactions", "compacted_bytes", "compaction_us"):
                    entry[k] += s[k]
                entry["l0_max"] = max(entry["l0_max"], s["l0"])
            entry["sst"] += sum(1 for f in files if f.endswith(".sst"))
            continue
        segments = [f for f in files if f.endswith(".log") and f[:-4].isdigit()]
        if segments:
            topic = re.sub(r'-\d+$', '', os.path.basename(d))
            t = topics.setdefault(topic, {"segments": 0, "bytes": 0})
            t["segments"] += len(segments)
            for f in segments:
                try:
                    t["bytes"] += os.path.getsize(os.path.join(d, f))
                except OSError:
                    pass
    json.dump({"stores": stores, "topics": topics}, open(out, "w"))


def diff(before, after):
    b, a = json.load(open(before)), json.load(open(after))
    for name, s in sorted(a["stores"].items()):
        e = b["stores"].get(name, {})
        d = {k: s[k] - e.get(k, 0) for k in ("flushes", "flushed_bytes", "compactions", "compacted_bytes", "compaction_us")}
        if not any(d.values()) and s["sst"] == 0:
            continue  # nothing on disk but its write-ahead log, before and after
        print("      store %-28s flushes %3d (%6.1f MB)  compactions %3d (%6.1f MB, %6.0f ms)  L0 files now (most of %d copies) %d  sst %d"
              % (name, d["flushes"], d["flushed_bytes"] / 1e6, d["compactions"], d["compacted_bytes"] / 1e6,
                 d["compaction_us"] / 1e3, s["copies"], s["l0_max"], s["sst"]))
    for name, t in sorted(a["topics"].items()):
        e = b["topics"].get(name, {"segments": 0, "bytes": 0})
        if t != e:
            print("      topic %-40s segments %d (%+d)  %.1f MB (%+.1f)" % (name, t["segments"], t["segments"] - e["segments"],
                  t["bytes"] / 1e6, (t["bytes"] - e["bytes"]) / 1e6))


if __name__ == "__main__":
    if sys.argv[1] == "snapshot":
        snapshot(sys.argv[2], sys.argv[3])
    else:
        diff(sys.argv[2], sys.argv[3])
