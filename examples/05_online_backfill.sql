-- 05: a backfill that RisingWave reschedules online.
-- rwalter: --echo
--
-- Run: rwalter --echo -f examples/05_online_backfill.sql
--
-- Only snapshot backfill (the MV and sink default) refuses online rescheduling. Arrangement
-- backfill runs inside the barrier graph and can be rescheduled while it is creating
-- (StreamScanType::is_reschedulable in src/prost/src/lib.rs). You get it with
-- SET streaming_use_snapshot_backfill = false, and CREATE INDEX always uses it.

CREATE TABLE t (v int, w int);
INSERT INTO t SELECT g, g % 7 FROM generate_series(1, 10000) g;
SET background_ddl = true;
SET backfill_rate_limit = 10;
SET streaming_use_snapshot_backfill = false;
CREATE MATERIALIZED VIEW mv AS SELECT * FROM t;

-- NORMAL_BACKFILL, and no "Snapshot [...]" around the progress; the fragment flags have STREAM_SCAN
-- without SNAPSHOT_BACKFILL_STREAM_SCAN.
SELECT ddl_id, backfill_type, progress FROM rw_ddl_progress;
SELECT r.name, f.flags, f.parallelism FROM rw_fragments f JOIN rw_relations r ON f.table_id = r.id ORDER BY r.name, f.fragment_id;

-- The statement that fails in example 01 succeeds here, with a plan: 12 backfill actors become 2.
ALTER MATERIALIZED VIEW mv SET BACKFILL_PARALLELISM = 2;

-- SET PARALLELISM is accepted too, but while the job is creating the backfill override (2) stays
-- in force: no actor changes (no plan), and the catalog keeps showing 2 until the backfill ends.
ALTER MATERIALIZED VIEW mv SET PARALLELISM = 3;
SELECT name, status, parallelism FROM rw_streaming_jobs;

-- An index uses arrangement backfill whatever streaming_use_snapshot_backfill says.
SET streaming_use_snapshot_backfill = true;
CREATE INDEX idx ON t(w);
SELECT ddl_id, ddl_statement, backfill_type, progress FROM rw_ddl_progress ORDER BY ddl_id;
ALTER INDEX idx SET BACKFILL_PARALLELISM = 1;

-- Even the upstream table can be rescheduled while both jobs backfill from it.
ALTER TABLE t SET PARALLELISM = 2;

-- After the backfills: mv is restored to its normal parallelism 3; idx has no normal
-- parallelism set, so it goes back to its default bounded(64) = 12 actors.
WAIT;
SELECT name, status, parallelism FROM rw_streaming_jobs;
SELECT r.name, f.flags, f.parallelism FROM rw_fragments f JOIN rw_relations r ON f.table_id = r.id ORDER BY r.name, f.fragment_id;
