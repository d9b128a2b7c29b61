/**
 * The report's SQL: each a single read-only SELECT, run through the query sandbox (report/read.ts).
 * Aggregates read `int_timeline`, the rows of `events` unordered (sql/25, sql/30): `events` sorts the whole
 * timeline on every read, which a count does not need. Times come back as UTC texts (the connection's
 * TimeZone is UTC), and every list that could be long is capped in SQL, with the uncapped total beside it
 * (`count(*) over ()`), so the page can say what it left out.
 */
import type { ReportCaps, TimeUnit } from './data.js';

/** A TIMESTAMPTZ as `2026-05-01T10:00:00Z`. */
export const utc = (column: string): string => `strftime(${column}, '%Y-%m-%dT%H:%M:%SZ')`;

/**
 * The events that are a shell command Cline ran or asked to run: the one definition of sql/37
 * (`is_command_call`, what the `commands` view and the hunts read), applied in the report's one scan.
 */
const COMMAND = `is_command_call(turn_type, tool_name, kind) and text is not null`;

/**
 * The one scan of the timeline: `int_timeline` costs its joins on every read (docs/BENCHMARKS.md "Behind the code"), so the figures of the glance, the rows per host, the top commands,
 * and the models come from one materialized pass over the few columns they need, as one result of
 * `(section, ord, item)` rows, `item` a JSON object of the section's columns. The safety settings are the rows
 * of `safety_off` (sql/40), the table the `safety-turned-off` hunt reads: the page and the hunt agree.
 */
export function factsSql(caps: ReportCaps): string {
  return `with t as materialized (
  select host, home, session_id, timestamp_utc, kind, model,
    -- spans count recorded times only (sql/01 is_recorded_time): a file's mtime is the copy's time
    case when is_recorded_time(timestamp_source) then timestamp_utc end as recorded_utc, provider, tokens_in, tokens_out, cost_usd, source_file,
    ${COMMAND} as is_command,
    case when ${COMMAND} then text end as text
  from int_timeline
), glance as (
  select count(distinct host) as hosts, count(*) as rows, count(*) filter (where timestamp_utc is null) as undated_rows,
    count(*) filter (where kind = 'parser') as parser_errors, ${utc('min(recorded_utc)')} as first_utc,
    ${utc('max(recorded_utc)')} as last_utc
  from t
), per_host as (
  select host, count(*) as rows, ${utc('min(recorded_utc)')} as first_utc, ${utc('max(recorded_utc)')} as last_utc,
    row_number() over (order by host) as ord
  from t group by host
), commands as (
  select left(text, ${caps.commandChars}) as command, length(text) as length, count(*) as runs,
    count(distinct host) as hosts, count(distinct [host, session_id]) filter (where session_id is not null) as sessions,
    ${utc('min(timestamp_utc)')} as first_utc, ${utc('max(timestamp_utc)')} as last_utc, count(*) over () as total,
    row_number() over (order by count(*) desc, count(distinct host) desc, text) as ord
  from t where is_command
  group by text
), models as (
  select model, provider, count(distinct host) as hosts,
    count(distinct [host, session_id]) filter (where session_id is not null) as sessions, count(*) as rows,
    sum(tokens_in) as tokens_in, sum(tokens_out) as tokens_out, sum(cost_usd) as cost_usd, count(*) over () as total,
    row_number() over (order by sessions desc, rows desc, model, provider) as ord
  from t where model is not null
  group by model, provider
), settings as (
  select host, agent, home, setting_name || '=' || coalesce(setting_value, '-') as setting, what, count(*) as rows,
    count(distinct session_id) as sessions, ${utc('min(timestamp_utc)')} as first_utc, ${utc('max(timestamp_utc)')} as last_utc,
    min(source_file) as source_file, count(*) over () as total,
    row_number() over (order by host, agent, home, setting_name, setting_value, what) as ord
  from safety_off
  group by host, agent, home, setting_name, setting_value, what
)
select 'glance' as section, 1 as ord, to_json(g) as item from glance g
union all select 'host', ord, to_json(h) from per_host h where ord <= ${caps.hosts}
union all select 'command', ord, to_json(c) from commands c where ord <= ${caps.commands}
union all select 'model', ord, to_json(m) from models m where ord <= ${caps.models}
union all select 'setting', ord, to_json(s) from settings s where ord <= ${caps.settings}
order by section, ord`;
}

