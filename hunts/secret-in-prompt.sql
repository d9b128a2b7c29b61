-- id: secret-in-prompt
-- title: Secret pasted into a prompt
-- severity: medium
-- attack: T1552.001
-- agents: cline
-- scope: host
-- description: A prompt (a user turn: a task, a follow-up, a prompt from the input history, hook log or
--   search index whose transcript is gone) that held an API key, token, private key or password, now a
--   [REDACTED:kind:fingerprint] marker. The key went to the model provider with the prompt, and is in the
--   transcript on disk and wherever the transcript was synced.
-- false_positives: A throw-away test key pasted on purpose; an example value that still matches a
--   detector. A load with --keep-secrets has no markers and gives no finding.
-- columns: host, session_id, row_id, timestamp_utc, summary, source_file
select host, session_id, row_id, timestamp_utc,
  'prompt holds ' || array_to_string(list_distinct(regexp_extract_all(text, '\[REDACTED:([a-z_]+):', 1)), ', ')
    || ' secret(s): ' || left(text, 200) as summary,
  source_file
from events
where turn_type = 'user' and text like '%[REDACTED:%'
