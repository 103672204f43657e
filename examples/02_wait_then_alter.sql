-- 02: wait for the backfill to finish, then ALTER and read the reschedule plan.
-- rwalter: --echo --plan map
--
-- Run: rwalter --echo -f examples/02_wait_then_alter.sql
--
-- The simplest way out of example 01: a snapshot backfill cannot be rescheduled online, but a
-- CREATED job can. Watch the job in SHOW JOBS, WAIT for it, then ALTER it.

CREATE TABLE t (v int);
INSERT INTO t SELECT * FROM generate_series(1, 10000);
SET background_ddl = true;
SET backfill_rate_limit = 6;
CREATE MATERIALIZED VIEW mv AS SELECT * FROM t;

-- Progress starts at 0. rw_ddl_progress holds the same rows as SHOW JOBS, plus the backfill type.
SHOW JOBS;
SELECT ddl_id, backfill_type, progress FROM rw_ddl_progress;

-- Move the simulated clock: 12 actors (3 nodes x 4 slots) x 6 rows/s x 60 s = 4320 rows.
\sleep 60s
SHOW JOBS;

-- WAIT returns when every creating job has finished (RisingWave's WAIT statement; the simulated
-- clock moves as far as needed). SHOW JOBS is then empty and the job is CREATED.
WAIT;
SHOW JOBS;
SELECT name, status, parallelism FROM rw_streaming_jobs;

-- Now the ALTER succeeds. On success RisingWave prints only the command tag, ALTER_MATERIALIZED_VIEW;
-- the "Reschedule plan" below it is rwalter's: which actors are removed and added on which worker,
-- with their vnodes. 12 actors become 2, the upstream table's dispatcher is updated.
ALTER MATERIALIZED VIEW mv SET PARALLELISM = 2;

-- The catalog agrees: the job's parallelism is now the fixed value 2, and its fragment has 2 actors.
SELECT name, status, parallelism FROM rw_streaming_jobs;
SELECT fragment_id, table_id, flags, parallelism FROM rw_fragments ORDER BY fragment_id;
