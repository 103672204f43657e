#!/usr/bin/env bash
# 06 (shell): an autoscaler gate built on `rwalter check-alter`.
#
# Run: bash examples/06_autoscaler_gate.sh        (set RWALTER to the command to use; default `rwalter`)
#
# Before it alters a job, the gate asks `rwalter check-alter "ALTER ..."`: the ALTER's dry run against
# the cluster's state. Its exit code is the answer (docs/cli-contract.md):
#   0 applies online -> run it now
#   3 refused, nothing would be saved -> queue it and retry after the creating job
#   4 would be saved but not applied until recovery or DEFERRED -> do not run it (it would fail and
#     still change the catalog); queue it
#   2 an error in the statement -> drop it
# It also prints the dry run's jsonl record (read here with python3, no jq). Each rwalter call is a
# fresh process; `--db FILE` keeps the simulated cluster (catalog and clock) between the calls.
set -u

RWALTER=${RWALTER:-rwalter}
workdir=$(mktemp -d)
trap 'rm -rf "$workdir"' EXIT
db="$workdir/cluster.duckdb"

rw() { $RWALTER --db "$db" "$@"; }

# Ask the gate; run, queue or drop the ALTER by its answer. Returns 1 if an ALTER that ran failed.
gate_alter() {
  local sql=$1 rc
  rw check-alter "$sql" > "$workdir/check.jsonl" 2> /dev/null
  rc=$?
  python3 -c '
import json, sys
r = json.loads(open(sys.argv[1]).readline())
err = r["error"]
print("  dry run: %s%s" % (r["outcome"], " [%s] %s" % (err["code"], err["message"]) if err else ""))
' "$workdir/check.jsonl"
  case $rc in
    0) echo "gate: exit 0, applies online -> $sql"
       rw --format jsonl -c "$sql" > "$workdir/out.jsonl" || return 1
       python3 -c '
import json, sys
r = json.loads(open(sys.argv[1]).readline())
for f in (r["plan"] or {}).get("fragments", []):
    print("  done, tag %s: fragment %d (%s) %d -> %d actors"
          % (r["tag"], f["fragment_id"], f["job_name"], f["actors_before"], f["actors_after"]))
' "$workdir/out.jsonl" ;;
    3) echo "gate: exit 3, refused, nothing saved -> queued: $sql"; queue+=("$sql") ;;
    4) echo "gate: exit 4, would be saved but not applied -> queued: $sql"; queue+=("$sql") ;;
    *) echo "gate: exit $rc, not a valid ALTER here -> dropped: $sql" ;;
  esac
}

queue=()

echo "== set up: table t, MV m1 on it, MV m2 creating in the background with a snapshot backfill"
rw -f - <<'SQL' > /dev/null || exit 1
CREATE TABLE t (v int);
INSERT INTO t SELECT * FROM generate_series(1, 10000);
CREATE MATERIALIZED VIEW m1 AS SELECT * FROM t;
SET background_ddl = true;
SET backfill_rate_limit = 1;
CREATE MATERIALIZED VIEW m2 AS SELECT * FROM t;
SQL

echo "== without the gate: ALTER of m1 fails at the barrier, exit code 1, and the new value stays"
rw -c "ALTER MATERIALIZED VIEW m1 SET PARALLELISM = 3" > /dev/null 2> "$workdir/err.txt"
echo "rwalter exit code: $?"
grep -o 'cannot reschedule jobs .*' "$workdir/err.txt"
rw -c "SELECT name, parallelism FROM rw_streaming_jobs WHERE name = 'm1'"

echo "== with the gate"
gate_alter "ALTER TABLE t SET PARALLELISM = 2"
gate_alter "ALTER MATERIALIZED VIEW m1 SET PARALLELISM = 2"
gate_alter "ALTER MATERIALIZED VIEW m3 SET PARALLELISM = 2"

echo "== later: the backfill is done (here: lift the rate limit and WAIT)"
rw -c "ALTER MATERIALIZED VIEW m2 SET BACKFILL_RATE_LIMIT = DEFAULT" -c "WAIT" > /dev/null || exit 1

echo "== drain the queue"
status=0
for sql in "${queue[@]}"; do
  gate_alter "$sql" || status=1
done

echo "== result"
rw -c "SELECT name, status, parallelism FROM rw_streaming_jobs ORDER BY id"
exit $status
