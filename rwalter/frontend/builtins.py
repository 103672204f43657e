"""The names RisingWave's binder knows: its system relations per schema and its functions.

A user's SQL reaches DuckDB only through names checked against these tables, so what DuckDB has
and RisingWave has not (``duckdb_*()``, ``read_csv``, ``rwmeta``, ``main``) is not found, with
RisingWave's text, and what RisingWave has but rwalter does not model says so.

* Relations: :mod:`rwalter.common.system_catalogs` (the meta store's ``pg_class`` lists them
  too).
* Scalar functions: the ``HANDLES`` table of ``src/frontend/src/binder/expr/function/
  builtin_scalar.rs:137-811`` (its keys also give the "do you mean" candidates, :816-824).
* Aggregates, table and window functions: ``AggCall.Kind``, ``TableFunction.Type`` and
  ``WindowFunction.GeneralType`` of ``proto/expr.proto`` (with the binder's aliases ``stddev``,
  ``variance``, ``every``).
"""

from __future__ import annotations

from rwalter.common.system_catalogs import SYSTEM_RELATIONS

SCALAR_FUNCTIONS: frozenset[str] = frozenset(
    (
        "abs",
        "acos",
        "acosd",
        "acosh",
        "array_append",
        "array_cat",
        "array_contained",
        "array_contains",
        "array_dims",
        "array_distinct",
        "array_flatten",
        "array_is_intersect",
        "array_is_overlap",
        "array_join",
        "array_length",
        "array_lower",
        "array_max",
        "array_min",
        "array_ndims",
        "array_overlaps",
        "array_position",
        "array_positions",
        "array_prepend",
        "array_remove",
        "array_replace",
        "array_reverse",
        "array_sort",
        "array_sum",
        "array_to_string",
        "array_upper",
        "arraycontained",
        "arraycontains",
        "ascii",
        "asin",
        "asind",
        "asinh",
        "atan",
        "atan2",
        "atan2d",
        "atand",
        "atanh",
        "bit_count",
        "bit_length",
        "booleq",
        "boolne",
        "btrim",
        "cardinality",
        "cbrt",
        "ceil",
        "ceiling",
        "char_length",
        "character_length",
        "chr",
        "clock_timestamp",
        "coalesce",
        "col_description",
        "concat",
        "concat_ws",
        "convert_from",
        "convert_to",
        "cos",
        "cosd",
        "cosh",
        "cosine_distance",
        "cot",
        "cotd",
        "coth",
        "crc32",
        "crc32c",
        "current_catalog",
        "current_database",
        "current_role",
        "current_schema",
        "current_schemas",
        "current_setting",
        "current_timestamp",
        "current_user",
        "date",
        "date_bin",
        "date_part",
        "date_trunc",
        "decode",
        "decrypt",
        "degrees",
        "encode",
        "encrypt",
        "exp",
        "floor",
        "format",
        "format_type",
        "gamma",
        "gen_random_uuid",
        "get_bit",
        "get_byte",
        "greatest",
        "has_any_column_privilege",
        "has_database_privilege",
        "has_function_privilege",
        "has_schema_privilege",
        "has_table_privilege",
        "hex_to_int256",
        "hmac",
        "inet_aton",
        "inet_ntoa",
        "initcap",
        "inner_product",
        "int8recv",
        "int8send",
        "jsonb_array_element",
        "jsonb_array_element_text",
        "jsonb_array_length",
        "jsonb_build_array",
        "jsonb_build_object",
        "jsonb_concat",
        "jsonb_contained",
        "jsonb_contains",
        "jsonb_delete",
        "jsonb_delete_path",
        "jsonb_exists",
        "jsonb_exists_all",
        "jsonb_exists_any",
        "jsonb_extract_path",
        "jsonb_extract_path_text",
        "jsonb_object",
        "jsonb_object_field",
        "jsonb_object_field_text",
        "jsonb_path_exists",
        "jsonb_path_match",
        "jsonb_path_query_array",
        "jsonb_path_query_first",
        "jsonb_populate_map",
        "jsonb_populate_record",
        "jsonb_pretty",
        "jsonb_set",
        "jsonb_strip_nulls",
        "jsonb_to_array",
        "jsonb_typeof",
        "l1_distance",
        "l2_distance",
        "l2_normalize",
        "least",
        "left",
        "length",
        "lgamma",
        "ln",
        "log",
        "log10",
        "lower",
        "lpad",
        "ltrim",
        "make_date",
        "make_time",
        "make_timestamp",
        "make_timestamptz",
        "map_access",
        "map_cat",
        "map_contains",
        "map_delete",
        "map_entries",
        "map_from_entries",
        "map_from_key_values",
        "map_insert",
        "map_keys",
        "map_length",
        "map_values",
        "md5",
        "min_scale",
        "mod",
        "now",
        "nullif",
        "obj_description",
        "octet_length",
        "openai_embedding",
        "overlay",
        "pg_backend_pid",
        "pg_cancel_backend",
        "pg_encoding_to_char",
        "pg_get_constraintdef",
        "pg_get_expr",
        "pg_get_indexdef",
        "pg_get_partkeydef",
        "pg_get_serial_sequence",
        "pg_get_userbyid",
        "pg_get_viewdef",
        "pg_index_column_has_property",
        "pg_indexes_size",
        "pg_is_in_recovery",
        "pg_my_temp_schema",
        "pg_postmaster_start_time",
        "pg_relation_size",
        "pg_sleep",
        "pg_sleep_for",
        "pg_stat_get_numscans",
        "pg_table_is_visible",
        "pg_table_size",
        "pg_tablespace_location",
        "pg_terminate_backend",
        "pg_type_is_visible",
        "pg_typeof",
        "pi",
        "pow",
        "power",
        "proctime",
        "quote_ident",
        "quote_literal",
        "quote_nullable",
        "radians",
        "random",
        "regexp_count",
        "regexp_match",
        "regexp_replace",
        "regexp_split_to_array",
        "repeat",
        "replace",
        "reverse",
        "right",
        "round",
        "rpad",
        "rtrim",
        "rw_actor_vnodes",
        "rw_cluster_id",
        "rw_epoch_to_ts",
        "rw_fragment_vnodes",
        "rw_license",
        "rw_recovery_status",
        "rw_test_feature",
        "rw_test_paid_tier",
        "rw_vnode",
        "scale",
        "secure_compare",
        "session_user",
        "set_bit",
        "set_byte",
        "set_config",
        "sha1",
        "sha224",
        "sha256",
        "sha384",
        "sha512",
        "shobj_description",
        "sign",
        "sin",
        "sind",
        "sinh",
        "split_part",
        "sqrt",
        "starts_with",
        "string_to_array",
        "strpos",
        "substr",
        "subvector",
        "tan",
        "tand",
        "tanh",
        "timezone",
        "to_ascii",
        "to_char",
        "to_date",
        "to_hex",
        "to_jsonb",
        "to_timestamp",
        "to_variant",
        "translate",
        "trim",
        "trim_array",
        "trim_scale",
        "trunc",
        "try_variant_get",
        "upper",
        "user",
        "variant_get",
        "variant_typeof",
        "vector_norm",
        "version",
    )
)

