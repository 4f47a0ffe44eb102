#!/usr/bin/env bash
# `make test-cluster`: run the .test DAG on a real single-node SLURM cluster and prove it.
#
#  1. installs what it needs from Debian (slurm-wlm, slurmdbd, munge, mariadb-server) when missing;
#  2. starts, as root, from a private state directory ($CLUSTER_DIR, default .cluster/): munged (unless one
#     already answers), MariaDB (127.0.0.1 only), slurmdbd (accounting, so that `sacct` works), slurmctld and
#     slurmd, with SLURM_CONF pointing at the generated slurm.conf; /etc/slurm/slurm.conf is a link to it
#     while the test runs (srun inside a job reads that path) and a file that was there is put back at the end;
#  3. runs the .test DAG locally (--cores 2) and through `--profile profiles/slurm`
#     (snakemake-executor-plugin-slurm), each into its own results directory under $CLUSTER_DIR;
#  4. checks with sacct that every submitted job is COMPLETED and that each job's mem_mb / runtime / threads
#     reached the scheduler (ReqMem, Timelimit, ReqCPUS), shows `scontrol show job` of one job, and compares
#     the tables of both runs byte for byte (tools/cluster_check.py);
#  5. stops every daemon it started, by PID, whatever happened.
#
# Environment: BIN (venv bin dir, default .venv/bin), DATA_MIRROR (default ../shared/datasets),
# CLUSTER_DIR (default .cluster), SLURM_POLL (seconds before the first status check, default 5),
# CLUSTER_CONFIG (the config file of both runs, default .test/config.yaml; config.yaml runs the full DAG).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
BIN=$(cd "${BIN:-$ROOT/.venv/bin}" && pwd)
MIRROR=$(cd "${DATA_MIRROR:-$ROOT/../shared/datasets}" && pwd)
WORK=${CLUSTER_DIR:-$ROOT/.cluster}
POLL=${SLURM_POLL:-5}
RUN_CONFIG=${CLUSTER_CONFIG:-.test/config.yaml}
[ -f "$RUN_CONFIG" ] || { echo "test-cluster: CLUSTER_CONFIG=$RUN_CONFIG: no such file" >&2; exit 1; }
CLUSTER=privanomaly
ACCOUNT=privanomaly
CTLD_PORT=16817 SLURMD_PORT=16818 DBD_PORT=16819 DB_PORT=13306

