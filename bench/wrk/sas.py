# Prints an account SAS (query string, no "?") for the emulator account devstoreaccount1 with its
# well-known public key: Table service, every resource type and permission, valid for a day.
import base64, hmac, hashlib, urllib.parse, datetime, sys
acct = "devstoreaccount1"
key = base64.b64decode("Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==")
sp, ss, srt, sv = "rwdlacu", "t", "sco", "2019-02-02"
se = (datetime.datetime.utcnow() + datetime.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
sts = "\n".join([acct, sp, ss, srt, "", se, "", "", sv, ""])
sig = base64.b64encode(hmac.new(key, sts.encode(), hashlib.sha256).digest()).decode()
q = urllib.parse.urlencode({"sv": sv, "ss": ss, "srt": srt, "sp": sp, "se": se, "sig": sig})
print(q)