AGGREGATE_FUNCTIONS: frozenset[str] = frozenset(
    (
        "approx_count_distinct",
        "approx_percentile",
        "arg_max",
        "arg_min",
        "array_agg",
        "avg",
        "bit_and",
        "bit_or",
        "bit_xor",
        "bool_and",
        "bool_or",
        "count",
        "every",
        "first_value",
        "grouping",
        "jsonb_agg",
        "jsonb_object_agg",
        "last_value",
        "max",
        "min",
        "mode",
        "percentile_cont",
        "percentile_disc",
        "stddev",
        "stddev_pop",
        "stddev_samp",
        "string_agg",
        "sum",
        "sum0",
        "var_pop",
        "var_samp",
        "variance",
    )
)

TABLE_FUNCTIONS: frozenset[str] = frozenset(
    (
        "_pg_expandarray",
        "file_scan",
        "generate_series",
        "generate_subscripts",
        "internal_backfill_progress",
        "internal_get_channel_delta_stats",
        "internal_source_backfill_progress",
        "jsonb_array_elements",
        "jsonb_array_elements_text",
        "jsonb_each",
        "jsonb_each_text",
        "jsonb_object_keys",
        "jsonb_path_query",
        "jsonb_populate_recordset",
        "jsonb_to_recordset",
        "mysql_query",
        "pg_get_keywords",
        "postgres_query",
        "range",
        "regexp_matches",
        "unnest",
    )
)

