-- int_derived_events: system rows derived across records (store specification, "Model rows" and
-- "Permission rows"). Inputs: raw_events; which files are transcripts comes from the store specification
-- (placeholder is_transcript_file, src/warehouse/stores-table.ts). Grain: one row per model or
-- permission-mode change.
--   * SDK transcripts: `model: <old> -> <new> provider=<p>` where a message row's model differs from the
--     row before it in the same transcript file; the lead transcript (<session>.messages.json) starts
--     from the manifest's `model:` row, a subagent transcript from its own first model. The derived row
--     sorts just before the row that changed the model (same time, same line, source_seq - 1).
--   * Legacy tasks, from task_metadata.json model_usage facts (kind model_usage, in entry order, with the
--     entry's mode in permission_mode): the first entry gives `model: <model_id> model_provider_id=<p> mode=<m>` and
--     `permission mode: <mode>`; a later entry with another model_id gives `model: <old> -> <new> ...`,
--     one with another mode gives `permission mode: <old> -> <new>`.
--   * SDK prompts (3.x CLI): each prompt of a lead transcript carries the mode it was typed in (the
--     `<user_input mode=...>` wrapper, readers/shapes/sdk-messages.ts, in permission_mode): the session's
--     first prompt gives `permission mode: <mode>`, a prompt in another mode than the one before it
--     `permission mode: <old> -> <new>`; the row sorts just before the prompt (source_seq - 1).
-- A derived row's row_id is the MD5 of ('derived', its kind, the text of the row_id of the row it derives
-- from), a UUID as raw_events' row_id (sql/01), so it is unique and stable as that one is; its other
-- columns are those of that row.
create or replace table int_derived_events as
with sdk_message_rows as (
    -- key columns only: the window below must not carry message texts
    select row_id, host, store, home, user, client, agent, source_file, source_line, source_seq, source_role, timestamp_utc,
           timestamp_source, session_id, project_path, git_branch, model, provider, file_row
    from raw_events
    where store = 'sdk-sessions'
      and {{is_transcript_file}}
      and kind <> 'parser'
),

manifest_models as (
    select host, session_id, any_value(model) as model
    from raw_events
    where store = 'sdk-sessions' and kind = 'model'
    group by all
),

sdk_with_previous as (
    select
        r.*,
        lag(r.model) over (partition by r.host, r.source_file order by r.source_line, r.source_seq) as previous_model,
        row_number() over (partition by r.host, r.source_file order by r.source_line, r.source_seq) as position_in_file,
        r.source_file like '%/' || r.session_id || '.messages.json' as is_lead_transcript
    from sdk_message_rows as r
),

sdk_changes as (
    select
        s.* exclude (previous_model, position_in_file, is_lead_transcript),
        case when s.position_in_file = 1 and s.is_lead_transcript then m.model else s.previous_model end as old_model
    from sdk_with_previous as s
    left join manifest_models as m on m.host = s.host and m.session_id = s.session_id
),

sdk_model_rows as (
    select
        * exclude (old_model)
        replace (
            md5('derived' || chr(0) || 'model' || chr(0) || row_id::VARCHAR)::UUID as row_id,
            source_seq - 1 as source_seq
        ),
        'system' as turn_type,
        'model' as kind,
        'model: ' || old_model || ' -> ' || model || ' provider=' || coalesce(provider, '-') as text
    from sdk_changes
    where old_model is not null and model is not null and model <> old_model
),

usage_facts as (
    select
        *,
        lag(model) over w as previous_model,
        -- an entry without a mode counts as mode '-': 'permission mode: - -> act' says a mode appeared
        lag(coalesce(permission_mode, '-')) over w as previous_mode,
        row_number() over w as entry_number
    from raw_events
    where kind = 'model_usage'
    window w as (partition by host, source_file order by source_line)
),

legacy_model_rows as (
    select
        * exclude (previous_model, previous_mode, entry_number)
        replace (
            md5('derived' || chr(0) || 'model' || chr(0) || row_id::VARCHAR)::UUID as row_id,
            'model' as kind,
            'model: ' || case when entry_number = 1 then coalesce(model, '-') else previous_model || ' -> ' || model end
                || ' model_provider_id=' || coalesce(provider, '-') || ' mode=' || coalesce(permission_mode, '-') as text
        )
    from usage_facts
    where entry_number = 1 or (model is distinct from previous_model and previous_model is not null and model is not null)
),

legacy_permission_rows as (
    select
        * exclude (previous_model, previous_mode, entry_number)
        replace (
            md5('derived' || chr(0) || 'permission' || chr(0) || row_id::VARCHAR)::UUID as row_id,
            'permission' as kind,
            'permission mode: ' || case when entry_number = 1 then permission_mode else previous_mode || ' -> ' || permission_mode end as text,
            source_seq + 1 as source_seq
        )
    from usage_facts
    where permission_mode is not null
      and (entry_number = 1 or (previous_mode is not null and permission_mode <> previous_mode))
),

sdk_prompt_modes as (
    select
        *,
        lag(permission_mode) over w as previous_mode,
        row_number() over w as prompt_number
    from raw_events
    where store = 'sdk-sessions'
      and source_file like '%/' || session_id || '.messages.json'
      and turn_type = 'user' and kind = 'text' and permission_mode is not null
    window w as (partition by host, session_id order by source_line, source_seq)
),

sdk_permission_rows as (
    select
        * exclude (previous_mode, prompt_number)
        replace (
            md5('derived' || chr(0) || 'permission' || chr(0) || row_id::VARCHAR)::UUID as row_id,
            'system' as turn_type,
            'permission' as kind,
            'permission mode: ' || case when prompt_number = 1 then permission_mode else previous_mode || ' -> ' || permission_mode end as text,
            source_seq - 1 as source_seq
        )
    from sdk_prompt_modes
    where prompt_number = 1 or permission_mode <> previous_mode
),

final as (
    select * from sdk_model_rows
    union all by name
    select * from sdk_permission_rows
    union all by name
    select * from legacy_model_rows
    union all by name
    select * from legacy_permission_rows
)

select * from final;

comment on table int_derived_events is 'The system rows derived across records: model: and permission mode: changes of SDK transcripts and legacy tasks. Grain: one row per change; the columns of raw_events, most of them those of the row it derives from.';
{{int_derived_events_column_comments}}
