"""rwalter's stream optimizer, as ``src/frontend/src/optimizer/``: query -> physical stream plan.

:mod:`.gen_plan` has one entry point per streaming statement (``optimizer/mod.rs``'s
``gen_*_plan``); :mod:`.planner` binds and plans a query, one module per operator family.
"""
