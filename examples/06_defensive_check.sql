-- 06: the defensive check an operator (or an autoscaler) runs before an online ALTER.
-- rwalter: --echo --on-error continue
--
-- Run: rwalter --echo --on-error continue -f examples/06_defensive_check.sql   (exit code 1: three ALTERs fail on purpose)
-- See also examples/06_autoscaler_gate.sh: the same check in a shell script.
--
-- While a snapshot backfill is creating, RisingWave refuses online reschedules of more than the
-- creating job itself: its upstream table and, at barrier time, other jobs reading that table.
-- The safe rule: if rw_ddl_progress lists a SNAPSHOT_BACKFILL job, queue the ALTER (or use DEFERRED).

CREATE TABLE t (v int);
INSERT INTO t SELECT * FROM generate_series(1, 10000);
CREATE MATERIALIZED VIEW m1 AS SELECT * FROM t;
SET background_ddl = true;
SET backfill_rate_limit = 1;
CREATE MATERIALIZED VIEW mv AS SELECT * FROM t;

-- The check. Non-empty result = an unreschedulable backfill is in flight: do not ALTER online.
SELECT ddl_id, ddl_statement, backfill_type, progress FROM rw_ddl_progress WHERE backfill_type = 'SNAPSHOT_BACKFILL';
-- Which jobs are not CREATED yet (status CREATING; their parallelism shows the backfill value if any).
SELECT id, name, status, parallelism FROM rw_streaming_jobs WHERE status <> 'CREATED';

-- What happens if you ALTER anyway: three different RisingWave errors.
-- 1. The creating job itself (SET BACKFILL_PARALLELISM): the error of example 01.
ALTER MATERIALIZED VIEW mv SET BACKFILL_PARALLELISM = 2;
-- 2. Its upstream table (SET PARALLELISM): "blocked by creating unreschedulable backfill jobs".
ALTER TABLE t SET PARALLELISM = 2;
-- 3. Another MV on the same table passes the first check but is refused at barrier time, because
--    rescheduling m1 touches t's dispatchers. The job in braces is t (id 6), the blocked neighbour.
ALTER MATERIALIZED VIEW m1 SET PARALLELISM = 2;

-- Careful: in case 3 RisingWave had already committed the new target before the barrier refused it.
-- The catalog says 2, the actors are still 12: the change lands at the next re-render.
SELECT name, status, parallelism FROM rw_streaming_jobs WHERE name = 'm1';
SELECT table_id, parallelism FROM rw_fragments WHERE table_id = 7;

-- Queue instead: wait for the backfill (or use DEFERRED, example 03), check again, then ALTER.
-- (Lifting the rate limit first just makes the backfill quick.)
SET backfill_rate_limit = DEFAULT;
ALTER MATERIALIZED VIEW mv SET BACKFILL_RATE_LIMIT = DEFAULT;
WAIT;
SELECT ddl_id, ddl_statement, backfill_type, progress FROM rw_ddl_progress WHERE backfill_type = 'SNAPSHOT_BACKFILL';
ALTER TABLE t SET PARALLELISM = 2;

-- m1's refused change from case 3 is still only in the catalog (2 vs 12 actors): nothing re-rendered
-- m1 since. The next recovery (or worker change) applies it.
SELECT j.name, j.parallelism, f.parallelism AS actors FROM rw_streaming_jobs j JOIN rw_fragments f ON f.table_id = j.id WHERE j.name = 'm1';
RECOVER;
SELECT j.name, j.parallelism, f.parallelism AS actors FROM rw_streaming_jobs j JOIN rw_fragments f ON f.table_id = j.id WHERE j.name = 'm1';
