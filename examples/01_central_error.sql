-- 01: the central error, reproduced from nothing.
--
-- A materialized view created in the background uses snapshot backfill by default
-- (streaming_use_snapshot_backfill = true). While it is still creating, its backfill runs
-- outside the online barrier graph, so RisingWave refuses to reschedule it online.

CREATE TABLE t (v int);
INSERT INTO t SELECT * FROM generate_series(1, 10000);

-- Create the MV in the background and slow its backfill down: 1 row per second per actor.
SET background_ddl = true;
SET backfill_rate_limit = 1;
CREATE MATERIALIZED VIEW mv AS SELECT * FROM t;

-- The job is still creating: SHOW JOBS lists it with its progress.
SHOW JOBS;

-- This is the refusal (exit code 1). Run `rwalter explain backfill-unreschedulable` for the ways out.
ALTER MATERIALIZED VIEW mv SET BACKFILL_PARALLELISM = 2;
