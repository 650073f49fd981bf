#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, for the farm tests and for trying `eddy farm`
# by hand (recipe: /work/shared/STACK.md, "Slurm on these machines"). Root only, no systemd.
#   slurm-cluster.sh start    idempotent: starts what is not running, waits until the node is up
#   slurm-cluster.sh stop     stops slurmd, slurmctld and munged by their pid files
#   slurm-cluster.sh status   exit 0 only when sinfo answers with an up node
# Every wait is bounded; on failure `start` prints one line "slurm-cluster: cannot start: <why>".
set -uo pipefail

CONF=/etc/slurm/slurm.conf
LOGDIR=/var/log/slurm
MUNGE_PID=/run/munge/munged.pid
CTLD_PID=/run/slurmctld.pid
SLURMD_PID=/run/slurmd.pid
HOST=$(hostname -s)

fail() {
  echo "slurm-cluster: cannot start: $*" >&2
  exit 1
}

# Last non-empty line of a log, to say why a daemon died.
last_line() {
  [ -f "$1" ] && grep -v '^[[:space:]]*$' "$1" | tail -n 1 || echo "(no log at $1)"
}

# Running when the pid file names a live process whose name is $2.
running() {
  local pid
  pid=$(cat "$1" 2>/dev/null) || return 1
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && [ "$(cat /proc/"$pid"/comm 2>/dev/null)" = "$2" ]
}

munge_ok() { timeout 5 munge -n 2>/dev/null | timeout 5 unmunge >/dev/null 2>&1; }

# Node states in which jobs can run (sinfo -o %T; a trailing * means not responding).
node_up() {
  local states
  states=$(timeout 5 sinfo -h -o %T 2>/dev/null) || return 1
  grep -qxE 'idle|mixed|allocated|completing' <<<"$states"
}

write_conf() {
  local cpus mem tmp
  cpus=$(nproc)
  mem=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 * 0.8 }' /proc/meminfo)
  tmp=$(mktemp "$CONF.XXXXXX")
  # No cgroup.conf on purpose: in 22.05 CgroupPlugin=disabled makes slurmd fail to start.
  # Addresses are 127.0.0.1 so the cluster works even where the host name does not resolve.
  cat >"$tmp" <<EOF
# Written by eddy's scripts/slurm-cluster.sh: a single-node cluster on $HOST.
ClusterName=eddy
SlurmctldHost=$HOST(127.0.0.1)
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmctldPidFile=$CTLD_PID
SlurmdPidFile=$SLURMD_PID
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldLogFile=$LOGDIR/slurmctld.log
SlurmdLogFile=$LOGDIR/slurmd.log
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/filetxt
JobCompLoc=$LOGDIR/jobcomp.log
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=main Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
  chmod 644 "$tmp"
  mv -f "$tmp" "$CONF"
}

start() {
  command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v munged >/dev/null ||
    fail "slurmctld, slurmd or munged is not installed (Debian: apt-get install -y slurm-wlm munge)"

  # munge: the key only if missing (a new key would break a running cluster).
  if [ ! -s /etc/munge/munge.key ]; then
    mkdir -p /etc/munge
    dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null || fail "cannot write /etc/munge/munge.key"
    chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key || fail "cannot chown /etc/munge/munge.key to munge"
  fi
  mkdir -p /run/munge && chown munge:munge /run/munge || fail "cannot create /run/munge"
  if ! munge_ok; then
    local err
    err=$(timeout 20 runuser -u munge -- /usr/sbin/munged 2>&1) || fail "munged: ${err:-exited with an error}"
    local end=$((SECONDS + 5))
    until munge_ok || [ $SECONDS -ge $end ]; do sleep 0.1; done
    munge_ok || fail "munged started but 'munge -n | unmunge' does not succeed within 5 s"
  fi

  mkdir -p "$LOGDIR" /var/spool/slurmctld /var/spool/slurmd || fail "cannot create the log and spool folders"
  write_conf || fail "cannot write $CONF"

  if ! running "$CTLD_PID" slurmctld; then
    timeout 20 /usr/sbin/slurmctld >/dev/null 2>&1 || fail "slurmctld exited: $(last_line "$LOGDIR/slurmctld.log")"
    local end=$((SECONDS + 10))
    until timeout 5 scontrol ping 2>/dev/null | grep -q 'is UP' || [ $SECONDS -ge $end ]; do sleep 0.2; done
    running "$CTLD_PID" slurmctld || fail "slurmctld died: $(last_line "$LOGDIR/slurmctld.log")"
  fi
  if ! running "$SLURMD_PID" slurmd; then
    timeout 20 /usr/sbin/slurmd >/dev/null 2>&1 || fail "slurmd exited: $(last_line "$LOGDIR/slurmd.log")"
  fi

  # Wait for the node to register; resume it once if an earlier run left it down or drained.
  local resumed=0 state end=$((SECONDS + 30))
  while [ $SECONDS -lt $end ]; do
    node_up && return 0
    running "$CTLD_PID" slurmctld || fail "slurmctld died: $(last_line "$LOGDIR/slurmctld.log")"
    running "$SLURMD_PID" slurmd || fail "slurmd died: $(last_line "$LOGDIR/slurmd.log")"
    state=$(timeout 5 sinfo -h -o %T 2>/dev/null)
    if [ $resumed = 0 ] && grep -qE 'drain|down|fail' <<<"$state"; then
      timeout 5 scontrol update nodename="$HOST" state=resume >/dev/null 2>&1
      resumed=1
    fi
    sleep 0.5
  done
  state=$(timeout 5 sinfo -h -N -o '%T (%E)' 2>&1 | head -n 1)
  fail "node $HOST is not up after 30 s (sinfo: ${state:-no answer}; slurmd log: $(last_line "$LOGDIR/slurmd.log"))"
}

# Sends TERM, then KILL after 10 s.
stop_one() {
  local pidfile=$1 name=$2 pid
  running "$pidfile" "$name" || return 0
  pid=$(cat "$pidfile")
  kill "$pid" 2>/dev/null
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
  rm -f "$pidfile"
  echo "slurm-cluster: stopped $name ($pid)"
}

if [ "$(id -u)" != 0 ]; then
  echo "slurm-cluster: must run as root (it writes /etc/slurm and starts munged, slurmctld and slurmd)" >&2
  exit 1
fi

case "${1:-}" in
  start)
    start
    echo "slurm-cluster: up: node $HOST, partition main"
    ;;
  stop)
    stop_one "$SLURMD_PID" slurmd
    stop_one "$CTLD_PID" slurmctld
    stop_one "$MUNGE_PID" munged
    ;;
  status)
    if node_up; then
      timeout 5 sinfo
      exit 0
    fi
    echo "slurm-cluster: down ($(timeout 5 sinfo -h -o %T 2>&1 | head -n 1))" >&2
    exit 1
    ;;
  *)
    echo "usage: $0 start|stop|status" >&2
    exit 2
    ;;
esac
