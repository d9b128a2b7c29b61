-- int_primary_events: the rows of primary stores that belong in the timeline.
-- Inputs: raw_events. Grain: one row per primary reader row kept.
-- Rules:
--   * sessions-db rows are kept only for sessions with no SDK manifest on the same host (the manifest is
--     the better record; sessions.db stands in for a manifest that is gone).
--   * task_metadata model_usage facts are not timeline rows; sql/12 derives `model:` and
--     `permission mode:` rows from them.
--   * sync-queue rows take project_path from the task's taskHistory entry (cwdOnTaskInitialization).
create or replace view int_primary_events as
with primary_rows as (
    select * from raw_events where source_role = 'primary' and kind <> 'model_usage'
),

manifest_sessions as (
    select distinct host, session_id from raw_events where store = 'sdk-sessions' and kind = 'session_start'
),

task_paths as (
    select host, session_id, any_value(project_path) as project_path
    from raw_events
    where kind = 'task_history' and project_path is not null
    group by all
),

final as (
    select p.* replace (coalesce(p.project_path, t.project_path) as project_path)
    from primary_rows as p
    left join task_paths as t
        on p.store = 'sync-queue' and t.host = p.host and t.session_id = p.session_id
    where not (
        p.store = 'sessions-db'
        and exists (select 1 from manifest_sessions as m where m.host = p.host and m.session_id = p.session_id)
    )
)

select * from final;