/** Figures of the glance that need no scan of the timeline. */
export function overviewSql(): string {
  return `select (select count(*) from hosts) as host_images, (select count(*) from sessions) as sessions,
  (select count(distinct fingerprint) from secrets) as secret_fingerprints,
  (select ${utc('max(finished_at_utc)')} from load_runs) as last_load_utc,
  (select clinetrail_version from load_runs order by started_at_utc desc limit 1) as version,
  (select ${utc('min(first_timestamp_utc)')} from sessions) as first_session_utc,
  (select ${utc('max(first_timestamp_utc)')} from sessions) as last_session_utc,
  (select count(*) from sessions where first_timestamp_utc is null) as undated_sessions`;
}

export function hostsSql(caps: ReportCaps): string {
  return `select h.host, h.status, count(s.session_id) as sessions, array_to_string(any_value(h.stores), ', ') as stores,
  count(*) over () as total
from hosts h left join sessions s using (host)
group by h.host, h.status
order by h.host
limit ${caps.hosts}`;
}

export const STEP: Record<TimeUnit, string> = {
  day: "interval '1 day'",
  week: "interval '7 days'",
  month: "interval '1 month'",
  quarter: "interval '3 months'",
  year: "interval '1 year'",
};

/**
 * Per bucket from the first session's to the last one's (empty buckets too): the sessions started there
 * per host (`host` set), and the hosts that started one (`host` null).
 */
export function sessionBucketsSql(unit: TimeUnit): string {
  const bucket = `date_trunc('${unit}', first_timestamp_utc::timestamp)`;
  return `with s as (select host, ${bucket} as b from sessions where first_timestamp_utc is not null),
all_buckets as (select unnest(generate_series(min(b), max(b), ${STEP[unit]})) as b from s),
per_host as (select b, host, count(*) as n from s group by all),
per_bucket as (select b, count(distinct host) as hosts from s group by b)
select strftime(a.b, '%Y-%m-%d') as bucket, p.host, p.n, coalesce(q.hosts, 0) as hosts
from all_buckets a left join per_host p using (b) left join per_bucket q using (b)
order by a.b, p.host`;
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

export const SEVERITY_RANK = `case severity when 'critical' then 0 when 'high' then 1 when 'medium' then 2 when 'low' then 3 when 'info' then 4 else 5 end`;

export const FINDINGS_BY_HOST_SQL = 'select host, severity, count(*) as n from findings group by all order by host, severity';

export function huntsSql(caps: ReportCaps): string {
  return `select hunt_id, min(title) as title, min(severity) as severity, min(attack) as attack, count(*) as findings,
  count(distinct host) as hosts
from findings group by hunt_id
order by min(${SEVERITY_RANK}), findings desc, hunt_id
limit ${caps.hunts}`;
}

/** The order of the findings table of the page, worst first: a total order, so the contexts are of its first rows. */
export const FINDINGS_ORDER = `${SEVERITY_RANK}, timestamp_utc nulls last, host, hunt_id, row_id`;

export function findingRowsSql(caps: ReportCaps): string {
  return `select severity, hunt_id, row_id::varchar as row_id, host, session_id, ${utc('timestamp_utc')} as time_utc,
  timestamp_source, is_recorded_time(timestamp_source) as time_is_recorded, left(summary, ${caps.textChars}) as summary,
  source_file, agent
from findings
order by ${FINDINGS_ORDER}
limit ${caps.findings}`;
}

/** The sessions whose timelines the page holds: those with findings first, then the latest. */
function chosenSessions(caps: ReportCaps, withFindings: boolean): string {
  const findings = withFindings
    ? 'left join (select host, session_id, count(*) as n from findings group by all) f using (host, session_id)'
    : '';
  return `select s.host, s.session_id, s.agent, s.driven_by, array_to_string(s.driven_by_evidence, ', ') as driven_by_evidence,
    s.project_path, s.first_timestamp_utc, s.last_timestamp_utc,
    array_to_string(s.models, ', ') as models, ${withFindings ? 'coalesce(f.n, 0)' : '0'} as findings,
    count(*) over () as total
  from sessions s ${findings}
  where s.session_id is not null
  order by findings desc, s.last_timestamp_utc desc nulls last, s.host, s.session_id
  limit ${caps.sessions}`;
}

export function sessionsSql(caps: ReportCaps, withFindings: boolean): string {
  return `select host, session_id, agent, driven_by, driven_by_evidence, project_path, ${utc('first_timestamp_utc')} as first_utc,
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
    row_number() over (partition by e.host, e.session_id order by ${TIMELINE_ORDER}) as rn,
    count(*) over (partition by e.host, e.session_id) as session_rows
  from int_timeline e semi join chosen c on e.host = c.host and e.session_id = c.session_id
)
select host, session_id, ${utc('timestamp_utc')} as time_utc, turn_type, kind, tool_name, text, text_length, is_error,
  source_file || coalesce(':' || source_line, '') as source, session_rows
from r where rn <= ${caps.rowsPerSession}
order by host, session_id, rn`;
}
