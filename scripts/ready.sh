# Sourced by run-server.sh and run-cluster.sh: waits until a Tablestream instance reports ready on
# GET /_health/ready (HTTP 200), using bash alone (no curl needed) over plain HTTP, and curl or
# openssl over HTTPS (READY_SCHEME=https).

# The HTTP status GET $3 answers at $1:$2, or 000 when nothing answers; over HTTPS when READY_SCHEME
# is https (the certificate is not checked: this only asks whether the instance is ready).
http_status() {
  local host=$1 port=$2 path=$3 status=000
  if [ "${READY_SCHEME:-http}" = https ]; then
    if command -v curl >/dev/null; then
      status=$(curl -sk -o /dev/null -m 5 -w '%{http_code}' "https://$host:$port$path" 2>/dev/null) || status=000
    else
      status=$(printf 'GET %s HTTP/1.0\r\nHost: %s:%s\r\n\r\n' "$path" "$host" "$port" \
        | timeout 5 openssl s_client -quiet -connect "$host:$port" 2>/dev/null | head -n 1 | cut -d' ' -f2) || status=000
    fi
    echo "${status:-000}"
    return
  fi
  if { exec 3<>"/dev/tcp/$host/$port"; } 2>/dev/null; then
    printf 'GET %s HTTP/1.0\r\nHost: %s:%s\r\nConnection: close\r\n\r\n' "$path" "$host" "$port" >&3
    read -r -t 5 _ status _ <&3 || status=000
    exec 3<&- 3>&-
  fi
  echo "$status"
}

# Waits until the instance at $1:$2 (process $3) answers /_health/ready with 200: returns 0 then,
# 1 when the process ended first or $4 seconds passed.
await_ready() {
  local host=$1 port=$2 pid=$3 seconds=$4 i
  for ((i = 0; i < seconds * 5; i++)); do
    kill -0 "$pid" 2>/dev/null || return 1
    [ "$(http_status "$host" "$port" /_health/ready)" = 200 ] && return 0
    sleep 0.2
  done
  return 1
}

# The address to reach an instance bound to $1 at (a wildcard bind is reached on loopback).
reach_host() {
  case "$1" in 0.0.0.0 | :: | '') echo 127.0.0.1 ;; *) echo "$1" ;; esac
}
