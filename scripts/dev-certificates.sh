#!/usr/bin/env bash
# Makes a private certificate authority and a certificate for Tablestream's HTTPS, to try TLS on one
# machine (run-cluster.sh --tls) or with compose.tls.yaml. Not for production: use your own CA there.
#
#   scripts/dev-certificates.sh <dir> [name ...]
#
# In <dir> (created if needed):
#   ca.pem            the CA's certificate: the trust file of instances (tls-trust-file) and of clients
#   ca-key.pem        the CA's private key (kept so that running the script again renews with the same CA)
#   server.pem        the server certificate, then the CA's (tls-cert-file)
#   server-key.pem    its private key, PKCS#8 (tls-key-file)
#   truststore.p12    the CA for Java clients (password changeit), when keytool is on the PATH
# The certificate names localhost, 127.0.0.1 and every name given (e.g. tablestream-1 tablestream-2),
# and is valid for 90 days. Running the script again issues a new one from the same CA, replacing the
# key and then the certificate in one step each: running instances serve it within tls-reload-check-ms.
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: $0 <dir> [name ...]" >&2
  exit 2
fi
command -v openssl >/dev/null || { echo "$0 needs openssl" >&2; exit 1; }
dir=$1
shift
mkdir -p "$dir"
umask 077 # private keys readable by their owner only
work=$(mktemp -d "$dir/.new.XXXXXX")
trap 'rm -rf "$work"' EXIT

if [ ! -f "$dir/ca.pem" ] || [ ! -f "$dir/ca-key.pem" ]; then
  openssl req -x509 -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -sha256 -days 3650 \
    -subj "/CN=Tablestream development CA" -keyout "$work/ca-key.pem" -out "$work/ca.pem" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
  chmod 644 "$work/ca.pem"
  mv "$work/ca-key.pem" "$dir/ca-key.pem"
  mv "$work/ca.pem" "$dir/ca.pem"
  echo "new CA: $dir/ca.pem"
fi

names="DNS:localhost,IP:127.0.0.1"
for n in "$@"; do
  if [[ $n =~ ^[0-9.]+$ || $n == *:* ]]; then names="$names,IP:$n"; else names="$names,DNS:$n"; fi
done
openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=${1:-localhost}" \
  -keyout "$work/server-key.pem" -out "$work/server.csr" 2>/dev/null
printf 'subjectAltName=%s\nbasicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth,clientAuth\n' \
  "$names" >"$work/extensions"
openssl x509 -req -sha256 -days 90 -in "$work/server.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca-key.pem" \
  -set_serial "0x$(openssl rand -hex 16)" -extfile "$work/extensions" -out "$work/server-only.pem" 2>/dev/null
cat "$work/server-only.pem" "$dir/ca.pem" >"$work/server.pem"
chmod 644 "$work/server.pem"
# the key first, then the certificate: a server re-reading them uses the pair once both agree
mv "$work/server-key.pem" "$dir/server-key.pem"
mv "$work/server.pem" "$dir/server.pem"
if command -v keytool >/dev/null && [ ! -f "$dir/truststore.p12" ]; then
  keytool -importcert -noprompt -alias tablestream-dev-ca -file "$dir/ca.pem" -keystore "$dir/truststore.p12" \
    -storetype PKCS12 -storepass changeit >/dev/null 2>&1
  chmod 644 "$dir/truststore.p12"
fi
echo "certificate for $names: $dir/server.pem (key $dir/server-key.pem), valid 90 days"
