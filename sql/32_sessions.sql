-- sessions: one row per (host, session_id) seen in events (primary or kept secondary rows), so a
-- session known only from secondary stores (its transcript deleted) is listed with has_transcript false.
-- Inputs: int_timeline (the rows of events), raw_events (for the stores a session appears in, dropped duplicates included).
-- Which files are transcripts comes from the store specification (placeholders transcript_stores and
-- is_transcript_file, src/warehouse/stores-table.ts; the same test as stores.transcript_regex).
-- The facts come from the columns the readers set beside their texts (session_origin, sync_target,
-- imported_from), never from the texts.
--   has_transcript: a transcript row (ui_messages, api history or SDK messages file) is on the host
create or replace table sessions as
with transcript_rows as (
    select distinct host, session_id
    from raw_events
    where session_id is not null
      and store in {{transcript_stores}}
      and {{is_transcript_file}}
      and kind <> 'parser'
),

session_stores as (
    select host, session_id, list(distinct store order by store) as stores
    from raw_events
    where session_id is not null
    group by all
),

summary as (
    select
        host,
        session_id,
        min(home) as home,
        -- the user of that home (null when its layout names none), not the least user of any home
        arg_min_null(user, home) as user,
        min(client) as client,
        min(agent) as agent,
        arg_min(project_path, coalesce(timestamp_utc, '9999-12-31'::TIMESTAMPTZ)) filter (where project_path is not null) as project_path,
        -- recorded times only (is_recorded_time, sql/00): a settings.json's mtime is the copy's time
        min(timestamp_utc) filter (where is_recorded_time(timestamp_source)) as first_timestamp_utc,
        max(timestamp_utc) filter (where is_recorded_time(timestamp_source)) as last_timestamp_utc,
        list(distinct model order by model) filter (where model is not null) as models,
        list(distinct provider order by provider) filter (where provider is not null) as providers,
        count(*) as count_rows,
        count(*) filter (where turn_type = 'user') as count_user,
        count(*) filter (where turn_type = 'assistant') as count_assistant,
        count(*) filter (where turn_type = 'thinking') as count_thinking,
        count(*) filter (where turn_type = 'tool_use') as count_tool_use,
        count(*) filter (where turn_type = 'tool_result') as count_tool_result,
        count(*) filter (where turn_type = 'system') as count_system,
        count(*) filter (where is_error) as count_errors,
        bool_or(session_origin = 'remote') as is_remote,
        bool_or(sync_target is not null) as is_synced,
        list(distinct sync_target) as sync_targets,
        max(imported_from) as imported_from
    from int_timeline
    where session_id is not null
    group by all
),

final as (
    select
        s.host,
        s.session_id,
        s.home,
        s.user,
        s.client,
        s.agent,
        s.project_path,
        s.first_timestamp_utc,
        s.last_timestamp_utc,
        s.models,
        s.providers,
        s.count_rows,
        s.count_user,
        s.count_assistant,
        s.count_thinking,
        s.count_tool_use,
        s.count_tool_result,
        s.count_system,
        s.count_errors,
        t.session_id is not null as has_transcript,
        case when s.is_remote then 'remote' else 'local' end as origin,
        coalesce(s.is_synced, false) as is_synced,
        nullif(array_to_string(list_sort(list_filter(s.sync_targets, x -> x is not null)), '; '), '') as sync_target,
        s.imported_from,
        st.stores
    from summary as s
    left join transcript_rows as t on t.host = s.host and t.session_id = s.session_id
    left join session_stores as st on st.host = s.host and st.session_id = s.session_id
)

select * from final
order by host, first_timestamp_utc nulls last, session_id;

comment on table sessions is 'One row per (host, session_id) seen in events, a session known only from secondary stores included. Grain: one row per (host, session_id).';
comment on column sessions.host is 'Host image name.';
comment on column sessions.session_id is 'Legacy task id, SDK session id or Cline Cloud ses- id.';
comment on column sessions.home is 'Home of its rows, as the machine names it (the least, if several).';
comment on column sessions.user is 'User of its home (the home column); null where the home''s layout does not say whose it is.';
comment on column sessions.client is 'Client of its rows (the least, if several).';
comment on column sessions.agent is 'Agent of the Cline family whose session it is: cline, roo-code or kilo-code (the least, if several; each agent keeps its own task ids).';
comment on column sessions.project_path is 'project_path of its earliest dated row that has one.';
comment on column sessions.first_timestamp_utc is 'Time of its first event with a recorded time (timestamp_source recorded or local_clock; a file mtime does not count); null when none has one.';
comment on column sessions.last_timestamp_utc is 'Time of its last event with a recorded time (timestamp_source recorded or local_clock; a file mtime does not count); null when none has one.';
comment on column sessions.models is 'Distinct models of its events, sorted.';
comment on column sessions.providers is 'Distinct providers of its events, sorted.';
comment on column sessions.count_rows is 'Its events (dropped duplicates not counted).';
comment on column sessions.count_user is 'Its user events.';
comment on column sessions.count_assistant is 'Its assistant events.';
comment on column sessions.count_thinking is 'Its thinking events.';
comment on column sessions.count_tool_use is 'Its tool_use events.';
comment on column sessions.count_tool_result is 'Its tool_result events.';
comment on column sessions.count_system is 'Its system events.';
comment on column sessions.count_errors is 'Its events with is_error.';
comment on column sessions.has_transcript is 'True when a transcript row (ui_messages, api history or SDK messages file) of it is on the host; false for a session known only from secondary stores, its transcript deleted (a session removed with cline history delete is listed from the hub event log, with its prompts, model, provider and times).';
comment on column sessions.origin is 'remote when an origin row says it is a Cline Cloud session (session_origin), else local.';
comment on column sessions.is_synced is 'True when a sync row says its transcript left the host (sync_target set); never null.';
comment on column sessions.sync_target is 'Where it went, ''; '' between several: cline-cloud, ''<adapter> bucket <bucket> object <key>'', ''enterprise upload queue: <key>''.';
comment on column sessions.imported_from is 'The agent it was imported from (manifest metadata.importedFrom), else null.';
comment on column sessions.stores is 'Stores its rows are in, dropped duplicates included, sorted.';
