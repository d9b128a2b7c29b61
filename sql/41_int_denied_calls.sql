-- int_denied_calls: the calls a result of which says the user denied them or they were not approved (for the
-- approval state of int_tool_calls, sql/42). Inputs: int_timeline. Grain: one row per (host, session, call id).
create or replace table int_denied_calls as
select distinct host, session_id, tool_use_id
from int_timeline
where turn_type = 'tool_result' and tool_use_id is not null
  and regexp_matches(text,
    'was not approved|denied by the user|user denied|The user denied this operation|user rejected|rejected by the user|requires approval in a TTY session|Tool approval requires an interactive session',
    'i');

comment on table int_denied_calls is 'The tool calls a result of which says the user denied them or they were not approved: they never ran. Grain: one row per (host, session_id, tool_use_id).';
comment on column int_denied_calls.host is 'Host image name.';
comment on column int_denied_calls.session_id is 'Session of the call.';
comment on column int_denied_calls.tool_use_id is 'Call id of the call.';
