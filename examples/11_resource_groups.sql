-- 11: resource groups: which compute nodes a job may use, and moving a job between groups.
-- rwalter: --cluster 2@default,2@test,2@test --echo --on-error continue
--
-- Run: rwalter --cluster 2@default,2@test,2@test --echo --on-error continue -f examples/11_resource_groups.sql
--      (exit code 1: one error on purpose)
--
-- Node 1 (2 slots) is in group `default`, nodes 2 and 3 (2 slots each) in group `test`. A job runs
-- only on the nodes of its resource group: its own (WITH resource_group / ALTER ... SET RESOURCE_GROUP)
-- or else its database's (`default`). Adaptive jobs size themselves from that group's slots.
-- (RisingWave's e2e_test/ddl/alter_resource_group.slt; the license gate is not modelled.)

\cluster
CREATE TABLE t (v int);
CREATE MATERIALIZED VIEW m1 AS SELECT * FROM t;
CREATE MATERIALIZED VIEW m2 WITH (resource_group = 'test') AS SELECT * FROM t;

-- rw_streaming_jobs.resource_group: the job's own group, or else its database's.
SELECT name, parallelism, resource_group FROM rw_streaming_jobs ORDER BY id;
-- Actors per node: m1 has 2 (all of `default`), m2 has 4 on nodes 2 and 3 (all of `test`).
SELECT r.name, a.worker_id, count(*) AS actors FROM rw_actors a JOIN rw_fragments f ON a.fragment_id = f.fragment_id JOIN rw_relations r ON f.table_id = r.id GROUP BY r.name, a.worker_id ORDER BY r.name, a.worker_id;

-- Move m1 to `test` online: the plan moves every actor off node 1, and 2 actors become 4.
ALTER MATERIALIZED VIEW m1 SET RESOURCE_GROUP TO test;
SELECT name, parallelism, resource_group FROM rw_streaming_jobs ORDER BY id;

-- Move it back, DEFERRED: the catalog says `default` at once, the actors stay on `test`...
ALTER MATERIALIZED VIEW m1 RESET RESOURCE_GROUP DEFERRED;
SELECT name, parallelism, resource_group FROM rw_streaming_jobs ORDER BY id;
SELECT r.name, a.worker_id, count(*) AS actors FROM rw_actors a JOIN rw_fragments f ON a.fragment_id = f.fragment_id JOIN rw_relations r ON f.table_id = r.id WHERE r.name = 'm1' GROUP BY r.name, a.worker_id ORDER BY a.worker_id;
-- ...until a re-render, here RECOVER.
RECOVER;
SELECT r.name, a.worker_id, count(*) AS actors FROM rw_actors a JOIN rw_fragments f ON a.fragment_id = f.fragment_id JOIN rw_relations r ON f.table_id = r.id WHERE r.name = 'm1' GROUP BY r.name, a.worker_id ORDER BY a.worker_id;

-- A node joining `test` grows only the jobs of `test` (m2: 4 -> 6 actors); m1 and t stay.
\worker add 2 test
SELECT r.name, a.worker_id, count(*) AS actors FROM rw_actors a JOIN rw_fragments f ON a.fragment_id = f.fragment_id JOIN rw_relations r ON f.table_id = r.id GROUP BY r.name, a.worker_id ORDER BY r.name, a.worker_id;

-- Tables (and sources) have no RESOURCE_GROUP clause: RisingWave's parser refuses it.
ALTER TABLE t SET RESOURCE_GROUP TO test;

-- A database can have a group too; its jobs without their own group follow it.
CREATE DATABASE db2 RESOURCE_GROUP = test;
SELECT name, resource_group FROM rw_databases ORDER BY name;
