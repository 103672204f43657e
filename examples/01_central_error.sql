-- 01: the central error, reproduced from nothing.
--
-- Run: rwalter -f examples/01_central_error.sql        (exit code 1: the last statement fails)
--
-- A materialized view created in the background uses snapshot backfill by default
-- (streaming_use_snapshot_backfill = true). While it is still creating, its backfill runs
-- outside the online barrier graph, so RisingWave refuses to reschedule it online
-- (meta: GlobalStreamManager::reschedule_streaming_job_backfill_parallelism, stream_manager.rs).

CREATE TABLE t (v int);
INSERT INTO t SELECT * FROM generate_series(1, 10000);

-- Create the MV in the background and slow its backfill down: 1 row per second per actor.
SET background_ddl = true;
SET backfill_rate_limit = 1;
CREATE MATERIALIZED VIEW mv AS SELECT * FROM t;

-- The job is still creating: SHOW JOBS lists it with its progress. "Snapshot [...]" in the
-- Progress column is how you recognise a snapshot backfill.
SHOW JOBS;

-- This is the refusal (exit code 1). Look at the last "Caused by" line: that is RisingWave's text.
-- Run `rwalter explain backfill-unreschedulable` for the ways out (examples 02 to 05 show them).
ALTER MATERIALIZED VIEW mv SET BACKFILL_PARALLELISM = 2;
