-- int_secondary_events: rows of the secondary stores (search-index, input-history, hooks-log, hub-events),
-- which repeat what a transcript may still hold; sql/20 to sql/23 decide which of them a primary row already
-- records. hub-events rows pass as the reader wrote them: they carry the session record's cwd, as the
-- manifest does.
-- Inputs: raw_events. Grain: one row per secondary reader row.
-- search-index rows take the manifest's cwd (else workspace_root) as project_path when the manifest is
-- on the host, as the transcript reader does; otherwise they keep the index's workspace_root.
create or replace view int_secondary_events as
with manifests as (
    select host, session_id, any_value(project_path) as project_path
    from raw_events
    where store = 'sdk-sessions' and kind = 'session_start' and project_path is not null
    group by all
),

search_index_with_paths as (
    select s.* replace (coalesce(m.project_path, s.project_path) as project_path)
    from raw_events as s
    left join manifests as m on m.host = s.host and m.session_id = s.session_id
    where s.store = 'search-index'
),

final as (
    select * from raw_events where source_role = 'secondary' and store <> 'search-index'
    union all by name
    select * from search_index_with_paths
)

select * from final;

comment on view int_secondary_events is 'The rows of the secondary stores (search-index, input-history, hooks-log, hub-events), which may repeat a transcript; search-index rows with the manifest''s project path. Grain: one row per secondary reader row; the columns of raw_events.';
{{int_secondary_events_column_comments}}
