-- id: prompt-injection
-- title: Instructions planted in a tool result (fetched page, file, MCP answer), then a command
-- severity: high
-- attack: T1059
-- agents: cline, roo-code, kilo-code
-- scope: host
-- description: A tool result (a fetched web page, a file the agent read, an MCP server's answer, a
--   command's output) that holds text written to steer the agent: "ignore (all) previous/prior/above
--   instructions", "disregard previous instructions", "forget your instructions", "new instructions:",
--   "you are now a/an/the ...", "do not tell/inform the user", "system override", a hidden HTML comment
--   addressed to the AI/assistant/agent/LLM/model/Cline ("AI assistant: ..."), or a fake "[SYSTEM]:" line, followed by a
--   command the agent ran in the same session after it (commands, sql/44; a denied one never ran). On the legacy
--   engines a file the agent read is a tool result of the request that carried it back (docs/REAL-FORMATS.md). One finding per such result; the summary
--   quotes the phrase and the first command that followed. Prompts typed by the user are not tool results
--   and are never findings.
-- false_positives: A README or security course about prompt injection that the agent read, followed by
--   an unrelated command; test fixtures of an LLM security tool.
-- columns: host, session_id, row_id, timestamp_utc, summary, source_file
with injected as (
  select *,
    regexp_extract(text,
      '(?i)(ignore\s+(all\s+|any\s+)?(the\s+)?(previous|prior|above|earlier|preceding)\s+(instructions|prompts|directions)|disregard\s+(all\s+)?(the\s+)?(previous|prior|above|earlier)\s+\w+|forget\s+(all\s+)?(your|previous|prior)\s+instructions|new\s+instructions\s*:|you\s+are\s+now\s+(a|an|the)\s|do\s+not\s+(tell|inform|mention\s+this\s+to)\s+the\s+user|system\s+override|<!--[^>]{0,200}\b(ai|assistant|agent|llm|cline|claude|model)\b\s*[:,][^>]{0,400}-->|\[\s*system\s*\]\s*:)', 0) as phrase
  from events
  where turn_type = 'tool_result' and session_id is not null
    -- a cheap test first (literal words only): the expression above runs only on the results that pass it
    and regexp_matches(text, '(?i)instruction|ignore|you\s+are\s+now|do\s+not\s+(tell|inform|mention)|override|<!--|\[\s*system|disregard')
),
ran as (
  -- the commands the agent ran (commands, sql/44): not a denied one, never a final answer
  select host, session_id, timestamp_utc, source_file, source_line, source_seq, text
  from commands
  where approval <> 'denied'
),
followed as (
  select i.host, i.session_id, i.row_id, i.timestamp_utc, i.source_file, i.tool_name, i.phrase,
    arg_min(c.text, c.timestamp_utc) as first_command,
    count(*) as commands_after
  from injected i
  join ran c on c.host = i.host and c.session_id = i.session_id
    and (c.timestamp_utc > i.timestamp_utc
      or (c.timestamp_utc is null or i.timestamp_utc is null) and c.source_file = i.source_file
        and (c.source_line, c.source_seq) > (i.source_line, i.source_seq))
  where i.phrase <> ''
  group by all
)
select host, session_id, row_id, timestamp_utc,
  'instruction-like text in a ' || coalesce(tool_name, 'tool') || ' result ("' || left(phrase, 80) || '") followed by '
    || commands_after || ' command(s), first: ' || left(first_command, 200) as summary,
  source_file
from followed
