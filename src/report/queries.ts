/**
 * The report's SQL: each a single read-only SELECT, run through the query sandbox (report/read.ts).
 * Aggregates read `int_timeline`, the rows of `events` unordered (sql/27, sql/30): `events` sorts the whole
 * timeline on every read, which a count does not need. Times come back as UTC texts (the connection's
 * TimeZone is UTC), and every list that could be long is capped in SQL, with the uncapped total beside it
 * (`count(*) over ()`), so the page can say what it left out.
 */
import type { ReportCaps, TimeUnit } from './data.js';

/** A TIMESTAMPTZ as `2026-05-01T10:00:00Z`. */
export const utc = (column: string): string => `strftime(${column}, '%Y-%m-%dT%H:%M:%SZ')`;

/** The events that are a shell command Cline ran (README "Hunting"). */
const COMMAND = `turn_type = 'tool_use' and tool_name in ('execute_command', 'bash', 'run_commands') and text is not null`;

/**
 * Settings that let Cline act without a human: auto-approval (`autoApprovalSettings.enabled`, its
 * actions, `toolAutoApprove`), yolo mode (a task's `yoloModeToggled`), MCP tools approved for good
 * (`mcpServers.<server>.autoApprove=<tool>`; `alwaysAllow` is the same list in Cline's forks) and a hook's
 * answer that auto-approves a tool call (3.x hub log). They appear as `permission setting:`, `task
 * settings:` and `hook result:` rows (README "Tables").
 */
export const SAFETY_OFF_PATTERN = String.raw`autoApprovalSettings\.(?:enabled|actions\.[A-Za-z]+)=true|toolAutoApprove=true|yolo[A-Za-z]*=true|mcpServers\.[^ =]+\.(?:autoApprove|alwaysAllow)=[^ ]+|"autoApprove": ?true`;
const SAFETY_KINDS = `kind in ('permission', 'task_settings', 'hook_result')`;

export function glanceSql(): string {
  return `select
  (select count(distinct host) from int_timeline) as hosts,
  (select count(*) from hosts) as host_images,
  (select count(*) from sessions) as sessions,
  (select count(*) from int_timeline) as rows,
  (select count(*) from int_timeline where timestamp_utc is null) as undated_rows,
  (select count(*) from int_timeline where kind = 'parser') as parser_errors,
  (select ${utc('min(timestamp_utc)')} from int_timeline) as first_utc,
  (select ${utc('max(timestamp_utc)')} from int_timeline) as last_utc,
  (select count(distinct fingerprint) from secrets) as secret_fingerprints,
  (select ${utc('max(finished_at_utc)')} from load_runs) as last_load_utc,
  (select clinetrail_version from load_runs order by started_at_utc desc limit 1) as version`;
}

export function hostsSql(caps: ReportCaps): string {
  return `with e as (
  select host, count(*) as n, min(timestamp_utc) as lo, max(timestamp_utc) as hi from int_timeline group by host
), s as (select host, count(*) as n from sessions group by host)
select h.host, h.status, coalesce(s.n, 0) as sessions, coalesce(e.n, 0) as rows, ${utc('e.lo')} as first_utc,
  ${utc('e.hi')} as last_utc, array_to_string(h.stores, ', ') as stores, count(*) over () as total
from hosts h left join e using (host) left join s using (host)
order by h.host
limit ${caps.hosts}`;
}

const STEP: Record<TimeUnit, string> = {
  day: "interval '1 day'",
  week: "interval '7 days'",
  month: "interval '1 month'",
  quarter: "interval '3 months'",
  year: "interval '1 year'",
};

/** Every bucket start from the first dated row's bucket to the last one's, so empty buckets show. */
export function bucketsSql(unit: TimeUnit): string {
  return `select strftime(b, '%Y-%m-%d') as bucket from (
  select unnest(generate_series(date_trunc('${unit}', lo), date_trunc('${unit}', hi), ${STEP[unit]})) as b
  from (select min(timestamp_utc)::timestamp as lo, max(timestamp_utc)::timestamp as hi from int_timeline)
  where lo is not null
) order by b`;
}

/** Sessions started per bucket and host. */
export function sessionBucketsSql(unit: TimeUnit): string {
  return `select strftime(date_trunc('${unit}', first_timestamp_utc::timestamp), '%Y-%m-%d') as bucket, host, count(*) as n
from sessions where first_timestamp_utc is not null group by all`;
}

/** Hosts with a dated row per bucket. */
export function activeHostsSql(unit: TimeUnit): string {
  return `select strftime(date_trunc('${unit}', timestamp_utc::timestamp), '%Y-%m-%d') as bucket, count(distinct host) as n
from int_timeline where timestamp_utc is not null group by all`;
}

export const UNDATED_SESSIONS_SQL = 'select count(*) as n from sessions where first_timestamp_utc is null';

export function commandsSql(caps: ReportCaps): string {
  return `select left(text, ${caps.commandChars}) as command, length(text) as length, count(*) as runs,
  count(distinct host) as hosts, count(distinct [host, session_id]) filter (where session_id is not null) as sessions,
  ${utc('min(timestamp_utc)')} as first_utc, ${utc('max(timestamp_utc)')} as last_utc, count(*) over () as total
from int_timeline where ${COMMAND}
group by text
order by runs desc, hosts desc, text
limit ${caps.commands}`;
}

