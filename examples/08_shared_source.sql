-- 08: a shared Kafka source and its no-shuffle ensemble: ALTER MATERIALIZED VIEW vs ALTER SOURCE.
-- rwalter: --cluster 4 --echo --on-error continue
--
-- Run: rwalter --cluster 4 --echo --on-error continue -f examples/08_shared_source.sql   (exit code 1: one error on purpose)
--
-- The story of RisingWave's e2e_test/source_inline/kafka/alter/alter_parallelism.slt (one node, 4 slots).
-- An MV on a shared source reads it through a SOURCE_SCAN fragment glued to the source's SOURCE
-- fragment by a no-shuffle edge. Glued fragments always have the same actors, and the source is the
-- entry of that ensemble: altering the MV does not move it, altering the source moves both.
-- (No broker is contacted: rwalter accepts the Kafka source without one.)

CREATE SOURCE s_kafka (x int) WITH (connector = 'kafka', topic = 'orders', properties.bootstrap.server = 'broker:9092') FORMAT PLAIN ENCODE JSON;

-- RisingWave switches this MV to source backfill and says so in a NOTICE.
CREATE MATERIALIZED VIEW mv_kafka AS SELECT * FROM s_kafka;
SELECT r.name, f.flags, f.parallelism FROM rw_fragments f JOIN rw_relations r ON f.table_id = r.id ORDER BY r.name;

-- Accepted, but nothing moves (no plan): the MV's fragment follows the source's.
ALTER MATERIALIZED VIEW mv_kafka SET PARALLELISM TO 2;
SELECT r.name, f.flags, f.parallelism FROM rw_fragments f JOIN rw_relations r ON f.table_id = r.id ORDER BY r.name;

-- ALTER SOURCE reschedules the whole ensemble: the plan names two jobs.
ALTER SOURCE s_kafka SET PARALLELISM = 2;
SELECT r.name, f.flags, f.parallelism FROM rw_fragments f JOIN rw_relations r ON f.table_id = r.id ORDER BY r.name;

-- A second MV joins the ensemble at the source's parallelism, and the next ALTER SOURCE moves all three.
CREATE MATERIALIZED VIEW mv_kafka_2 AS SELECT * FROM s_kafka;
ALTER SOURCE s_kafka SET PARALLELISM = 5;
SELECT r.name, f.flags, f.parallelism, f.parallelism_policy FROM rw_fragments f JOIN rw_relations r ON f.table_id = r.id ORDER BY r.name;

-- The MVs' own targets are only stored: rw_streaming_parallelism shows 2 and bounded(64).
SELECT * FROM rw_streaming_parallelism ORDER BY id;

-- A non-shared source has no streaming job of its own: ALTER SOURCE is refused (RisingWave's text).
SET streaming_use_shared_source = false;
CREATE SOURCE s_kafka_non_shared (x int) WITH (connector = 'kafka', topic = 'orders', properties.bootstrap.server = 'broker:9092') FORMAT PLAIN ENCODE JSON;
ALTER SOURCE s_kafka_non_shared SET PARALLELISM = 5;
