# caught-up.py <base url> <seconds>: after a restart, waits until the instance answers /_metrics and
# its tasks have applied every command on the log (tablestream_apply_lag_records 0 on every
# partition, twice in a row 100 ms apart, nothing applied between), then prints the seconds that took and the commands the
# instance decided since it started (tablestream_commands_applied_total: after a crash, the
# commands answered before it but not yet committed, replayed). Exits 1 after <seconds>.
import sys, time, urllib.request

base, limit = sys.argv[1], float(sys.argv[2])
start = time.monotonic()


def metrics():
    lag, applied = None, 0.0
    for line in urllib.request.urlopen(base + "/_metrics", timeout=5).read().decode().splitlines():
        if line.startswith("tablestream_apply_lag_records{"):
            lag = (lag or 0.0) + float(line.rsplit(" ", 1)[1])
        elif line.startswith("tablestream_commands_applied_total{"):
            applied += float(line.rsplit(" ", 1)[1])
    return lag, applied


previous = None
while time.monotonic() - start < limit:
    try:
        lag, applied = metrics()
    except OSError:
        lag, applied = None, 0.0
    if lag == 0.0 and previous == applied:
        print("caught up %.1f s after ready, %d commands replayed" % (time.monotonic() - start, applied))
        sys.exit(0)
    previous = applied if lag == 0.0 else None
    time.sleep(0.1)
print("not caught up within %.0f s" % limit)
sys.exit(1)
