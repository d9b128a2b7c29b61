/**
 * The SQL of the report's drill-down: each host's own lists, the fleet timeline's marks and the rows
 * around each finding. Like report/queries.ts: single read-only SELECTs, every list capped in SQL with its
 * uncapped total beside it. The per-host lists read the small tables (`sessions`, `findings`, `secrets`);
 * only the findings' contexts scan the timeline, and only the sessions and files of the findings shown.
 */
import type { ReportCaps, TimeUnit } from './data.js';
import { FINDINGS_ORDER, STEP, TIMELINE_ORDER, utc } from './queries.js';

/**
 * The hosts of most interest, `limit` of them: most findings, then most sessions, then by name. Every
 * host image can be chosen, one with no Cline rows too (its section says so).
 */
function chosenHosts(limit: number, withFindings: boolean): string {
  const findings = withFindings ? 'left join (select host, count(*) as n from findings group by host) f using (host)' : '';
  return `select h.host from hosts h
  left join (select host, count(*) as n from sessions group by host) s using (host)
  ${findings}
  order by ${withFindings ? 'coalesce(f.n, 0) desc, ' : ''}coalesce(s.n, 0) desc, h.host
  limit ${limit}`;
}

/** The hosts that get a section, by name. */
export function hostSectionsSql(caps: ReportCaps, withFindings: boolean): string {
  return `select host, (select count(*) from hosts) as total from (${chosenHosts(caps.hostSections, withFindings)}) order by host`;
}

/** The sessions of each chosen host: those with findings first, then the latest. */
export function hostSessionsSql(caps: ReportCaps, withFindings: boolean): string {
  const findings = withFindings
    ? 'left join (select host, session_id, count(*) as n from findings group by all) f using (host, session_id)'
    : '';
  return `select s.host, s.session_id, s.project_path, ${utc('s.first_timestamp_utc')} as first_utc,
  ${utc('s.last_timestamp_utc')} as last_utc, s.count_rows as rows, ${withFindings ? 'coalesce(f.n, 0)' : '0'} as findings,
  count(*) over (partition by s.host) as host_total,
  row_number() over (partition by s.host order by findings desc, s.first_timestamp_utc desc nulls last, s.session_id) as ord
from sessions s ${findings}
where s.host in (${chosenHosts(caps.hostSections, withFindings)})
qualify ord <= ${caps.perHost}
order by s.host, ord`;
}

/** The findings of each chosen host, worst first (the order of the page's findings table). */
export function hostFindingsSql(caps: ReportCaps): string {
  return `select host, severity, hunt_id, row_id::varchar as row_id, ${utc('timestamp_utc')} as time_utc,
  timestamp_source, is_recorded_time(timestamp_source) as time_is_recorded, left(summary, ${caps.textChars}) as summary, count(*) over (partition by host) as host_total,
  row_number() over (partition by host order by ${FINDINGS_ORDER}) as ord
from findings
where host in (${chosenHosts(caps.hostSections, true)})
qualify ord <= ${caps.perHost}
order by host, ord`;
}

/** The secrets of each chosen host by fingerprint, with how many other hosts hold the same one. */
export function hostSecretsSql(caps: ReportCaps, withFindings: boolean): string {
  return `with spread as (select fingerprint, count(distinct host) as hosts from secrets group by fingerprint)
select s.host, s.fingerprint, s.kind, count(*) as rows,
  count(distinct s.session_id) as sessions, any_value(p.hosts) - 1 as other_hosts,
  ${utc('min(s.timestamp_utc)')} as first_utc, ${utc('max(s.timestamp_utc)')} as last_utc,
  count(*) over (partition by s.host) as host_total,
  row_number() over (partition by s.host order by count(*) desc, s.fingerprint, s.kind) as ord
from secrets s join spread p using (fingerprint)
where s.host in (${chosenHosts(caps.hostSections, withFindings)})
group by s.host, s.fingerprint, s.kind
qualify ord <= ${caps.perHost}
order by s.host, ord`;
}

/**
 * What the fleet timeline marks: session starts and findings, each with its recorded time (null: none). A
 * finding dated by its file's mtime (a settings file) is the copy's time, not the act's, so it is not drawn.
 */
function timelineEvents(withFindings: boolean): string {
  const findings = withFindings
    ? 'union all select host, case when is_recorded_time(timestamp_source) then timestamp_utc end as t, 0, 1 from findings'
    : '';
  return `select host, first_timestamp_utc as t, 1 as session, 0 as finding from sessions ${findings}`;
}

