# feed-latency.py <base url> <table> <seconds> [mean gap between writes, ms (50)]
# How long after its answer a write shows in the HTTP change feed. In <table> (created when it does
# not exist; a table of its own, so that other load on the server is not in its feed) one writer
# inserts-or-replaces one entity at a time (a new RowKey each, PartitionKeys spread over the log's
# partitions), pausing a random 0-2x the gap between writes so that the writes fall at every phase
# of the processor's commits; one reader long-polls GET <table>()/$changes from a cursor taken
# before the first write. For each write, from its answer to the arrival of the feed answer that
# holds its change. Prints the count, p50/p90/p99/max in ms and the writes not seen within 10 s of
# the last one. An account SAS (sas.py) signs every request, as for wrk. Other load may run
# meanwhile (variants.sh runs one measure alone and one beside 16 writers).
import http.client, json, random, subprocess, sys, threading, time, urllib.parse

base, table, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
gap = (float(sys.argv[4]) if len(sys.argv) > 4 else 50.0) / 1000
sas = subprocess.check_output([sys.executable, __file__.replace("feed-latency.py", "sas.py")]).decode().strip()
u = urllib.parse.urlparse(base)
headers = {"Accept": "application/json;odata=nometadata", "x-ms-version": "2019-02-02"}
run = "feed-%d-" % random.randrange(10 ** 9)


def get(conn, query):
    conn.request("GET", "/devstoreaccount1/%s()/$changes?%s&%s" % (table, query, sas), headers=headers)
    r = conn.getresponse()
    body = r.read()
    if r.status != 200:
        raise SystemExit("change feed answered %d: %s" % (r.status, body[:300]))
    return json.loads(body)


seen = {}          # RowKey -> monotonic time its feed answer arrived
stop = threading.Event()


def read(cursor):
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
    while not stop.is_set():
        answer = get(conn, urllib.parse.urlencode({"cursor": cursor, "$top": 1000, "wait": 1}))
        now = time.monotonic()
        for event in answer["value"]:
            key = event.get("RowKey") or ""
            if key.startswith(run):
                seen.setdefault(key, now)
        cursor = answer["Cursor"]


create = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
create.request("POST", "/devstoreaccount1/Tables?" + sas, json.dumps({"TableName": table}),
               dict(headers, **{"Content-Type": "application/json", "Prefer": "return-no-content"}))
created = create.getresponse()
created.read()
if created.status not in (204, 409):
    raise SystemExit("create table answered %d" % created.status)
reader = threading.Thread(target=read, args=(get(http.client.HTTPConnection(u.hostname, u.port, timeout=60),
                                                  "from=now&$top=0")["Cursor"],), daemon=True)
reader.start()
writer = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
answered = {}      # RowKey -> monotonic time its write was answered
body = json.dumps({"Label": "x" * 80, "Quantity": 7})
end = time.monotonic() + seconds
i = 0
while time.monotonic() < end:
    key = "%s%06d" % (run, i)
    path = "/devstoreaccount1/%s(PartitionKey='feed%02d',RowKey='%s')?%s" % (table, i % 64, key, sas)
    writer.request("PUT", path, body, dict(headers, **{"Content-Type": "application/json", "Prefer": "return-no-content"}))
    r = writer.getresponse()
    r.read()
    if r.status != 204:
        raise SystemExit("write answered %d" % r.status)
    answered[key] = time.monotonic()
    i += 1
    time.sleep(random.uniform(0, 2 * gap))
deadline = time.monotonic() + 10
while time.monotonic() < deadline and len([k for k in answered if k in seen]) < len(answered):
    time.sleep(0.05)
stop.set()
ms = sorted(1000 * (seen[k] - t) for k, t in answered.items() if k in seen)
if not ms:
    raise SystemExit("no write seen in the feed")
at = lambda q: ms[min(len(ms) - 1, int(q * len(ms)))]
print("%d writes, feed latency p50 %.0f ms p90 %.0f ms p99 %.0f ms max %.0f ms, %d not seen"
      % (len(ms), at(0.5), at(0.9), at(0.99), ms[-1], len(answered) - len(ms)))
