#!/usr/bin/env bash
# The failover drill's topology on one machine, from Debian packages, on loopback ports only:
#   - a 3-node MariaDB Galera cluster (galera-4), each node its own datadir and ports;
#   - HAProxy in front: one WRITE endpoint (one node active, the others backup: every write goes
#     through one node, so hot rows are never certified against each other) and a READ endpoint
#     (round robin over the nodes that are Synced);
#   - Redis: a master, a replica and 3 Sentinels (master name `posmaster`).
# Nothing is downloaded at run time; `install` takes what is missing from Debian's packages.
#
#   scripts/cluster/cluster.sh install     apt-get install galera-4 haproxy redis-sentinel rsync socat (if missing)
#   scripts/cluster/cluster.sh up          start everything (idempotent), wait until ready
#   scripts/cluster/cluster.sh down        stop everything and delete the data
#   scripts/cluster/cluster.sh status      one line per piece
#   scripts/cluster/cluster.sh haproxy-stat  per server: state, times marked down, last check
#   scripts/cluster/cluster.sh kill-node N / start-node N     (the drill's hands)
#   scripts/cluster/cluster.sh env         the variables an API replica or worker needs
#
# Ports (CLUSTER_PORT_BASE, default 13800): +1..+3 MariaDB nodes, +11..+13 Galera replication,
# +21..+23 IST, +31..+33 SST, +50 HAProxy write, +51 HAProxy read, +60 Redis master, +61 Redis
# replica, +70..+72 Sentinels. Data under CLUSTER_DIR (default /tmp/pos-cluster).
set -euo pipefail

BASE="${CLUSTER_PORT_BASE:-13800}"
DIR="${CLUSTER_DIR:-/tmp/pos-cluster}"
HOST=127.0.0.1
WRITE_PORT=$((BASE + 50))
READ_PORT=$((BASE + 51))
REDIS_MASTER=$((BASE + 60))
REDIS_REPLICA=$((BASE + 61))
SENTINEL_NAME=posmaster

node_port() { echo $((BASE + $1)); }
node_dir() { echo "$DIR/node$1"; }
log() { printf '[cluster] %s\n' "$*" >&2; }

# Runs a server with no descriptor of ours but its log: a daemon that kept the caller's pipe open
# would keep the caller waiting for an end of output that never comes.
detached() {
  local out=$1
  shift
  (
    cd /
    for fd in /proc/self/fd/*; do
      n=${fd##*/}
      [ "$n" -gt 2 ] 2>/dev/null && eval "exec $n>&-" 2>/dev/null
    done
    exec setsid "$@" </dev/null >>"$out" 2>&1
  ) &
}

sql() { # sql N "statement": run on node N over TCP
  mysql -uroot -h"$HOST" -P"$(node_port "$1")" --connect-timeout=2 -N -B -e "$2"
}

node_ready() { [ "$(sql "$1" "SHOW STATUS LIKE 'wsrep_ready'" 2>/dev/null | awk '{print $2}')" = "ON" ]; }
node_synced() { [ "$(sql "$1" "SHOW STATUS LIKE 'wsrep_local_state_comment'" 2>/dev/null | awk '{print $2}')" = "Synced" ]; }

