-- files: every evidence file a load found, per (host, store): size, modification time, SHA-256, how many
-- rows it gave and how many of them are `parser:` rows, and the first problem. Inputs: raw_files.
-- holds_credentials flags files Cline can write secrets into (MCP server env/headers/oauth); their
-- values are never loaded.
create or replace table files as
select
    host,
    store,
    home,
    client,
    source_file,
    size as size_bytes,
    to_timestamp(mtime_ms / 1000) as mtime_utc,
    sha256,
    rows as count_rows,
    errors as count_errors,
    first_error,
    source_file like '%/cline_mcp_settings.json' as holds_credentials
from raw_files
order by host, store, source_file;