/** The span of the timeline's marks, and the findings it cannot place (no recorded time). */
export function timelineSpanSql(withFindings: boolean): string {
  return `select ${utc('min(t)')} as first_utc, ${utc('max(t)')} as last_utc,
  count(*) filter (where t is null and finding = 1) as undated_findings
from (${timelineEvents(withFindings)})`;
}

/**
 * The timeline's marks per (host, bucket) of the chosen hosts, then one row per bucket of the span with
 * `host` null (empty buckets too), and the number of hosts with a mark.
 */
export function timelineMarksSql(caps: ReportCaps, unit: TimeUnit, withFindings: boolean): string {
  const bucket = `date_trunc('${unit}', t::timestamp)`;
  return `with e as (select host, ${bucket} as b, session, finding from (${timelineEvents(withFindings)}) where t is not null),
marks as (select host, b, sum(session) as sessions, sum(finding) as findings from e group by all),
drawn as (
  select host from marks group by host
  order by sum(findings) desc, sum(sessions) desc, host limit ${caps.timelineHosts}
),
all_buckets as (select unnest(generate_series(min(b), max(b), ${STEP[unit]})) as b from e)
select host, strftime(b, '%Y-%m-%d') as bucket, sessions, findings, (select count(distinct host) from marks) as hosts_total
from marks where host in (select host from drawn)
union all
select null, strftime(b, '%Y-%m-%d'), 0, 0, (select count(distinct host) from marks) from all_buckets
order by 2, 1 nulls first`;
}

/**
 * The rows around each of the first `contexts` findings (the findings table's order). The scope of a
 * finding's row is its session, or its source file when it has none (a settings file). Kept: the
 * `contextRows` rows on each side (`fileContextRows` in a file), the last prompt before it and the first
 * result of its tool call (same `tool_use_id`). `position` is the row's place in its scope, in the order
 * of `events`.
 */
export function findingContextsSql(caps: ReportCaps): string {
  const key = (e: string) => `case when ${e}.session_id is null then 'f:' || ${e}.source_file else 's:' || ${e}.session_id end`;
  return `with f as (select host, session_id, source_file, row_id from findings order by ${FINDINGS_ORDER} limit ${caps.contexts}),
keys as (select distinct host, ${key('f')} as key from f where row_id is not null),
scope as materialized (
  select e.host, ${key('e')} as key, e.row_id, e.timestamp_utc, e.turn_type, e.kind, e.tool_name, e.tool_use_id,
    left(e.text, ${caps.textChars}) as text, coalesce(length(e.text), 0) as text_length, coalesce(e.is_error, false) as is_error,
    e.source_file || coalesce(':' || e.source_line, '') as source,
    row_number() over (partition by e.host, ${key('e')} order by ${TIMELINE_ORDER}) as position,
    count(*) over (partition by e.host, ${key('e')}) as scope_rows
  from int_timeline e join keys k on e.host = k.host and ${key('e')} = k.key
),
hit as (
  select distinct s.host, s.key, s.row_id, s.position as at, s.tool_use_id
  from scope s where s.row_id in (select row_id from f)
),
marks as (
  select h.host, h.key, h.row_id, h.at,
    max(s.position) filter (where s.turn_type = 'user' and s.position < h.at) as prompt_at,
    min(s.position) filter (where s.turn_type = 'tool_result' and s.position > h.at and s.tool_use_id = h.tool_use_id) as result_at
  from hit h join scope s on s.host = h.host and s.key = h.key
  group by all
)
select m.row_id::varchar as finding_row, case when starts_with(m.key, 'f:') then 'file' else 'session' end as scope,
  s.scope_rows, s.position, ${utc('s.timestamp_utc')} as time_utc, s.turn_type, s.kind, s.tool_name, s.text, s.text_length,
  s.is_error, s.source,
  case s.position when m.at then 'finding' when m.result_at then 'result' when m.prompt_at then 'prompt' end as role
from marks m join scope s on s.host = m.host and s.key = m.key
where abs(s.position - m.at) <= case when starts_with(m.key, 'f:') then ${caps.fileContextRows} else ${caps.contextRows} end
  or s.position = m.prompt_at or s.position = m.result_at
order by finding_row, s.position`;
}