say() { printf '\n[test-cluster %s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }
die() { echo "test-cluster: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "must run as root (it installs Debian packages and starts the SLURM daemons)"
[ -x "$BIN/snakemake" ] || die "no snakemake in $BIN (run 'make install' or set BIN)"

# ---- 1. packages --------------------------------------------------------------------------------------
missing=()
for pkg in slurm-wlm slurmdbd munge mariadb-server mariadb-client; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]} (apt-get)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# ---- 2. daemons ---------------------------------------------------------------------------------------
PIDS=() NAMES=()
stop_daemons() {
    local i
    for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
        if kill -0 "${PIDS[$i]}" 2>/dev/null; then
            echo "[test-cluster] stopping ${NAMES[$i]} (pid ${PIDS[$i]})"
            kill "${PIDS[$i]}" 2>/dev/null || true
            for _ in $(seq 50); do kill -0 "${PIDS[$i]}" 2>/dev/null || break; sleep 0.2; done
        fi
    done
}
# Jobs call `srun` through snakemake-executor-plugin-slurm-jobstep, which drops every SLURM_* variable (also
# SLURM_CONF) for that call: srun then reads the default /etc/slurm/slurm.conf. So that path points at the
# generated file while the test runs; a file that was there before is put back at the end.
SYS_CONF=/etc/slurm/slurm.conf
restore_conf() {
    if [ -L "$SYS_CONF" ] && [ "$(readlink "$SYS_CONF")" = "$WORK/etc/slurm.conf" ]; then
        rm -f "$SYS_CONF"
        if [ -e "$WORK/saved-slurm.conf" ] || [ -L "$WORK/saved-slurm.conf" ]; then
            mv "$WORK/saved-slurm.conf" "$SYS_CONF"
            echo "[test-cluster] restored the previous $SYS_CONF"
        fi
    fi
}
cleanup() { stop_daemons; restore_conf; }
trap cleanup EXIT
started() { PIDS+=("$1"); NAMES+=("$2"); echo "[test-cluster] started $2 (pid $1)"; }
wait_for() {  # wait_for <seconds> <what> <command...>
    local t=$1 what=$2; shift 2
    for _ in $(seq $((t * 2))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.5; done
    die "$what did not come up within ${t}s (logs: $WORK/log)"
}

rm -rf "$WORK/etc" "$WORK/state" "$WORK/spool" "$WORK/run" "$WORK/log" "$WORK/db" "$WORK/saved-slurm.conf"
mkdir -p "$WORK/etc" "$WORK/state" "$WORK/spool" "$WORK/run" "$WORK/log" "$WORK/db"
HOST=$(hostname -s)
export SLURM_CONF="$WORK/etc/slurm.conf"

if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    say "munged already running: using it (not stopped at the end)"
else
    [ -s /etc/munge/munge.key ] || { mungekey --create --keyfile /etc/munge/munge.key 2>/dev/null || \
        dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2>/dev/null; chmod 600 /etc/munge/munge.key; }
    mkdir -p /run/munge && chmod 755 /run/munge
    munged --foreground --force >"$WORK/log/munged.out" 2>&1 &
    started $! munged
    wait_for 20 munged sh -c 'munge -n | unmunge'
fi

say "MariaDB on 127.0.0.1:$DB_PORT (data in $WORK/db)"
mariadb-install-db --no-defaults --datadir="$WORK/db" --user=root --auth-root-authentication-method=socket \
    >"$WORK/log/mariadb-install.out" 2>&1
mariadbd --no-defaults --datadir="$WORK/db" --socket="$WORK/run/mysqld.sock" --port=$DB_PORT \
    --bind-address=127.0.0.1 --user=root --pid-file="$WORK/run/mysqld.pid" \
    --log-error="$WORK/log/mariadb.log" --innodb-buffer-pool-size=64M &
started $! mariadbd
wait_for 60 mariadbd mariadb --no-defaults -S "$WORK/run/mysqld.sock" -u root -e "select 1"
DB_PASS=$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')
mariadb --no-defaults -S "$WORK/run/mysqld.sock" -u root -e "
  CREATE USER 'slurm'@'127.0.0.1' IDENTIFIED BY '$DB_PASS'; CREATE USER 'slurm'@'localhost' IDENTIFIED BY '$DB_PASS';
  GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1'; GRANT ALL ON slurm_acct_db.* TO 'slurm'@'localhost';"

# node line from the hardware slurmd sees, with RealMemory a little below the machine's memory
NODE=$(slurmd -C | head -1 | sed -E "s/RealMemory=[0-9]+/RealMemory=$(($(free -m | awk '/^Mem:/{print $2}') * 9 / 10))/")
cat >"$WORK/etc/slurmdbd.conf" <<EOF
AuthType=auth/munge
DbdHost=localhost
DbdPort=$DBD_PORT
SlurmUser=root
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$DB_PORT
StorageUser=slurm
StoragePass=$DB_PASS
StorageLoc=slurm_acct_db
PidFile=$WORK/run/slurmdbd.pid
LogFile=$WORK/log/slurmdbd.log
EOF
chmod 600 "$WORK/etc/slurmdbd.conf"
mkdir -p /etc/slurm
if [ -e "$SYS_CONF" ] || [ -L "$SYS_CONF" ]; then mv "$SYS_CONF" "$WORK/saved-slurm.conf"; fi
ln -s "$WORK/etc/slurm.conf" "$SYS_CONF"
cat >"$SLURM_CONF" <<EOF
ClusterName=$CLUSTER
SlurmctldHost=$HOST
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
AuthType=auth/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
MinJobAge=3600
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/run/slurmctld.pid
SlurmdPidFile=$WORK/run/slurmd.pid
SlurmctldLogFile=$WORK/log/slurmctld.log
SlurmdLogFile=$WORK/log/slurmd.log
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=localhost
AccountingStoragePort=$DBD_PORT
AccountingStoreFlags=job_comment
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=5
$NODE
PartitionName=main Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF

say "slurmdbd, cluster/account records, slurmctld, slurmd"
slurmdbd -D >"$WORK/log/slurmdbd.out" 2>&1 &
started $! slurmdbd
wait_for 60 slurmdbd sacctmgr -n list cluster
sacctmgr -i add cluster "$CLUSTER" >/dev/null
sacctmgr -i add account "$ACCOUNT" Cluster="$CLUSTER" Description="make test-cluster" Organization=privanomaly >/dev/null
sacctmgr -i add user root Account="$ACCOUNT" DefaultAccount="$ACCOUNT" >/dev/null
slurmctld -D -f "$SLURM_CONF" >"$WORK/log/slurmctld.out" 2>&1 &
started $! slurmctld
wait_for 60 slurmctld scontrol ping
slurmd -D -f "$SLURM_CONF" >"$WORK/log/slurmd.out" 2>&1 &
started $! slurmd
wait_for 60 "node $HOST idle" sh -c "sinfo -h -N -o %T | grep -qx idle"
sinfo -N -o "%N %P %c %m %T"
if [ "${CLUSTER_SMOKE:-0}" = 1 ]; then  # daemons only: one job through sbatch + sacct, then stop
    id=$(sbatch --parsable --mem 100 -t 2 -o "$WORK/log/smoke-%j.out" --wrap "hostname")
    for _ in $(seq 60); do sacct -n -X -j "$id" -o State | grep -q COMPLETED && break; sleep 1; done
    sacct -X -j "$id" -o JobID,State,ExitCode,ReqMem,Timelimit,ReqCPUS
    exit 0
fi

# ---- 3. the DAG of $RUN_CONFIG (default: the .test DAG), locally and through SLURM ---------------------
export PATH="$BIN:$PATH"
for run in local slurm; do
    mkdir -p "$WORK/$run"
    printf 'results_dir: %s\n' "$WORK/$run/results" \
        >"$WORK/$run/config.yaml"
    rm -rf "$WORK/$run/results"
done
# Wall (date), CPU of Snakemake and every process it waited for (bash `time`: user + sys) and the load average
# of the machine at each start and at the end: the report gives all three (a shared machine inflates walls).
TIMEFORMAT='%U %S'
load() { cut -d' ' -f1 /proc/loadavg; }
say "local run of the DAG of $RUN_CONFIG (--cores 2)"
l0=$(load) t0=$(date +%s)
{ time "$BIN/snakemake" --cores 2 --configfile "$RUN_CONFIG" "$WORK/local/config.yaml" \
    --config data_mirror="$MIRROR" --quiet rules >"$WORK/local/snakemake.log" 2>&1; } 2>"$WORK/local/cpu" ||
    { tail -30 "$WORK/local/snakemake.log"; die "local run failed ($WORK/local/snakemake.log)"; }
l1=$(load) t1=$(date +%s)
say "SLURM run of the DAG of $RUN_CONFIG (--profile profiles/slurm)"
# --workflow-profile none: Snakemake otherwise also reads profiles/default (the workflow profile) after
# profiles/slurm, and its `cores: 8` would replace the SLURM profile's `cores` that bounds group jobs.
{ time "$BIN/snakemake" --profile profiles/slurm --workflow-profile none --configfile "$RUN_CONFIG" \
    "$WORK/slurm/config.yaml" --config data_mirror="$MIRROR" --slurm-init-seconds-before-status-checks "$POLL" \
    --slurm-status-command sacct >"$WORK/slurm/snakemake.log" 2>&1; } 2>"$WORK/slurm/cpu" ||
    { tail -30 "$WORK/slurm/snakemake.log"; die "SLURM run failed ($WORK/slurm/snakemake.log)"; }
l2=$(load) t2=$(date +%s)

# ---- 4. proof -----------------------------------------------------------------------------------------
say "checks: sacct records, requested resources, tables byte for byte"
cpu() { awk '{print $1 + $2}' "$1"; }
"$BIN/python" tools/cluster_check.py --log "$WORK/slurm/snakemake.log" --local "$WORK/local/results" \
    --slurm "$WORK/slurm/results" --out "$WORK/report.md" --local-seconds $((t1 - t0)) --slurm-seconds $((t2 - t1)) \
    --local-cpu "$(cpu "$WORK/local/cpu")" --slurm-cpu "$(cpu "$WORK/slurm/cpu")" --loads "$l0" "$l1" "$l2" \
    --json "$WORK/report.json" --config-file "$RUN_CONFIG"
say "passed: report in $WORK/report.md"
