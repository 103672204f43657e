"""The frontend's only door to the meta node (design.md, rule 1).

``meta_client`` holds :class:`MetaClient`, one method per meta RPC (RisingWave's
``FrontendMetaClient`` and ``CatalogWriter``); ``catalog_reader`` the catalog reads
(``CatalogReader``); ``batch_client`` the users' batch SQL and DML. The frontend imports them,
and the catalog's records it reads and builds (the protos' ``Table``, ``Fragment``...), from here.
"""

from rwalter.meta.catalog import Fragment, Job, Relation, Worker
from rwalter.meta.catalog_views import SHOW_JOBS_COLUMNS, show_jobs_of, show_jobs_sql
from rwalter.meta.client.batch_client import BatchClient
from rwalter.meta.client.catalog_reader import CatalogReader
from rwalter.meta.client.meta_client import MetaClient, rpc
from rwalter.meta.ddl_controller import storage_name
from rwalter.meta.node import JobSpec

__all__ = [
    "SHOW_JOBS_COLUMNS",
    "BatchClient",
    "CatalogReader",
    "Fragment",
    "Job",
    "JobSpec",
    "MetaClient",
    "Relation",
    "Worker",
    "rpc",
    "show_jobs_of",
    "show_jobs_sql",
    "storage_name",
]
