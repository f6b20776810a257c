#!/usr/bin/env bash
# The newcomer run (npm run test:newcomer): what someone new to the project does, as the docs
# say it, so the docs cannot drift from the code.
#
#   1. a fresh clone of this checkout (what is committed: HEAD) in a temporary directory;
#   2. the README's two commands: `npm ci`, then `npm start` in the background on a free
#      loopback port, with the clone's own SQLite file (data/pos.sqlite), waiting for
#      /api/v1/health/ready;
#   3. each guide's quickstart, exactly as written: the ```bash blocks that follow a
#      `<!-- newcomer: <guide> -->` comment in README.md and docs/*.md (scripts/newcomer/extract.js),
#      run in order in one shell per guide with `set -euo pipefail`, each block printed before it
#      runs (POS_URL names the server; the blocks default to http://localhost:3000);
#   4. SIGTERM to the server, which must exit (the API drains, then exits 0).
#
# Fails on the first failing command. Only loopback traffic (and whatever `npm ci` fetches that
# the npm cache does not hold). NEWCOMER_KEEP=1 keeps the temporary directory.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/pos-newcomer.XXXXXX")"
CLONE="$WORK/pos"
SERVER_PID=""

say() { printf '\n=== newcomer: %s ===\n' "$*"; }
elapsed() { echo "$(($(date +%s) - $1)) s"; }

stop_server() {
  [ -n "$SERVER_PID" ] || return 0
  local pid="$SERVER_PID"
  SERVER_PID=""
  # The server was started with setsid: its process group is ours alone (npm, sh, node).
  kill -TERM -- "-$pid" 2>/dev/null || true
  for _ in $(seq 1 60); do
    if ! kill -0 -- "-$pid" 2>/dev/null; then return 0; fi
    sleep 0.5
  done
  echo "newcomer: the server did not exit within 30 s of SIGTERM" >&2
  kill -KILL -- "-$pid" 2>/dev/null || true
  return 1
}

cleanup() {
  local rc=$?
  stop_server || rc=1
  if [ "$rc" -ne 0 ] && [ -f "$WORK/server.log" ]; then
    echo "--- last lines of the server log ($WORK/server.log) ---" >&2
    tail -n 40 "$WORK/server.log" >&2 || true
  fi
  if [ "${NEWCOMER_KEEP:-0}" = 1 ] || [ "$rc" -ne 0 ]; then
    echo "newcomer: kept $WORK" >&2
  else
    rm -rf "$WORK"
  fi
  exit "$rc"
}
trap cleanup EXIT

for tool in git node npm curl jq setsid; do
  command -v "$tool" >/dev/null || { echo "newcomer: $tool is needed" >&2; exit 1; }
done

START=$(date +%s)
say "fresh clone of $ROOT (HEAD $(git -C "$ROOT" rev-parse --short HEAD))"
git clone --quiet --no-hardlinks "$ROOT" "$CLONE"
cd "$CLONE"

say "npm ci"
T=$(date +%s)
npm ci --no-audit --no-fund
echo "npm ci took $(elapsed "$T")"

PORT=$(node -e 'const s = require("node:net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });')
export POS_URL="http://127.0.0.1:$PORT"
say "npm start on port $PORT (log: $WORK/server.log)"
T=$(date +%s)
PORT="$PORT" setsid npm start >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 1200); do
  if curl -sf "$POS_URL/api/v1/health/ready" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    echo "newcomer: npm start exited before the API was ready" >&2
    exit 1
  fi
  sleep 0.5
done
curl -sf "$POS_URL/api/v1/health/ready" >/dev/null || { echo "newcomer: not ready after 600 s" >&2; exit 1; }
echo "ready after $(elapsed "$T") (build, migrations and demo data included)"

# One shell per guide, in the clone (where a newcomer stands): each block is printed whole, then
# run in that shell (variables carry over from block to block, as when pasting them in order).
RUN_BLOCKS='set -euo pipefail
for block in "$1"/*.sh; do
  printf "\n--- %s, as written:\n" "$(head -n 1 "$block" | cut -c3-)"
  sed "1d; s/^/    /" "$block"
  printf -- "--- output:\n"
  source "$block"
done'
GUIDES=$(node scripts/newcomer/extract.js --list "$CLONE")
for guide in $GUIDES; do
  say "quickstart: $guide"
  node scripts/newcomer/extract.js "$guide" "$CLONE" --split "$WORK/blocks/$guide"
  T=$(date +%s)
  if ! (cd "$CLONE" && timeout 300 bash -c "$RUN_BLOCKS" newcomer "$WORK/blocks/$guide"); then
    echo "newcomer: the $guide quickstart failed at the block above (the docs' commands, as written)" >&2
    exit 1
  fi
  echo "--- $guide quickstart passed in $(elapsed "$T")"
done

say "stopping the server (SIGTERM)"
stop_server
echo "the server exited"
say "passed in $(elapsed "$START") (then the temporary clone is removed)"
