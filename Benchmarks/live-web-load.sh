#!/bin/bash
# A bounded load test of `live --web` on loopback (run by hand; every request goes to 127.0.0.1):
# a fixture served looped by the virtual device (FUSE, needs /dev/fuse), `live --web` reading it,
# then for LOAD_SECONDS (default 30) LOAD_CLIENTS (default 200) clients at once: half ask for the
# stream and never read (a 2 KiB receive buffer), a quarter read the stream, a quarter load the
# page again and again. Prints live's RSS before, at its peak during, and after the clients left,
# and exits 1 if RSS after is more than 50 MB above RSS before, or if live did not end with status 0
# on Ctrl-C.
#
#   Benchmarks/live-web-load.sh     (BENCH_SCRATCH: the build's scratch path, default .build;
#                                    BENCH_CONFIG: debug or release, default release;
#                                    LOAD_SECONDS, LOAD_CLIENTS, LOAD_WARMUP: seconds of session before;
#                                    PINCHLAB_BIN: a directory holding another build's pinchlab to load instead;
#                                    LOAD_FAST=1: serve as fast as live reads, for a large catch-up by the time
#                                    the clients come)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SCRATCH=${BENCH_SCRATCH:-.build}
CONFIG=${BENCH_CONFIG:-release}
LOAD_SECONDS=${LOAD_SECONDS:-30}
LOAD_CLIENTS=${LOAD_CLIENTS:-200}
LOAD_WARMUP=${LOAD_WARMUP:-5}
DATA=$(mktemp -d "${TMPDIR:-/tmp}/pinchlab-live-load.XXXXXX")
SERVE_PID=""; LIVE_PID=""
cleanup() {
    [ -n "$LIVE_PID" ] && kill -INT "$LIVE_PID" 2>/dev/null || true
    [ -n "$SERVE_PID" ] && kill -INT "$SERVE_PID" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$DATA"
}
trap cleanup EXIT
say() { printf '%s\n' "$*" >&2; }
rss_mb() { awk '/^VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }

if [ -n "${PINCHLAB_BIN:-}" ]; then
    BIN=$PINCHLAB_BIN
else
    swift build -c "$CONFIG" --scratch-path "$SCRATCH" --product pinchlab >&2
    BIN=$(swift build -c "$CONFIG" --scratch-path "$SCRATCH" --show-bin-path)
fi

MOUNT=$DATA/vdev
FAST=(); [ "${LOAD_FAST:-0}" = 1 ] && FAST=(--fast)
"$BIN/pinchlab" serve "$ROOT/Fixtures/corpus/touchpad/pinch-in-slow-finish-01.evemu" --at "$MOUNT" --loop "${FAST[@]}" 2> "$DATA/serve.err" &
SERVE_PID=$!
for _ in $(seq 100); do [ -e "$MOUNT/event0" ] && break; sleep 0.1; done
"$BIN/pinchlab" live "$MOUNT/event0" --web --port 0 --json > "$DATA/live.out" 2> "$DATA/live.err" &
LIVE_PID=$!
for _ in $(seq 100); do grep -q 'watch at' "$DATA/live.err" "$DATA/live.out" 2>/dev/null && break; sleep 0.1; done
# (builds before issue 27 printed the URL on stdout)
PORT=$(sed -n 's|^pinchlab: watch at http://127.0.0.1:\([0-9]*\)/$|\1|p' "$DATA/live.err" "$DATA/live.out" | head -1)
[ -n "$PORT" ] || { say "live did not start: $(cat "$DATA/live.err")"; exit 1; }
sleep "$LOAD_WARMUP"
BEFORE=$(rss_mb "$LIVE_PID")
say "live --web on 127.0.0.1:$PORT; RSS before: $BEFORE MB"

python3 - "$PORT" "$LOAD_CLIENTS" "$LOAD_SECONDS" > "$DATA/clients.out" <<'EOF' &
import socket, sys, threading, time
port, clients, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
end = time.time() + seconds
request = lambda path: f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
counts = {"stalled": 0, "stream bytes": 0, "pages": 0, "errors": 0}
lock = threading.Lock()
def add(key, n=1):
    with lock: counts[key] += n
def stalled():
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    s.connect(("127.0.0.1", port)); s.sendall(request("/events")); add("stalled")
    time.sleep(max(0, end - time.time())); s.close()
def reader():
    s = socket.create_connection(("127.0.0.1", port)); s.sendall(request("/events")); s.settimeout(1)
    while time.time() < end:
        try:
            data = s.recv(65536)
            if not data: break
            add("stream bytes", len(data))
        except socket.timeout: pass
    s.close()
def pages():
    while time.time() < end:
        s = socket.create_connection(("127.0.0.1", port)); s.sendall(request("/").replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n"))
        while s.recv(65536): pass
        s.close(); add("pages")
def guarded(work):
    def run():
        try: work()
        except OSError: add("errors")
    return run
kinds = [stalled] * (clients // 2) + [reader] * (clients // 4) + [pages] * (clients - clients // 2 - clients // 4)
threads = [threading.Thread(target=guarded(k)) for k in kinds]
for t in threads: t.start()
for t in threads: t.join()
print(" ".join(f"{k}: {v}" for k, v in counts.items()))
EOF
CLIENTS_PID=$!
PEAK=$BEFORE
while kill -0 "$CLIENTS_PID" 2>/dev/null; do
    NOW=$(rss_mb "$LIVE_PID")
    PEAK=$(awk -v a="$PEAK" -v b="$NOW" 'BEGIN { print (b > a ? b : a) }')
    sleep 0.5
done
wait "$CLIENTS_PID"
say "clients: $(cat "$DATA/clients.out")"
say "RSS during: peak $PEAK MB"
sleep 3
AFTER=$(rss_mb "$LIVE_PID")
say "RSS after the clients left: $AFTER MB"
say "live's notes: $(grep -c 'a page connected' "$DATA/live.err") connections, $(grep -c 'was disconnected' "$DATA/live.err") pages disconnected for falling behind"
kill -INT "$LIVE_PID"
set +e
wait "$LIVE_PID"; STATUS=$?
set -e
LIVE_PID=""
say "live ended on Ctrl-C with status $STATUS"
GROWTH=$(awk -v a="$BEFORE" -v b="$AFTER" 'BEGIN { printf "%.1f", b - a }')
echo "live --web load ($LOAD_CLIENTS clients, half never reading, $LOAD_SECONDS s): RSS before $BEFORE MB, peak $PEAK MB, after $AFTER MB (+$GROWTH MB; goal < 50 MB); Ctrl-C status $STATUS"
awk -v g="$GROWTH" 'BEGIN { exit !(g < 50) }' && [ "$STATUS" -eq 0 ]
