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
    user,
    client,
    coalesce(agents, []) as agents,
    source_file,
    size as size_bytes,
    to_timestamp(mtime_ms / 1000) as mtime_utc,
    sha256,
    rows as count_rows,
    errors as count_errors,
    first_error,
    archive,
    archive_member,
    store = 'credentials' or source_file like '%/cline_mcp_settings.json' as holds_credentials
from raw_files
order by host, store, source_file;

comment on table files is 'Every evidence file a load found, per (host, store), with its fingerprint and what it gave; a FIFO, a link out of the image or an unreadable folder inside a store root too, with its parser: row. Grain: one row per (host, store, source_file).';
comment on column files.host is 'Host image name.';
comment on column files.store is 'Cline store of the partition.';
comment on column files.home is 'The home as the machine names it (C:/Users/alice), as in events; source_file is the path in the image.';
comment on column files.user is 'The home''s user, as in events (null where the home''s layout does not say).';
comment on column files.client is 'Whose store: the editor, or cline for ~/.cline/data.';
comment on column files.agents is 'Agents of the Cline family its rows are of (cline, roo-code, kilo-code), sorted: one editor state database holds several; empty when no row names one (or the load that read it predates the column).';
comment on column files.source_file is 'Path of the evidence file relative to the image root, / separated.';
comment on column files.size_bytes is 'Size in bytes when fingerprinted, before it was read.';
comment on column files.mtime_utc is 'Modification time, UTC.';
comment on column files.sha256 is 'SHA-256 of the bytes read, hex.';
comment on column files.count_rows is 'Rows it gave, parser: rows included.';
comment on column files.count_errors is 'parser: rows it gave.';
comment on column files.first_error is 'Text of its first parser: row, null if none.';
comment on column files.archive is 'Archive (zip, tar, tar.gz) or encoded Velociraptor collection folder the file was read from, as given to the load; null for a folder image.';
comment on column files.archive_member is 'Path of the file inside that archive as stored there (raw, undecoded: Velociraptor escapes such as %2E kept); null for a folder image.';
comment on column files.holds_credentials is 'True for a file Cline keeps credentials in (the credentials store, every cline_mcp_settings.json): only key names are read from it, never a value. (Issue 5 calls this flag secret; there is no second column.)';
