-- int_primary_events: the rows of primary stores that belong in the timeline.
-- Inputs: raw_events, int_task_history_pairs (sql/09), int_legacy_failed_rows (sql/10), int_legacy_result_pairs
-- (sql/11). Grain: one row per primary reader row kept.
-- Rules:
--   * sessions-db rows are kept only for sessions with no SDK manifest on the same host (the manifest is
--     the better record; sessions.db stands in for a manifest that is gone).
--   * task_metadata model_usage facts are not timeline rows; sql/14 derives `model:` and
--     `permission mode:` rows from them.
--   * sync-queue rows take project_path from the task's taskHistory entry (cwdOnTaskInitialization) in
--     the same home.
--   * One place for totals: a `task_history` row repeats the task's totals (tokensIn, tokensOut,
--     totalCost) beside the per-request `say:api_req_started` rows they sum (and the 1.x CLI writes them
--     before the last request). Its figures are kept only for a task with no per-request figures on the
--     host (its ui_messages.json gone), so sum(tokens_in) per session counts each request once. Roo Code's and
--     Kilo Code's tasks likewise, each agent's task by its own requests.
--   * A `task_history` row without a provider takes the one its task's model_usage entry gives its model.
--   * Legacy failures: Cline reports a failed tool to the model in the next `say:api_req_started` request
--     (`[<tool> for '...'] Result:` then `Command failed with exit code N.` or `The tool execution failed
--     with the following error:`). The tool_result rows of the tool_use before it in the same file take
--     is_error; a tool with no result row takes it on its tool_use row. The 1.x CLI writes `Command
--     executed.` whatever the exit code, so its failed commands cannot be told.
-- The transcript stores otherwise pass through without a join on their texts.
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

legacy_tasks_with_request_figures as (
    select distinct host, agent, session_id
    from raw_events
    where store in ('vscode-tasks', 'cline-tasks', 'roo-tasks', 'kilo-tasks')
      and kind = 'say:api_req_started'
      and (tokens_in is not null or tokens_out is not null or cost_usd is not null)
),

-- taskHistory items name the model (modelId) but not always the provider (apiProvider): the task's
-- task_metadata model_usage entry for that model does
legacy_task_providers as (
    select host, session_id, model, min(provider) as provider
    from raw_events
    where kind = 'model_usage' and store in ('vscode-tasks', 'cline-tasks') and provider is not null
    group by all
),

passed_through as (
    select p.* replace (
        case when p.kind = 'task_history' then coalesce(p.provider, tp.provider) else p.provider end as provider,
        case when f.row_id is not null then true else p.is_error end as is_error,
        case when p.kind = 'task_history' and l.session_id is not null then null else p.tokens_in end as tokens_in,
        case when p.kind = 'task_history' and l.session_id is not null then null else p.tokens_out end as tokens_out,
        case when p.kind = 'task_history' and l.session_id is not null then null else p.cost_usd end as cost_usd
    )
    from raw_events as p
    -- equalities only: a row-side test (p.kind = 'task_history') in the ON clause turned these joins into
    -- nested loops over every transcript row. Each right side has one row per key, and the CASEs above
    -- apply its columns to task_history rows only (coalesce keeps a provider the row has).
    left join int_legacy_failed_rows as f on f.row_id = p.row_id
    left join legacy_tasks_with_request_figures as l on l.host = p.host and l.agent is not distinct from p.agent and l.session_id = p.session_id
    left join legacy_task_providers as tp on tp.host = p.host and tp.session_id = p.session_id and tp.model = p.model
    -- a request's copy of a result its task records as a message (int_legacy_result_pairs)
    anti join int_legacy_result_pairs as d on d.dropped_row_id = p.row_id
    -- another copy of a task history item this task keeps elsewhere (int_task_history_pairs, sql/09)
    anti join int_task_history_pairs as h on h.dropped_row_id = p.row_id
    where p.source_role = 'primary' and p.kind <> 'model_usage' and p.store not in ('sessions-db', 'sync-queue')
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

comment on view int_primary_events is 'The rows of the primary stores that belong in the timeline: sessions.db only without a manifest, sync-queue rows with their task''s project path, totals and legacy failures set, a request''s copy of a result its task records dropped. Grain: one row per primary reader row kept; the columns of raw_events.';
{{int_primary_events_column_comments}}
