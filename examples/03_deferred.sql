-- 03: DEFERRED, and when it takes effect.
-- rwalter: --echo
--
-- Run: rwalter --echo -f examples/03_deferred.sql
--
-- `ALTER ... DEFERRED` only writes the new target into the catalog (RisingWave accepts it even
-- for a creating snapshot backfill) and prints a NOTICE. The actors change only when the meta
-- node re-renders the job: (a) RECOVER or a node failure, (b) the post-backfill restore when the
-- backfill finishes, (c) automatic parallelism control after a worker joins.
-- Compare rw_streaming_jobs.parallelism (the stored target) with rw_fragments.parallelism
-- (the actors that run now).

CREATE TABLE t (v int);
INSERT INTO t SELECT * FROM generate_series(1, 10000);
SET background_ddl = true;
SET backfill_rate_limit = 1;
CREATE MATERIALIZED VIEW mv AS SELECT * FROM t;

-- (a) RECOVER. The online form fails (example 01); DEFERRED is accepted, with RisingWave's NOTICE.
ALTER MATERIALIZED VIEW mv SET BACKFILL_PARALLELISM = 2 DEFERRED;

-- The catalog shows the backfill override 2 already, but the fragment still runs 12 actors.
SELECT name, status, parallelism FROM rw_streaming_jobs;
SELECT table_id, flags, parallelism FROM rw_fragments WHERE table_id = 7;

-- Recovery re-renders every job from the catalog: now the backfill runs on 2 actors.
RECOVER;
SELECT table_id, flags, parallelism FROM rw_fragments WHERE table_id = 7;

-- (b) The post-backfill restore. Set the normal parallelism for after the backfill, DEFERRED.
-- While the job is creating its backfill override (2) wins, in the catalog views too.
ALTER MATERIALIZED VIEW mv SET PARALLELISM = 3 DEFERRED;
SELECT name, status, parallelism FROM rw_streaming_jobs;

-- When the backfill finishes, the meta node reschedules the job to its normal target (3 actors).
-- (Lifting the rate limit first, for this job and for the session, just makes the backfill quick.)
SET backfill_rate_limit = DEFAULT;
ALTER MATERIALIZED VIEW mv SET BACKFILL_RATE_LIMIT = DEFAULT;
WAIT;
SELECT name, status, parallelism FROM rw_streaming_jobs;
SELECT table_id, flags, parallelism FROM rw_fragments WHERE table_id = 7;

-- (c) Automatic parallelism control. A DEFERRED change of a created job stays in the catalog...
ALTER MATERIALIZED VIEW mv SET PARALLELISM = 5 DEFERRED;
SELECT table_id, parallelism FROM rw_fragments WHERE table_id = 7;

-- ...until a streaming worker joins (or changes its slots): the meta node then re-renders every job.
-- (The new node gets the next free worker id; 4 and 5 are the frontend and the meta node.)
\worker add 4
SELECT table_id, parallelism FROM rw_fragments WHERE table_id = 7;

-- With automatic parallelism control disabled (meta config disable_automatic_parallelism_control,
-- what the NOTICE warns about), a joining worker changes nothing: only RECOVER applies the change.
\meta set disable_automatic_parallelism_control true
ALTER MATERIALIZED VIEW mv SET PARALLELISM = 1 DEFERRED;
\worker add 4
\sleep 60s
SELECT table_id, parallelism FROM rw_fragments WHERE table_id = 7;
RECOVER;
SELECT table_id, parallelism FROM rw_fragments WHERE table_id = 7;
