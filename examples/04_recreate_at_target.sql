-- 04: recreate the job at the target parallelism instead of altering it.
-- rwalter: --echo
--
-- Run: rwalter --echo -f examples/04_recreate_at_target.sql
--
-- If the backfill has barely started, the cheapest fix is to cancel the job and create it again
-- with the parallelism decided up front, through session variables read at CREATE:
--   streaming_parallelism_for_backfill  the parallelism while backfilling (default: none)
--   streaming_parallelism               the parallelism afterwards (MV default: bounded(64))
-- (RisingWave: src/frontend/src/stream_fragmenter/parallelism.rs.)

CREATE TABLE t (v int);
INSERT INTO t SELECT * FROM generate_series(1, 10000);
SET background_ddl = true;
SET backfill_rate_limit = 1;
CREATE MATERIALIZED VIEW mv AS SELECT * FROM t;

-- The job started with 12 actors (bounded(64) over 12 slots) and is at 0%.
SHOW JOBS;

-- CANCEL JOBS takes the Id from SHOW JOBS and returns the ids it cancelled
-- (DROP MATERIALIZED VIEW mv would cancel it too). The MV is gone.
CANCEL JOBS 7;
SHOW JOBS;

-- Decide the parallelism before CREATE: 2 actors while backfilling, 4 afterwards.
-- streaming_parallelism_for_backfill takes only a fixed number (or default).
SET streaming_parallelism_for_backfill = 2;
SET streaming_parallelism = 4;
SHOW streaming_parallelism_for_backfill;
SET backfill_rate_limit = 500;
CREATE MATERIALIZED VIEW mv AS SELECT * FROM t;

-- While creating, the job runs 2 actors; the catalog shows the backfill value.
SHOW JOBS;
SELECT name, status, parallelism FROM rw_streaming_jobs;
SELECT r.name, f.flags, f.parallelism FROM rw_fragments f JOIN rw_relations r ON f.table_id = r.id ORDER BY r.name, f.fragment_id;

-- When the backfill finishes, the meta node restores the normal parallelism: 4 actors, no ALTER needed.
WAIT;
SELECT name, status, parallelism FROM rw_streaming_jobs;
SELECT r.name, f.flags, f.parallelism FROM rw_fragments f JOIN rw_relations r ON f.table_id = r.id ORDER BY r.name, f.fragment_id;