install_packages() {
  local missing=()
  [ -f /usr/lib/galera/libgalera_smm.so ] || missing+=(galera-4)
  command -v haproxy >/dev/null || missing+=(haproxy)
  command -v redis-sentinel >/dev/null || missing+=(redis-sentinel)
  command -v rsync >/dev/null || missing+=(rsync)
  command -v socat >/dev/null || missing+=(socat)
  command -v mariadb-install-db >/dev/null || missing+=(mariadb-server)
  [ ${#missing[@]} -eq 0 ] && { log "packages present"; return 0; }
  log "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y --no-install-recommends "${missing[@]}" || { apt-get update && apt-get install -y --no-install-recommends "${missing[@]}"; }
  # The Debian packages may start their own services: the drill runs its own on its own ports.
  pkill -x haproxy 2>/dev/null || true
  pkill -f 'redis-sentinel .*:26379' 2>/dev/null || true
}

write_node_config() {
  local n=$1 d
  d=$(node_dir "$n")
  mkdir -p "$d/data"
  cat >"$d/my.cnf" <<EOF
[mysqld]
user=mysql
datadir=$d/data
socket=$d/mysqld.sock
pid-file=$d/mysqld.pid
log-error=$d/error.log
port=$(node_port "$n")
bind-address=$HOST
skip-name-resolve
binlog_format=ROW
default_storage_engine=InnoDB
innodb_autoinc_lock_mode=2
innodb_buffer_pool_size=64M
innodb_log_file_size=48M
innodb_flush_log_at_trx_commit=2
max_connections=300
performance_schema=OFF
character-set-server=utf8mb4
collation-server=utf8mb4_unicode_ci
wsrep_on=ON
wsrep_provider=/usr/lib/galera/libgalera_smm.so
wsrep_cluster_name=pos-drill
wsrep_cluster_address=gcomm://$HOST:$((BASE + 11)),$HOST:$((BASE + 12)),$HOST:$((BASE + 13))
wsrep_node_name=node$n
wsrep_node_address=$HOST:$((BASE + 10 + n))
wsrep_node_incoming_address=$HOST:$(node_port "$n")
wsrep_provider_options="gmcast.listen_addr=tcp://$HOST:$((BASE + 10 + n));ist.recv_addr=$HOST:$((BASE + 20 + n));gcache.size=128M;evs.suspect_timeout=PT3S;evs.inactive_timeout=PT6S"
wsrep_sst_method=rsync
wsrep_sst_receive_address=$HOST:$((BASE + 30 + n))
wsrep_slave_threads=2
EOF
  chown -R mysql:mysql "$d"
}

init_datadir() {
  local n=$1 d
  d=$(node_dir "$n")
  [ -d "$d/data/mysql" ] && return 0
  log "node$n: initialising its datadir"
  mariadb-install-db --defaults-file="$d/my.cnf" --user=mysql --auth-root-authentication-method=normal --skip-test-db >"$d/install.log" 2>&1
}

start_node() { # start_node N [--wsrep-new-cluster]
  local n=$1 d
  d=$(node_dir "$n")
  if sql "$n" "SELECT 1" >/dev/null 2>&1; then return 0; fi
  write_node_config "$n"
  init_datadir "$n"
  log "node$n: starting${2:+ ($2)}"
  detached "$d/stdout.log" /usr/sbin/mariadbd --defaults-file="$d/my.cnf" ${2:-}
}

wait_node() { # wait until node N is Synced (bounded)
  local n=$1
  for _ in $(seq 1 240); do node_synced "$n" && return 0; sleep 0.5; done
  log "node$n did not sync; tail of its log:"; tail -20 "$(node_dir "$n")/error.log" >&2; return 1
}

grant_root() { # TCP root without a password, as the machine's own server has it; the HAProxy check user
  sql 1 "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY ''; GRANT ALL ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;" 2>/dev/null ||
    mysql -uroot -S "$(node_dir 1)/mysqld.sock" -e "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY ''; GRANT ALL ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;"
}

start_galera() {
  local bootstrapped=0
  for n in 1 2 3; do if sql "$n" "SELECT 1" >/dev/null 2>&1; then bootstrapped=1; fi; done
  if [ $bootstrapped -eq 0 ]; then
    write_node_config 1
    init_datadir 1
    # The first node of a new cluster (or of a cluster whose every node stopped).
    sed -i 's/^safe_to_bootstrap: 0/safe_to_bootstrap: 1/' "$(node_dir 1)/data/grastate.dat" 2>/dev/null || true
    start_node 1 --wsrep-new-cluster
    for _ in $(seq 1 240); do [ -S "$(node_dir 1)/mysqld.sock" ] && mysql -uroot -S "$(node_dir 1)/mysqld.sock" -e 'SELECT 1' >/dev/null 2>&1 && break; sleep 0.5; done
    grant_root
    wait_node 1
  fi
  for n in 1 2 3; do start_node "$n"; wait_node "$n"; done
}

write_haproxy_config() {
  mkdir -p "$DIR/haproxy"
  cat >"$DIR/haproxy/check.sh" <<'EOF'
#!/bin/sh
# HAProxy external check: a Galera node takes traffic only when it is Synced and ready. One
# client process and no pipeline: HAProxy kills a check still running after `inter`, and that
# counts as a failure, so a check must stay cheap on a busy machine.
state=$(mysql -uroot -h"$3" -P"$4" --connect-timeout=1 -N -B -e "SELECT GROUP_CONCAT(VARIABLE_VALUE ORDER BY VARIABLE_NAME) FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME IN ('WSREP_LOCAL_STATE_COMMENT','WSREP_READY')" 2>/dev/null)
[ "$state" = "Synced,ON" ]
EOF
  chmod +x "$DIR/haproxy/check.sh"
  {
    cat <<EOF
global
  maxconn 2000
  external-check
  insecure-fork-wanted
  pidfile $DIR/haproxy/haproxy.pid
  stats socket $DIR/haproxy/admin.sock mode 600 level admin
defaults
  mode tcp
  timeout connect 2s
  timeout client 1h
  timeout server 1h
  option external-check
  external-check command $DIR/haproxy/check.sh
  external-check path "/usr/bin:/bin"
  # A check runs every second and is killed (a failure) if still running then; two failures in a
  # row take a node out and cut its sessions (a dead node is out within ~2 s). Every 500 ms was
  # too tight for a 2-core machine booting four services: a healthy write node was taken out and
  # the API's connections cut (503s at the drill's first write).
  default-server inter 1s fall 2 rise 2 on-marked-down shutdown-sessions
listen galera_write
  bind $HOST:$WRITE_PORT
  balance first
  server node1 $HOST:$(node_port 1) check
  server node2 $HOST:$(node_port 2) check backup
  server node3 $HOST:$(node_port 3) check backup
listen galera_read
  bind $HOST:$READ_PORT
  balance roundrobin
  server node1 $HOST:$(node_port 1) check
  server node2 $HOST:$(node_port 2) check
  server node3 $HOST:$(node_port 3) check
EOF
  } >"$DIR/haproxy/haproxy.cfg"
}

start_haproxy() {
  write_haproxy_config
  if [ -f "$DIR/haproxy/haproxy.pid" ] && kill -0 "$(cat "$DIR/haproxy/haproxy.pid")" 2>/dev/null; then return 0; fi
  log "haproxy: write $HOST:$WRITE_PORT, read $HOST:$READ_PORT"
  detached "$DIR/haproxy/haproxy.log" haproxy -f "$DIR/haproxy/haproxy.cfg" -D
  for _ in $(seq 1 60); do mysql -uroot -h"$HOST" -P"$WRITE_PORT" --connect-timeout=1 -e 'SELECT 1' >/dev/null 2>&1 && return 0; sleep 0.5; done
  log "haproxy write endpoint does not answer"; return 1
}

start_redis() {
  mkdir -p "$DIR/redis"
  local common="--bind $HOST --save '' --appendonly no --dir $DIR/redis --daemonize yes"
  redis-cli -p "$REDIS_MASTER" ping >/dev/null 2>&1 ||
    eval detached /dev/null redis-server --port "$REDIS_MASTER" "$common" --pidfile "$DIR/redis/master.pid" --logfile "$DIR/redis/master.log"
  redis-cli -p "$REDIS_REPLICA" ping >/dev/null 2>&1 ||
    eval detached /dev/null redis-server --port "$REDIS_REPLICA" "$common" --pidfile "$DIR/redis/replica.pid" --logfile "$DIR/redis/replica.log" --replicaof "$HOST" "$REDIS_MASTER"
  for i in 0 1 2; do
    local port=$((BASE + 70 + i)) conf="$DIR/redis/sentinel$i.conf"
    redis-cli -p "$port" ping >/dev/null 2>&1 && continue
    cat >"$conf" <<EOF
port $port
bind $HOST
daemonize yes
pidfile $DIR/redis/sentinel$i.pid
logfile $DIR/redis/sentinel$i.log
dir $DIR/redis
sentinel monitor $SENTINEL_NAME $HOST $REDIS_MASTER 2
sentinel down-after-milliseconds $SENTINEL_NAME 2000
sentinel failover-timeout $SENTINEL_NAME 10000
sentinel parallel-syncs $SENTINEL_NAME 1
EOF
    detached /dev/null redis-sentinel "$conf"
  done
  # Ready when the master the Sentinels name (either server, after a failover) has its replica.
  local master
  for _ in $(seq 1 60); do
    master=$(redis-cli -p $((BASE + 70)) sentinel get-master-addr-by-name "$SENTINEL_NAME" 2>/dev/null | sed -n 2p)
    [ -n "$master" ] && redis-cli -p "$master" info replication 2>/dev/null | tr -d '\r' | grep -q '^slave0:.*state=online' && return 0
    sleep 0.5
  done
  log "the Redis master has no replica online"; return 1
}

sentinels() { echo "$HOST:$((BASE + 70)),$HOST:$((BASE + 71)),$HOST:$((BASE + 72))"; }

print_env() {
  cat <<EOF
DB_TYPE=mysql
DB_HOST=$HOST
DB_PORT=$WRITE_PORT
DB_USERNAME=root
DB_PASSWORD=
DB_READ_HOSTS=$HOST:$(node_port 2),$HOST:$(node_port 3)
REDIS_SENTINELS=$(sentinels)
REDIS_SENTINEL_NAME=$SENTINEL_NAME
EOF
}

stop_all() {
  for f in "$DIR"/redis/*.pid "$DIR"/haproxy/haproxy.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true; done
  for n in 1 2 3; do [ -f "$(node_dir "$n")/mysqld.pid" ] && kill -9 "$(cat "$(node_dir "$n")/mysqld.pid")" 2>/dev/null || true; done
  pkill -f "mariadbd --defaults-file=$DIR/" 2>/dev/null || true
  sleep 1
  rm -rf "$DIR"
}

haproxy_stat() { # per server: proxy, server, status, failed checks, times taken out, last check and its duration
  printf 'show stat\n' | socat - "UNIX-CONNECT:$DIR/haproxy/admin.sock" |
    awk -F, '$2 != "FRONTEND" && $2 != "BACKEND" && $1 !~ /^#/ && NF > 1 { print $1, $2, $18, "failed_checks=" $22, "taken_out=" $23, "check=" $37, $39 "ms" }'
}

status() {
  for n in 1 2 3; do
    printf 'node%s :%s %s\n' "$n" "$(node_port "$n")" "$(sql "$n" "SHOW STATUS LIKE 'wsrep_local_state_comment'" 2>/dev/null | awk '{print $2}' || echo down)"
  done
  printf 'haproxy write :%s read :%s\n' "$WRITE_PORT" "$READ_PORT"
  printf 'redis master :%s -> %s\n' "$REDIS_MASTER" "$(redis-cli -p $((BASE + 70)) sentinel get-master-addr-by-name $SENTINEL_NAME 2>/dev/null | tr '\n' ' ')"
}

case "${1:-}" in
  install) install_packages ;;
  up) start_galera; start_haproxy; start_redis; status ;;
  down) stop_all ;;
  status) status ;;
  haproxy-stat) haproxy_stat ;;
  env) print_env ;;
  kill-node) kill -9 "$(cat "$(node_dir "$2")/mysqld.pid")" ;;
  start-node) start_node "$2"; wait_node "$2" ;;
  *) sed -n '2,20p' "$0"; exit 2 ;;
esac
