-- files: every evidence file a load found, per (host, store): size, modification time, SHA-256, how many
-- rows it gave and how many of them are `parser:` rows, and the first problem. Inputs: raw_files.
-- holds_credentials flags files Cline keeps credentials in: the `credentials` store (secrets.json,
-- settings/providers.json, connectors/settings.json, cache/remote_config_*.json, Documents/Cline/
-- webhook_config.json), whose reader lists key names only, and every cline_mcp_settings.json (MCP server
-- env/headers/oauth), whose values are never read.
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
    store = 'credentials' or source_file like '%/cline_mcp_settings.json' as holds_credentials
from raw_files
order by host, store, source_file;
