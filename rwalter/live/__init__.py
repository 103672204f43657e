"""A real cluster's state, read-only: export it, keep it as a snapshot, load it into the simulator.

An operator's question is about *their* cluster. RisingWave publishes almost all of what the meta
node knows as SQL relations in ``rw_catalog`` (``src/frontend/src/catalog/system_catalog/rw_catalog/``):
workers, jobs, fragments, actors, the live vnode bitmaps (``rw_fragment_vnodes``, since v2.7.0),
backfill progress and rate limits. This package reads them (``relations``: what is read, one
table), writes them as files (``snapshot``: one CSV per relation in psql's CSV format, plus a
manifest), and builds the simulator's meta store from them (``loader``), so every statement then
answers against that state. Nothing is ever written to the cluster: every statement sent is a
SELECT or a SHOW (``export``).
"""