export function modelsSql(caps: ReportCaps): string {
  return `select model, provider, count(distinct host) as hosts,
  count(distinct [host, session_id]) filter (where session_id is not null) as sessions, count(*) as rows,
  sum(tokens_in) as tokens_in, sum(tokens_out) as tokens_out, sum(cost_usd) as cost_usd, count(*) over () as total
from int_timeline where model is not null
group by model, provider
order by sessions desc, rows desc, model, provider
limit ${caps.models}`;
}

export function secretsSql(caps: ReportCaps): string {
  return `select fingerprint, kind, count(distinct host) as hosts,
  array_to_string(list_slice(list(distinct host order by host), 1, 10), ', ')
    || case when count(distinct host) > 10 then ' (+' || (count(distinct host) - 10) || ' more)' else '' end as host_list,
  count(distinct [host, session_id]) filter (where session_id is not null) as sessions, count(*) as rows,
  ${utc('min(timestamp_utc)')} as first_utc, ${utc('max(timestamp_utc)')} as last_utc, count(*) over () as total
from secrets
group by fingerprint, kind
order by hosts desc, rows desc, fingerprint
limit ${caps.secrets}`;
}

export function settingsSql(caps: ReportCaps): string {
  return `with hit as (
  select host, home, kind, session_id, timestamp_utc, source_file,
    unnest(regexp_extract_all(text, '${SAFETY_OFF_PATTERN}')) as setting
  from int_timeline where ${SAFETY_KINDS} and regexp_matches(text, '${SAFETY_OFF_PATTERN}')
)
select host, home, setting, kind, count(*) as rows, count(distinct session_id) as sessions,
  ${utc('min(timestamp_utc)')} as first_utc, ${utc('max(timestamp_utc)')} as last_utc, min(source_file) as source_file,
  count(*) over () as total
from hit
group by host, home, setting, kind
order by host, home, setting, kind
limit ${caps.settings}`;
}

/** The table helper A's `clinetrail hunt` writes; the report works without it. */
export const FINDINGS_EXISTS_SQL =
  "select count(*) as n from information_schema.tables where table_schema = 'main' and table_name = 'findings'";

const SEVERITY_RANK = `case severity when 'critical' then 0 when 'high' then 1 when 'medium' then 2 when 'low' then 3 when 'info' then 4 else 5 end`;

export const FINDINGS_BY_HOST_SQL = 'select host, severity, count(*) as n from findings group by all order by host, severity';

export function huntsSql(caps: ReportCaps): string {
  return `select hunt_id, min(title) as title, min(severity) as severity, min(attack) as attack, count(*) as findings,
  count(distinct host) as hosts
from findings group by hunt_id
order by min(${SEVERITY_RANK}), findings desc, hunt_id
limit ${caps.hunts}`;
}

export function findingRowsSql(caps: ReportCaps): string {
  return `select severity, hunt_id, host, session_id, ${utc('timestamp_utc')} as time_utc,
  left(summary, ${caps.textChars}) as summary, source_file
from findings
order by ${SEVERITY_RANK}, timestamp_utc nulls last, host, hunt_id
limit ${caps.findings}`;
}

/** The sessions whose timelines the page holds: those with findings first, then the latest. */
function chosenSessions(caps: ReportCaps, withFindings: boolean): string {
  const findings = withFindings
    ? 'left join (select host, session_id, count(*) as n from findings group by all) f using (host, session_id)'
    : '';
  return `select s.host, s.session_id, s.project_path, s.first_timestamp_utc, s.last_timestamp_utc,
    array_to_string(s.models, ', ') as models, ${withFindings ? 'coalesce(f.n, 0)' : '0'} as findings,
    count(*) over () as total
  from sessions s ${findings}
  where s.session_id is not null
  order by findings desc, s.last_timestamp_utc desc nulls last, s.host, s.session_id
  limit ${caps.sessions}`;
}

export function sessionsSql(caps: ReportCaps, withFindings: boolean): string {
  return `select host, session_id, project_path, ${utc('first_timestamp_utc')} as first_utc,
  ${utc('last_timestamp_utc')} as last_utc, models, findings, total
from (${chosenSessions(caps, withFindings)})
order by host, first_timestamp_utc nulls last, session_id`;
}

/** The order of a session's rows, as `events` orders them. */
export const TIMELINE_ORDER = 'timestamp_utc nulls last, source_file, source_line nulls first, source_seq, kind';

export function sessionRowsSql(caps: ReportCaps, withFindings: boolean): string {
  return `with chosen as (${chosenSessions(caps, withFindings)}),
r as (
  select e.host, e.session_id, e.timestamp_utc, e.turn_type, e.kind, e.tool_name, left(e.text, ${caps.textChars}) as text,
    coalesce(length(e.text), 0) as text_length, coalesce(e.is_error, false) as is_error, e.source_file, e.source_line,
    row_number() over (partition by e.host, e.session_id order by ${TIMELINE_ORDER}) as rn
  from int_timeline e semi join chosen c on e.host = c.host and e.session_id = c.session_id
)
select host, session_id, ${utc('timestamp_utc')} as time_utc, turn_type, kind, tool_name, text, text_length, is_error,
  source_file || coalesce(':' || source_line, '') as source
from r where rn <= ${caps.rowsPerSession}
order by host, session_id, rn`;
}

/** The rows of each chosen session, counted (a session's timeline may be cut at rowsPerSession). */
export function sessionCountsSql(caps: ReportCaps, withFindings: boolean): string {
  return `with chosen as (${chosenSessions(caps, withFindings)})
select e.host, e.session_id, count(*) as n
from int_timeline e semi join chosen c on e.host = c.host and e.session_id = c.session_id
group by all`;
}
