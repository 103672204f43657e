-- 09: ALTER FRAGMENT overrides one fragment's parallelism.
-- rwalter: --echo --on-error continue
--
-- Run: rwalter --echo --on-error continue -f examples/09_alter_fragment.sql   (exit code 1: two errors on purpose)
--
-- A fragment override wins over the job's parallelism, also after later job ALTERs and after
-- RECOVER, until `SET PARALLELISM = DEFAULT` clears it (RisingWave's simulation test
-- scale/alter_fragment.rs). rw_fragments.parallelism_policy says which rule a fragment follows:
-- override(n), or inherit(<job parallelism>).

CREATE TABLE t (v int, w int);
-- An aggregation: a STREAM_SCAN fragment, then a hash exchange on w into the MVIEW fragment.
CREATE MATERIALIZED VIEW mv AS SELECT w, count(*) AS c FROM t GROUP BY w;
SELECT fragment_id, flags, parallelism, parallelism_policy FROM rw_fragments WHERE table_id = 7 ORDER BY fragment_id;

-- Pin the MVIEW fragment (id 3) to 2 actors. Only that fragment is in the plan.
ALTER FRAGMENT 3 SET PARALLELISM = 2;
SELECT fragment_id, flags, parallelism, parallelism_policy FROM rw_fragments WHERE table_id = 7 ORDER BY fragment_id;

-- A job-level ALTER moves the scan fragment to 6 but leaves fragment 3 at 2 (its actors are rebuilt
-- with new ids because its upstream changed, their count does not).
ALTER MATERIALIZED VIEW mv SET PARALLELISM = 6;
SELECT fragment_id, flags, parallelism, parallelism_policy FROM rw_fragments WHERE table_id = 7 ORDER BY fragment_id;

-- Recovery re-renders everything from the catalog: the override is kept.
RECOVER;
SELECT fragment_id, flags, parallelism, parallelism_policy FROM rw_fragments WHERE table_id = 7 ORDER BY fragment_id;

-- DEFAULT clears the override: fragment 3 follows the job again (6).
ALTER FRAGMENT 3 SET PARALLELISM = DEFAULT;
SELECT fragment_id, flags, parallelism, parallelism_policy FROM rw_fragments WHERE table_id = 7 ORDER BY fragment_id;

-- Several fragments at once are allowed.
ALTER FRAGMENT 3, 4 SET PARALLELISM = 1;
SELECT fragment_id, flags, parallelism, parallelism_policy FROM rw_fragments WHERE table_id = 7 ORDER BY fragment_id;

-- What ALTER FRAGMENT does not take: DEFERRED (a parse error) and strategies (only a number or adaptive).
ALTER FRAGMENT 3 SET PARALLELISM = 2 DEFERRED;
ALTER FRAGMENT 3 SET PARALLELISM = 'bounded(4)';
