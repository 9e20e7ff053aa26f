# load.py <base url, e.g. http://127.0.0.1:10002> <table> <entities>: creates the table and loads N entities
# (PartitionKey p%06d, 100 per partition, RowKey r%07d) in change sets of 100, 4 in flight.
import sys, json, http.client, urllib.parse, subprocess, threading, uuid
base, table, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
sas = subprocess.check_output([sys.executable, __file__.replace("load.py", "sas.py")]).decode().strip()
u = urllib.parse.urlparse(base)
def conn(): return http.client.HTTPConnection(u.hostname, u.port, timeout=60)
def props(i):
    return {"Label": ("label-%d-" % i).ljust(80, "x"), "Quantity": i % 1000, "Sequence": str(i), "Sequence@odata.type": "Edm.Int64",
            "Score": i + 0.5, "UpdatedAt": "2026-01-01T00:00:00.0000000Z", "UpdatedAt@odata.type": "Edm.DateTime", "Active": i % 2 == 0}
c = conn()
c.request("POST", "/devstoreaccount1/Tables?" + sas, json.dumps({"TableName": table}),
          {"Content-Type": "application/json", "Accept": "application/json;odata=nometadata", "Prefer": "return-no-content", "x-ms-version": "2019-02-02"})
r = c.getresponse(); r.read(); print("create table", r.status)
def batch(c, b):
    bid, cs = "batch_" + uuid.uuid4().hex, "changeset_" + uuid.uuid4().hex
    parts = []
    for k in range(100):
        i = b * 100 + k
        e = dict(props(i)); e["PartitionKey"] = "p%06d" % b; e["RowKey"] = "r%07d" % i
        body = json.dumps(e)
        parts.append("--%s\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\nPOST %s/devstoreaccount1/%s HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json;odata=nometadata\r\nPrefer: return-no-content\r\nContent-Length: %d\r\n\r\n%s\r\n" % (cs, base, table, len(body), body))
    inner = "".join(parts) + "--%s--\r\n" % cs
    outer = "--%s\r\nContent-Type: multipart/mixed; boundary=%s\r\n\r\n%s--%s--\r\n" % (bid, cs, inner, bid)
    c.request("POST", "/devstoreaccount1/$batch?" + sas, outer.encode(), {"Content-Type": "multipart/mixed; boundary=" + bid, "x-ms-version": "2019-02-02", "DataServiceVersion": "3.0"})
    r = c.getresponse(); body = r.read()
    if r.status != 202 or b"HTTP/1.1 204" not in body: print("batch", b, r.status, body[:300]); sys.exit(1)
def worker(t, nt):
    c = conn()
    for b in range(t, n // 100, nt): batch(c, b)
ts = [threading.Thread(target=worker, args=(t, 4)) for t in range(4)]
[t.start() for t in ts]; [t.join() for t in ts]
print("loaded", n)
