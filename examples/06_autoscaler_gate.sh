#!/usr/bin/env bash
# 06 (shell): an autoscaler gate built on rwalter's exit codes and `--format jsonl`.
#
# Run: bash examples/06_autoscaler_gate.sh        (set RWALTER to the command to use; default `rwalter`)
#
# Before altering a job online, ask the catalog whether a snapshot backfill is creating
# (rw_ddl_progress.backfill_type = 'SNAPSHOT_BACKFILL'). If so, queue the ALTER and retry after the
# backfill; if not, ALTER now. Uses only bash and python3 (no jq). Each rwalter call is a fresh
# process; `--db FILE` keeps the simulated cluster (catalog and clock) between the calls.
# Exit codes: 0 all statements succeeded, 1 a statement failed, 2 usage error.
set -u

RWALTER=${RWALTER:-rwalter}
workdir=$(mktemp -d)
trap 'rm -rf "$workdir"' EXIT
db="$workdir/cluster.duckdb"

rw() { $RWALTER --db "$db" "$@"; }

# How many snapshot backfills are creating? Reads the first JSON record's first row.
snapshot_backfills() {
  rw --format jsonl -c "SELECT count(*) FROM rw_ddl_progress WHERE backfill_type = 'SNAPSHOT_BACKFILL'" |
    python3 -c 'import json, sys; print(json.loads(sys.stdin.readline())["rows"][0][0])'
}

# ALTER if the gate is open, else queue. Prints what it decided; returns rwalter's exit code.
gate_alter() {
  local sql=$1 busy
  busy=$(snapshot_backfills) || return 2
  if [ "$busy" != "0" ]; then
    echo "gate: $busy snapshot backfill(s) creating -> queued: $sql"
    queue+=("$sql")
    return 0
  fi
  echo "gate: open -> $sql"
  rw --format jsonl -c "$sql" > "$workdir/out.jsonl"
  local rc=$?
  # The error code and RisingWave's message come from the JSON record, not from the exit code alone.
  python3 -c '
import json, sys
r = json.loads(open(sys.argv[1]).readline())
if r["error"]:
    print("  failed [%s]: %s" % (r["error"]["code"], r["error"]["message"]))
else:
    plan = r["plan"]
    if plan is None:
        print("  ok, tag %s, no actor changed" % r["tag"])
    else:
        for f in plan["fragments"]:
            print("  ok, tag %s: fragment %d (%s) %d -> %d actors"
                  % (r["tag"], f["fragment_id"], f["job_name"], f["actors_before"], f["actors_after"]))
' "$workdir/out.jsonl"
  echo "  rwalter exit code: $rc"
  return $rc
}

queue=()

echo "== set up: table t, MV mv creating in the background with a snapshot backfill"
rw -f - <<'SQL' > /dev/null || exit 1
CREATE TABLE t (v int);
INSERT INTO t SELECT * FROM generate_series(1, 10000);
SET background_ddl = true;
SET backfill_rate_limit = 1;
CREATE MATERIALIZED VIEW mv AS SELECT * FROM t;
SQL

echo "== without the gate: the online ALTER fails, exit code 1"
rw -c "ALTER TABLE t SET PARALLELISM = 2" > /dev/null 2> "$workdir/err.txt"
echo "rwalter exit code: $?"
grep -o 'Cannot alter the job [0-9]* because .*' "$workdir/err.txt"

echo "== with the gate"
gate_alter "ALTER TABLE t SET PARALLELISM = 2"
gate_alter "ALTER MATERIALIZED VIEW mv SET PARALLELISM = 4"

echo "== later: the backfill is done (here: lift the rate limit and WAIT)"
rw -c "ALTER MATERIALIZED VIEW mv SET BACKFILL_RATE_LIMIT = DEFAULT" -c "WAIT" > /dev/null || exit 1

echo "== drain the queue"
status=0
for sql in "${queue[@]}"; do
  gate_alter "$sql" || status=1
done

echo "== result"
rw -c "SELECT name, status, parallelism FROM rw_streaming_jobs ORDER BY id"
exit $status
