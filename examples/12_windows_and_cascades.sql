-- 12: a windowed cascade, and how far the refusal reaches.
-- rwalter: --echo --on-error continue
--
-- Run: rwalter --echo --on-error continue -f examples/12_windows_and_cascades.sql
--
-- Real streaming jobs aggregate over time windows and read each other. Here a per-minute TUMBLE
-- aggregate feeds a sliding HOP aggregate created in the background. While `trending` backfills,
-- RisingWave refuses three ALTERs for three different reasons (src/meta/src/stream/stream_manager.rs
-- and src/meta/src/barrier/checkpoint/control.rs):
--   * trending itself: its snapshot backfill cannot be rescheduled online;
--   * per_minute, which trending reads: blocked by the creating job, refused before anything is
--     written;
--   * bids, two hops upstream: not blocked itself, but rescheduling it touches per_minute's
--     fragments, so the barrier refuses it after the new parallelism was already persisted.

CREATE TABLE bids (auction INT, price INT, ts TIMESTAMP);
INSERT INTO bids SELECT g % 50, g % 997, TIMESTAMP '2026-01-01 00:00:00' + g * INTERVAL '1 second' FROM generate_series(1, 10000) AS s(g);
CREATE MATERIALIZED VIEW per_minute AS SELECT auction, window_start AS minute, count(*) AS n, max(price) AS top FROM tumble(bids, ts, INTERVAL '1' MINUTE) GROUP BY auction, window_start;

SET background_ddl = true;
SET backfill_rate_limit = 1;
CREATE MATERIALIZED VIEW trending AS SELECT auction, window_end, sum(n) AS bids FROM hop(per_minute, minute, INTERVAL '1' MINUTE, INTERVAL '5' MINUTE) GROUP BY auction, window_end;

-- (per_minute renames its window_start: a window function's input may not have window_* columns.)
-- TUMBLE and HOP run inside the scan's fragment; each aggregation adds one behind a HASH exchange.
SELECT r.name, f.fragment_id, f.flags, f.parallelism FROM rw_fragments f JOIN rw_relations r ON r.id = f.table_id ORDER BY f.fragment_id;

ALTER MATERIALIZED VIEW trending SET BACKFILL_PARALLELISM = 2;
ALTER MATERIALIZED VIEW per_minute SET PARALLELISM = 2;
ALTER TABLE bids SET PARALLELISM = 2;

-- bids's new target is in the catalog (2) while its actors still number 4.
SELECT j.name, j.parallelism, f.parallelism AS actors FROM rw_streaming_jobs j JOIN rw_fragments f ON f.table_id = j.id WHERE j.name = 'bids' AND 'MVIEW' = ANY(f.flags);

-- Once trending is created nothing is blocked. bids keeps its 4 actors until something re-renders
-- it (RECOVER here); per_minute's ALTER now reschedules online.
WAIT;
RECOVER;
SELECT j.name, j.parallelism, f.parallelism AS actors FROM rw_streaming_jobs j JOIN rw_fragments f ON f.table_id = j.id WHERE j.name = 'bids' AND 'MVIEW' = ANY(f.flags);
ALTER MATERIALIZED VIEW per_minute SET PARALLELISM = 2;
SELECT auction, window_end, bids FROM trending WHERE auction = 7 ORDER BY window_end LIMIT 3;
