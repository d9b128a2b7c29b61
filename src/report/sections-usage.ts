/**
 * The report's sections on what Cline did and with what: settings that turn safety off, the top
 * commands, models and providers, and secrets by fingerprint (markers only: the warehouse never holds a
 * secret's value, and nothing here could undo a marker).
 */
import { hostAnchors, secretAnchors, secretKey } from './anchors.js';
import type { ReportData } from './data.js';
import { capLine, count, cut, type Html, html, linkTo, table, time } from './html.js';

export function settingsSection(data: ReportData): Html {
  const hosts = hostAnchors(data);
  const body =
    data.settings.length === 0
      ? html`<p>No auto-approval, yolo mode, MCP auto-approve or auto-approving hook answer was found.</p>`
      : html`${table(
          ['host', 'agent', 'home', 'setting', 'turns off', 'rows', 'sessions', 'first seen', 'last seen', 'source file'],
          data.settings.map((s) => [
            linkTo(hosts.get(s.host), s.host),
            s.agent,
            s.home,
            html`<code>${s.setting}</code>`,
            s.what,
            count(s.rows),
            count(s.sessions),
            time(s.firstUtc),
            time(s.lastUtc),
            s.sourceFile,
          ]),
          [5, 6],
        )}${capLine(data.settings.length, data.settingsTotal, 'settings')}`;
  return html`<section id="safety"><h2>Settings that turn safety off</h2>
<p class="dim">The rows of <code>safety_off</code>, the table the <code>safety-turned-off</code> hunt reads: yolo mode, every
command or tool approved (<code>autoApprovalSettings.actions.executeAllCommands</code> with auto-approval enabled,
<code>toolAutoApprove</code>), edits outside the workspace approved, MCP tools approved for good
(<code>mcpServers.&lt;server&gt;.autoApprove</code> / <code>alwaysAllow</code>), an unattended agenda, hook answers that
auto-approve a tool call, sessions switched to yolo. The default auto-approval (read files, safe commands) is not here. A
setting file records no time of its own: its rows carry the file's mtime.</p>
${body}</section>`;
}

export function commandsSection(data: ReportData): Html {
  const c = data.caps;
  const rows = data.commands.map((r) => [
    html`<code>${cut(r.command, r.length, c.commandChars)}</code>`,
    count(r.runs),
    count(r.hosts),
    count(r.sessions),
    time(r.firstUtc),
    time(r.lastUtc),
  ]);
  const body =
    rows.length === 0
      ? html`<p>No command rows.</p>`
      : html`${table(['command', 'runs', 'hosts', 'sessions', 'first run', 'last run'], rows, [1, 2, 3])}${capLine(
          data.commands.length,
          data.commandsTotal,
          'distinct commands',
          'select command, count(*) from commands group by command order by 2 desc',
        )}`;
  return html`<section id="commands"><h2>Top commands</h2>
<p class="dim">Shell commands Cline ran or asked to run (the <code>commands</code> view: <code>execute_command</code>,
<code>bash</code>, <code>run_commands</code> tool calls and legacy <code>say:command</code>/<code>ask:command</code> messages), by
how often the same text appears; commands longer than ${count(c.commandChars)} characters are cut.</p>
${body}</section>`;
}

export function modelsSection(data: ReportData): Html {
  const rows = data.models.map((m) => [
    m.model,
    m.provider,
    count(m.hosts),
    count(m.sessions),
    count(m.rows),
    count(m.tokensIn),
    count(m.tokensOut),
    m.costUsd === null ? '' : m.costUsd.toFixed(4),
  ]);
  const body =
    rows.length === 0
      ? html`<p>No row names a model.</p>`
      : html`${table(
          ['model', 'provider', 'hosts', 'sessions', 'rows', 'tokens in', 'tokens out', 'cost (USD)'],
          rows,
          [2, 3, 4, 5, 6, 7],
        )}${capLine(data.models.length, data.modelsTotal, 'models')}`;
  return html`<section id="models"><h2>Models and providers in use</h2>${body}</section>`;
}

export function secretsSection(data: ReportData): Html {
  const anchors = secretAnchors(data);
  const rows = data.secrets.map((s) => [
    html`<code id="${anchors.get(secretKey(s.fingerprint, s.kind))}">[REDACTED:${s.kind}:${s.fingerprint}]</code>`,
    s.kind,
    count(s.hosts),
    s.hostList,
    count(s.sessions),
    count(s.rows),
    time(s.firstUtc),
    time(s.lastUtc),
  ]);
  const body =
    rows.length === 0
      ? html`<p>No secret was redacted (or the warehouse was loaded with <code>--keep-secrets</code>).</p>`
      : html`${table(
          ['marker', 'kind', 'hosts', 'on hosts', 'sessions', 'rows', 'first seen', 'last seen'],
          rows,
          [2, 4, 5],
        )}${capLine(data.secrets.length, data.secretsTotal, 'fingerprints', 'select fingerprint, kind, count(distinct host) from secrets group by all')}`;
  return html`<section id="secrets"><h2>Secrets by fingerprint across hosts</h2>
<p class="dim">The warehouse holds each secret as a marker <code>[REDACTED:&lt;kind&gt;:&lt;fingerprint&gt;]</code> (the first 12 hex digits of
its SHA-256), never its value: one fingerprint on several hosts is one key seen on each.</p>
${body}</section>`;
}
