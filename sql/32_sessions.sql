-- sessions: one row per (host, session_id) seen in events (primary or kept secondary rows), so a
-- session known only from secondary stores (its transcript deleted) is listed with has_transcript false.
-- Inputs: int_timeline (the rows of events), raw_events (for the stores a session appears in, dropped duplicates included).
-- Which files are transcripts comes from the store specification (placeholders transcript_stores and
-- is_transcript_file, src/warehouse/stores-table.ts; the same test as stores.transcript_regex).
-- The facts come from the columns the readers set beside their texts (session_origin, sync_target,
-- imported_from), never from the texts.
--   has_transcript: a transcript row (ui_messages, api history or SDK messages file) is on the host
--   driven_by: who drove it (issue 31 point 5, corpus/README.md "The driven corpus"), from evidence codes that decide:
--     typed_in_tui             person: a prompt of it is a line of the TUI's input history (the duplicates rule
--                              input_history paired them); only a person at a terminal types into the TUI
--     providers_json_restored  agent: the session is the last of its provider in its home, that provider's block of
--                              providers.json was written during it (updatedAt), and yet the file no longer names the
--                              session's model, or names another default provider whose block was written before:
--                              someone wrote the old defaults back after the run, as an MCP bridge's override does
--   and codes that only inform (a person's one-shot run leaves them too; a bridge run leaves nothing else):
--     non_interactive          the session's own setting interactive=false (a one-shot run, typed or spawned)
--     detached_head            it ran on a detached HEAD (metadata.git.branch "(no"), as in a disposable worktree
--   person when a person code and no agent code holds, agent when an agent code and no person code holds, else
--   unknown: a session typed at a shell and one a bridge spawned can be identical on disk.
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
        -- recorded times only (is_recorded_time, sql/01): a settings.json's mtime is the copy's time
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
        list(distinct sync_target order by sync_target) as sync_targets,
        max(imported_from) as imported_from,
        arg_min(provider, timestamp_utc) filter (where kind = 'session_start') as start_provider,
        bool_or(starts_with(git_branch, '(')) as on_detached_head,
        bool_or(kind = 'session_start' and setting_name = 'interactive' and setting_value = 'false') as non_interactive
    from int_timeline
    where session_id is not null
    group by all
),

-- the TUI's input history lines paired with a prompt of the session (sql/22)
typed_in_tui as (
    select distinct host, kept_session_id as session_id
    from duplicates
    where rule = 'input_history' and kept_session_id is not null
),

-- providers.json as the collection holds it (src/readers/credentials/provider-defaults.ts)
provider_models as (
    select host, home, agent, provider, setting_value as model, timestamp_utc as updated_at
    from raw_events
    where kind = 'provider_default' and setting_name <> 'lastUsedProvider'
),

default_providers as (
    select host, home, agent, setting_value as provider
    from raw_events
    where kind = 'provider_default' and setting_name = 'lastUsedProvider'
),

-- the last session of each provider in its home, with that provider's block and the default provider's
last_of_provider as (
    select
        s.host,
        s.session_id,
        s.start_provider,
        list_contains(s.models, p.model) as names_its_model,
        d.provider as default_provider,
        q.updated_at as default_updated_at,
        p.updated_at
    from (
        select *
        from summary
        where start_provider is not null
        qualify row_number() over (partition by host, home, agent, start_provider order by first_timestamp_utc desc) = 1
    ) as s
    join provider_models as p on p.host = s.host and p.home = s.home and p.agent = s.agent and p.provider = s.start_provider
    left join default_providers as d on d.host = s.host and d.home = s.home and d.agent = s.agent
    left join provider_models as q on q.host = d.host and q.home = d.home and q.agent = d.agent and q.provider = d.provider
    where p.updated_at between s.first_timestamp_utc - interval 30 second and s.last_timestamp_utc
),

restored as (
    select host, session_id
    from last_of_provider
    where not names_its_model or (default_provider <> start_provider and default_updated_at < updated_at)
),

evidence as (
    select
        s.host,
        s.session_id,
        list_filter([
            case when t.session_id is not null then 'typed_in_tui' end,
            case when r.session_id is not null then 'providers_json_restored' end,
            case when s.non_interactive then 'non_interactive' end,
            case when s.on_detached_head then 'detached_head' end
        ], x -> x is not null) as codes,
        t.session_id is not null as by_person,
        r.session_id is not null as by_agent
    from summary as s
    left join typed_in_tui as t on t.host = s.host and t.session_id = s.session_id
    left join restored as r on r.host = s.host and r.session_id = s.session_id
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
        st.stores,
        case
            when e.by_person and not e.by_agent then 'person'
            when e.by_agent and not e.by_person then 'agent'
            else 'unknown'
        end as driven_by,
        e.codes as driven_by_evidence
    from summary as s
    left join evidence as e on e.host = s.host and e.session_id = s.session_id
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
comment on column sessions.driven_by is 'person, agent (another program, such as an AI agent through an MCP bridge) or unknown: person or agent only where a code of driven_by_evidence decides it and none says the other; a session typed at a shell and one a bridge spawned can be identical on disk.';
comment on column sessions.driven_by_evidence is 'Evidence codes found, sorted by weight: typed_in_tui (person), providers_json_restored (agent), non_interactive and detached_head (inform only); empty when none.';
