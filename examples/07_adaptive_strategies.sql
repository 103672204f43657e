-- 07: adaptive strategies as workers join and leave.
-- rwalter: --cluster 4,4 --echo
--
-- Run: rwalter --cluster 4,4 --echo -f examples/07_adaptive_strategies.sql
--
-- An adaptive job's actor count follows the slots of its resource group (RisingWave's
-- AdaptiveParallelismStrategy, src/common/src/system_param/adaptive_parallelism_strategy.rs):
--   adaptive     = all slots          bounded(n) = min(n, slots)
--   ratio(r)     = max(floor(slots x r), 1)        a fixed n never moves.
-- The cluster starts with 2 nodes x 4 slots = 8 slots.

CREATE TABLE t (v int);
SET streaming_parallelism_for_materialized_view = adaptive;
CREATE MATERIALIZED VIEW m_adaptive AS SELECT * FROM t;
SET streaming_parallelism_for_materialized_view = 'bounded(6)';
CREATE MATERIALIZED VIEW m_bounded AS SELECT * FROM t;
SET streaming_parallelism_for_materialized_view = 'ratio(0.5)';
CREATE MATERIALIZED VIEW m_ratio AS SELECT * FROM t;
SET streaming_parallelism_for_materialized_view = 3;
CREATE MATERIALIZED VIEW m_fixed AS SELECT * FROM t;

-- 8 slots: adaptive 8, bounded(6) 6, ratio(0.5) 4, fixed 3. The table's default bounded(4) gives 4.
SELECT j.name, j.parallelism, f.parallelism AS actors FROM rw_streaming_jobs j JOIN rw_fragments f ON f.table_id = j.id WHERE f.flags @> ARRAY['MVIEW'] ORDER BY j.id;

-- A node with 8 slots joins: 16 slots. Automatic parallelism control reschedules the adaptive jobs:
-- adaptive 16, bounded(6) stays 6, ratio(0.5) 8, fixed 3.
\worker add 8
SELECT j.name, j.parallelism, f.parallelism AS actors FROM rw_streaming_jobs j JOIN rw_fragments f ON f.table_id = j.id WHERE f.flags @> ARRAY['MVIEW'] ORDER BY j.id;

-- Node 1 fails: the cluster recovers on 12 slots (scale-in happens through recovery).
-- adaptive 12, bounded(6) 6, ratio(0.5) 6, fixed 3 (its 3 actors move to the surviving nodes).
\worker kill 1
\cluster
SELECT j.name, j.parallelism, f.parallelism AS actors FROM rw_streaming_jobs j JOIN rw_fragments f ON f.table_id = j.id WHERE f.flags @> ARRAY['MVIEW'] ORDER BY j.id;

-- Node 2 shrinks to 1 slot: 9 slots. adaptive 9, bounded(6) 6, ratio(0.5) floor(4.5) = 4.
\worker set 2 1
SELECT j.name, j.parallelism, f.parallelism AS actors FROM rw_streaming_jobs j JOIN rw_fragments f ON f.table_id = j.id WHERE f.flags @> ARRAY['MVIEW'] ORDER BY j.id;

-- Switching strategy is an ALTER like any other: ratio(0.3) of 9 slots = floor(2.7) = 2 actors.
ALTER MATERIALIZED VIEW m_fixed SET PARALLELISM = 'ratio(0.3)';
SELECT j.name, j.parallelism, f.parallelism AS actors FROM rw_streaming_jobs j JOIN rw_fragments f ON f.table_id = j.id WHERE f.flags @> ARRAY['MVIEW'] ORDER BY j.id;