WINDOW_FUNCTIONS: frozenset[str] = frozenset(
    (
        "dense_rank",
        "lag",
        "lead",
        "rank",
        "row_number",
    )
)

# Bound by the binder itself before the tables above (binder/expr/function/mod.rs,
# binder/relation/window_table_function.rs, binder/expr/mod.rs).
BINDER_FUNCTIONS: frozenset[str] = frozenset(
    ("coalesce", "greatest", "least", "nullif", "tumble", "hop", "row", "array", "exists")
)

# builtin_scalar.rs:137-811: a name bound to the expression type of another name is shown by that
# type's name when no signature takes its arguments (``FuncName``'s Display, the type's proto name
# in lower case: src/expr/core/src/sig/mod.rs:379-383), e.g. ``function ceil() does not exist``
# for ``ceiling()``.
SHOWN_AS: dict[str, str] = {
    "array_is_intersect": "array_overlaps",  # :349
    "array_is_overlap": "array_overlaps",  # :348
    "array_join": "array_to_string",  # :328
    "array_upper": "array_length",  # :391
    "arraycontained": "array_contained",  # :346
    "arraycontains": "array_contains",  # :344
    "btrim": "trim",  # :238
    "ceiling": "ceil",  # :168
    "character_length": "char_length",  # :252
    "int8send": "pgwire_send",  # :312
    "jsonb_array_element": "jsonb_access",  # :397
    "jsonb_array_element_text": "jsonb_access_str",  # :399
    "jsonb_delete": "subtract",  # :412
    "jsonb_object_field": "jsonb_access",  # :396
    "jsonb_object_field_text": "jsonb_access_str",  # :398
    "log": "log10",  # :174
    "mod": "modulus",  # :176
    "power": "pow",  # :165
    "rw_license": "license",  # :777
    "rw_test_feature": "test_feature",  # :779
    "rw_test_paid_tier": "test_feature",  # :778
    "rw_vnode": "vnode_user",  # :776
    "strpos": "position",  # :267
    "to_date": "char_to_date",  # :229
    "vector_norm": "l2_norm",  # :448
}

# The handles that take one argument count (``guard_by_len``, builtin_scalar.rs:52-65); any
# other count is ``Expr error: unexpected arguments number <n>, expect <count>``.
FIXED_ARITY: dict[str, int] = {
    "array_flatten": 1,  # :350
    "array_lower": 2,  # :369
    "array_ndims": 1,  # :359
    "current_catalog": 0,  # :130, :506
    "current_database": 0,  # :130, :507
    "current_role": 0,  # :563
    "current_schema": 0,  # :508
    "current_setting": 1,  # :607
    "current_timestamp": 0,  # :784
    "current_user": 0,  # :564
    "date": 1,  # :796
    "int8recv": 1,  # :313
    "now": 0,  # :783
    "openai_embedding": 2,  # :801
    "pg_cancel_backend": 1,  # :745
    "pg_indexes_size": 1,  # :585
    "pg_my_temp_schema": 0,  # :600
    "pg_postmaster_start_time": 0,  # :757
    "pg_table_size": 1,  # :581
    "pg_tablespace_location": 1,  # :754
    "pg_terminate_backend": 1,  # :749
    "pg_typeof": 1,  # :496
    "quote_literal": 1,  # :271
    "quote_nullable": 1,  # :279
    "session_user": 0,  # :562
    "set_config": 3,  # :621
    "subvector": 3,  # :450
    "timezone": 2,  # :225
    "user": 0,  # :565
}

# The handles that pick a function by the argument count (``dispatch_by_len``,
# builtin_scalar.rs:73-82); any other count is ``Expr error: unexpected arguments number``.
ARITY_DISPATCH: dict[str, tuple[int, ...]] = {
    "round": (1, 2),  # :157
    "to_timestamp": (1, 2),  # :211
}

FUNCTIONS: frozenset[str] = (
    SCALAR_FUNCTIONS | AGGREGATE_FUNCTIONS | TABLE_FUNCTIONS | WINDOW_FUNCTIONS | BINDER_FUNCTIONS
)

__all__ = [
    "AGGREGATE_FUNCTIONS",
    "ARITY_DISPATCH",
    "FIXED_ARITY",
    "FUNCTIONS",
    "SCALAR_FUNCTIONS",
    "SHOWN_AS",
    "SYSTEM_RELATIONS",
    "TABLE_FUNCTIONS",
    "WINDOW_FUNCTIONS",
]
