-- 10: max parallelism and vnode counts.
-- rwalter: --echo --on-error continue
--
-- Run: rwalter --echo --on-error continue -f examples/10_max_parallelism.sql   (exit code 1: errors on purpose)
--
-- Every hash fragment splits its state into vnodes; a job created with streaming_max_parallelism = N
-- has N vnodes per fragment (default 256) and can never run more than N actors. A *fixed* value above
-- N is an error (at CREATE and at ALTER); adaptive values and ALTER FRAGMENT are capped silently.
-- (RisingWave's e2e_test/ddl/max_parallelism.slt; the cluster has 12 slots.)

SHOW streaming_max_parallelism;

-- A job with 4 vnodes per fragment, asked for 6 fixed actors: refused at CREATE.
SET streaming_max_parallelism = 4;
SET streaming_parallelism = 6;
CREATE TABLE t (v int);

-- Adaptive is never refused: it asks for all 12 slots and gets 4, the vnode count.
-- rw_fragments.max_parallelism is the fragment's vnode count.
SET streaming_parallelism = adaptive;
CREATE TABLE t (v int);
SELECT * FROM rw_streaming_parallelism;
SELECT fragment_id, flags, parallelism, max_parallelism FROM rw_fragments ORDER BY fragment_id;

-- ALTERs with a fixed value above 4 fail with the meta's error; 4 itself is fine.
ALTER TABLE t SET PARALLELISM = 8;
ALTER TABLE t SET BACKFILL_PARALLELISM = 8;
ALTER TABLE t SET PARALLELISM = 4;

-- ALTER FRAGMENT is not checked: it is accepted and capped at 4 actors (nothing changes).
ALTER FRAGMENT 1 SET PARALLELISM = 8;
SELECT fragment_id, flags, parallelism, max_parallelism, parallelism_policy FROM rw_fragments ORDER BY fragment_id;

-- The session variable itself accepts 2..32768.
SET streaming_max_parallelism = 1;
SET streaming_max_parallelism = 40000;

-- The vnode count is fixed at CREATE: a job made with the default 256 keeps 256 vnodes, and a
-- singleton fragment (the final count(*)) has 1 vnode, hence always 1 actor.
SET streaming_max_parallelism = DEFAULT;
SET streaming_parallelism = DEFAULT;
CREATE TABLE t2 (v int);
CREATE MATERIALIZED VIEW total AS SELECT count(*) AS n FROM t2;
SELECT r.name, f.flags, f.distribution_type, f.parallelism, f.max_parallelism FROM rw_fragments f JOIN rw_relations r ON f.table_id = r.id ORDER BY f.fragment_id;
SELECT name, parallelism, max_parallelism FROM rw_streaming_parallelism ORDER BY id;
