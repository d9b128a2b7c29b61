-- int_primary_events: the rows of primary stores that belong in the timeline.
-- Inputs: raw_events. Grain: one row per primary reader row kept.
-- Rules:
--   * sessions-db rows are kept only for sessions with no SDK manifest on the same host (the manifest is
--     the better record; sessions.db stands in for a manifest that is gone).
--   * task_metadata model_usage facts are not timeline rows; sql/12 derives `model:` and
--     `permission mode:` rows from them.
--   * sync-queue rows take project_path from the task's taskHistory entry (cwdOnTaskInitialization) in
--     the same home.
-- The transcript stores pass through without a join, so no join ever holds their texts.
create or replace view int_primary_events as
with manifest_sessions as (
    select distinct host, session_id from raw_events where store = 'sdk-sessions' and kind = 'session_start'
),

task_paths as (
    select host, home, session_id, any_value(project_path) as project_path
    from raw_events
    where kind = 'task_history' and project_path is not null
    group by all
),

passed_through as (
    select *
    from raw_events
    where source_role = 'primary' and kind <> 'model_usage' and store not in ('sessions-db', 'sync-queue')
),

sessions_db_without_manifest as (
    select p.*
    from raw_events as p
    anti join manifest_sessions as m on m.host = p.host and m.session_id = p.session_id
    where p.store = 'sessions-db'
),

sync_queue_with_paths as (
    select p.* replace (coalesce(p.project_path, t.project_path) as project_path)
    from raw_events as p
    left join task_paths as t on t.host = p.host and t.home = p.home and t.session_id = p.session_id
    where p.store = 'sync-queue'
),

final as (
    select * from passed_through
    union all by name
    select * from sessions_db_without_manifest
    union all by name
    select * from sync_queue_with_paths
)

select * from final;
