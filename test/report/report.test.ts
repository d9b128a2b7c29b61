/**
 * `clinetrail report` on the demo fleet (fixtures/fleet) loaded into a temporary OUT: every figure of the
 * page equals an independent count (SQL of this test on the warehouse, or what the fixture files hold),
 * the page works without `findings`, `--to` is refused as `export` refuses it, and OUT is not written.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CAPS } from '../../src/report/data.js';
import { readReport } from '../../src/report/read.js';
import { renderReport } from '../../src/report/render.js';
import { parse } from 'parse5';
import { REPO } from '../helpers/source.js';
import { queryInProcess } from '../helpers/query-in-process.js';
import {
  attr,
  byId,
  cli,
  elements,
  figure,
  loadFleet,
  makeReport,
  type Node,
  pageTime,
  sql,
  tableRows,
  textOf,
} from '../helpers/report-page.js';

const FLEET = path.join(REPO, 'fixtures', 'fleet');
let tmp = '';
let out = '';
let page = '';
let doc: Node;

/** Path, size and mtime of every file and folder under `root`. */
function tree(root: string): string[] {
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .map((d) => {
      const full = path.join(d.parentPath, d.name);
      const st = fs.statSync(full);
      return `${path.relative(root, full)} ${st.size} ${st.mtimeMs}`;
    })
    .sort();
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'clinetrail-report-'));
  out = path.join(tmp, 'out');
  // --no-hunts: the page of a warehouse whose hunts did not run (the hunts' own page is report-real-producer's)
  await loadFleet(FLEET, out, ['--no-hunts']);
  page = path.join(tmp, 'report.html');
  const before = tree(out);
  ({ doc } = await makeReport(out, page));
  expect(tree(out), 'the report wrote under OUT').toEqual(before);
});

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the fleet at a glance', () => {
  it('counts hosts, sessions and rows as the warehouse holds them', async () => {
    const [c] = await sql(
      out,
      `select (select count(distinct host) from events) as hosts, (select count(*) from hosts) as images,
        (select count(*) from (select distinct host, session_id from events where session_id is not null)) as sessions,
        (select count(*) from events) as rows, (select count(*) from events where timestamp_utc is null) as undated,
        (select count(*) from events where starts_with(text, 'parser: ')) as parser,
        -- the span of the recorded times: a file's mtime (timestamp_source file_mtime) is the copy's time
        (select epoch_ms(min(timestamp_utc)) from events where timestamp_source in ('recorded', 'local_clock')) as lo,
        (select epoch_ms(max(timestamp_utc)) from events where timestamp_source in ('recorded', 'local_clock')) as hi`,
    );
    // the demo fleet's own figures (fixtures/fleet/README.md): four images, each with Cline rows
    expect(c.hosts).toBe(4);
    expect(figure(doc, 'glance-hosts')).toBe(c.hosts);
    expect(figure(doc, 'glance-host-images')).toBe(c.images);
    expect(figure(doc, 'glance-sessions')).toBe(c.sessions);
    expect(figure(doc, 'glance-rows')).toBe(c.rows);
    expect(figure(doc, 'glance-undated')).toBe(c.undated);
    expect(figure(doc, 'glance-parser-errors')).toBe(c.parser);
    expect(textOf(byId(doc, 'glance-first'))).toBe(pageTime(Number(c.lo)).replace(' ', 'T'));
    expect(textOf(byId(doc, 'glance-last'))).toBe(pageTime(Number(c.hi)).replace(' ', 'T'));
    expect(figure(doc, 'glance-secrets')).toBe(0);
  });

  it('says the hunts have not run when the load ran none (--no-hunts)', () => {
    expect(textOf(byId(doc, 'hunts-not-run'))).toBe(`hunts not run yet: clinetrail hunt --out ${out}`);
    expect(textOf(byId(doc, 'glance-findings'))).toBe('hunts not run');
  });

  it('lists each host with its sessions and rows', async () => {
    const expected = await sql(
      out,
      `select host, count(distinct session_id) as sessions, count(*) as rows from events group by host order by host`,
    );
    const rows = tableRows(byId(doc, 'activity'));
    expect(rows.map((r) => [r[0], Number(r[2]), Number(r[3])])).toEqual(expected.map((e) => [e.host, e.sessions, e.rows]));
  });
});

describe('the sections', () => {
  it('charts the sessions and the active hosts as two SVG charts with one bar segment per (bucket, host)', async () => {
    const charts = elements(byId(doc, 'activity')).filter((e) => e.tagName === 'svg' && e.attrs.some((a) => a.value === 'chart'));
    expect(charts).toHaveLength(2);
    const segments = elements(charts[0]).filter((e) => e.tagName === 'rect');
    const titled = segments.map((r) => textOf(r)).reduce((sum, t) => sum + Number(t.split(': ').at(-1)), 0);
    const [{ n }] = await sql(out, 'select count(*) as n from sessions where first_timestamp_utc is not null');
    expect(titled).toBe(n);
  });

  it('shows the top commands with their run counts', async () => {
    // the commands view (sql/44), the one definition the hunts read too
    const expected = await sql(out, 'select command as text, count(*) as runs from commands group by command');
    const runs = new Map(expected.map((e) => [String(e.text), e.runs]));
    const rows = tableRows(byId(doc, 'commands'));
    expect(rows).toHaveLength(Math.min(expected.length, DEFAULT_CAPS.commands));
    for (const r of rows) expect(Number(r[1]), r[0]).toBe(runs.get(r[0]));
    expect(rows.map((r) => r[0])).toContain('sudo rm -rf /var/lib/docker/tmp');
  });

  it('shows each model and provider with its sessions', async () => {
    const expected = await sql(
      out,
      `select model, coalesce(provider, '') as provider, count(distinct host || '/' || session_id) as sessions
       from events where model is not null group by all`,
    );
    const rows = tableRows(byId(doc, 'models'));
    expect(rows.map((r) => `${r[0]}|${r[1]}|${r[3]}`).sort()).toEqual(
      expected.map((e) => `${e.model}|${e.provider}|${e.sessions}`).sort(),
    );
  });

  it('lists the settings that turn safety off that the fixture files hold, and not the default auto-approval', () => {
    const u = path.join(FLEET, 'lnx-u01', 'home', 'u', '.cline', 'data');
    const state = JSON.parse(fs.readFileSync(path.join(u, 'globalState.json'), 'utf8'));
    const expected: string[] = [];
    // every command or edits outside the workspace approved, while auto-approval is on (sql/40 safety_off)
    const auto = state.autoApprovalSettings;
    for (const action of ['executeAllCommands', 'editFilesExternally'])
      if (auto.enabled === true && auto.actions[action] === true)
        expected.push(`lnx-u01 autoApprovalSettings.actions.${action}=true`);
    expect(Object.values(auto.actions).filter((on) => on === true).length).toBeGreaterThan(expected.length);
    const mcpFiles: [string, string][] = [
      ['lnx-u01', path.join(u, 'settings', 'cline_mcp_settings.json')],
      [
        'mac-bob',
        path.join(
          FLEET,
          'mac-bob/Users/bob/Library/Application Support/Cursor/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json',
        ),
      ],
    ];
    for (const [host, file] of mcpFiles) {
      const servers = JSON.parse(fs.readFileSync(file, 'utf8')).mcpServers as Record<string, { autoApprove?: string[] }>;
      for (const [name, server] of Object.entries(servers))
        for (const tool of server.autoApprove ?? []) expected.push(`${host} mcpServers.${name}.autoApprove=${tool}`);
    }
    const rows = tableRows(byId(doc, 'safety'));
    expect(rows.map((r) => `${r[0]} ${r[3]}`).sort()).toEqual(expected.sort());
    // every one of those files is Cline's own (~/.cline, the extension saoudrizwan.claude-dev): the agent column says so
    expect(rows.map((r) => r[1])).toEqual(rows.map(() => 'cline'));
  });

  it('has one closed timeline per session, each with every row of a session under the cap', async () => {
    const counts = await sql(out, 'select host, session_id, count(*) as n from events where session_id is not null group by all');
    const details = elements(byId(doc, 'sessions')).filter((e) => e.tagName === 'details');
    expect(details).toHaveLength(counts.length);
    expect(details.every((d) => !d.attrs.some((a) => a.name === 'open'))).toBe(true);
    const shown = details.map((d) => tableRows(d).length).reduce((a, b) => a + b, 0);
    expect(shown).toBe(counts.reduce((a, c) => a + Math.min(Number(c.n), DEFAULT_CAPS.rowsPerSession), 0));
  });
});

describe('the agent of each session', () => {
  it("names each session's agent in its timeline's summary, as sessions holds it", async () => {
    const sessions = await sql(out, 'select host, session_id, agent from sessions where session_id is not null');
    const summaries = elements(byId(doc, 'sessions'))
      .filter((e) => e.tagName === 'summary')
      .map((e) => textOf(e));
    expect(sessions.length).toBeGreaterThan(0);
    for (const s of sessions) {
      const mine = summaries.filter((t) => t.startsWith(`${s.host} · ${s.session_id} ·`));
      expect(mine, `${s.host} ${s.session_id}`).toHaveLength(1);
      expect(mine[0]).toContain(` · ${s.agent} · `);
    }
  });
});

describe('a warehouse without rows', () => {
  it('makes a page with zeros, no chart and the host whose image held no Cline data', async () => {
    const fleet = path.join(tmp, 'empty-fleet');
    fs.mkdirSync(path.join(fleet, 'bare', 'home', 'x'), { recursive: true });
    const emptyOut = path.join(tmp, 'empty-out');
    await loadFleet(fleet, emptyOut);
    const { doc: empty } = await makeReport(emptyOut, path.join(tmp, 'empty.html'));
    for (const id of ['glance-hosts', 'glance-sessions', 'glance-rows']) expect(figure(empty, id)).toBe(0);
    expect(figure(empty, 'glance-host-images')).toBe(1);
    expect(textOf(byId(empty, 'activity'))).toContain('No dated session: nothing to chart.');
    expect(tableRows(byId(empty, 'activity'))).toEqual([['bare', 'no Cline data', '0', '0', '-', '-', '']]);
  });
});

describe('caps', () => {
  it('cuts a long timeline and gives the command that prints all of it', async () => {
    const caps = { ...DEFAULT_CAPS, sessions: 2, rowsPerSession: 1, commands: 2 };
    const data = await readReport(out, caps, fs.mkdtempSync(path.join(tmp, 'spill-')));
    const capped = parse(renderReport(data));
    const details = elements(byId(capped, 'sessions')).filter((e) => e.tagName === 'details');
    expect(details).toHaveLength(2);
    const [{ n: sessions }] = await sql(out, 'select count(*) as n from sessions');
    expect(textOf(byId(capped, 'sessions'))).toContain(`2 of ${sessions} sessions shown (page cap).`);
    expect(tableRows(byId(capped, 'commands'))).toHaveLength(2);
    for (const d of details) {
      // the chosen sessions (the latest two) have two rows or more each
      expect(tableRows(d)).toHaveLength(1);
      const more = elements(d).find((e) => e.tagName === 'p' && textOf(e).includes('more rows:'));
      expect(more).toBeDefined();
      const line = textOf(more!);
      const command = line.slice(line.indexOf('clinetrail query'));
      // the command as a shell would split it: clinetrail query --out OUT "SQL"
      const m = /^clinetrail query --out (\S+) "(.*)"$/.exec(command);
      expect(m, command).not.toBeNull();
      const all = await queryInProcess(out, m![2], 'json');
      const total = all.stdout.trim().split('\n').length;
      expect(Number(line.split(' ')[0].replace(/,/g, ''))).toBe(total - 1);
    }
  });
});

describe('the command line', () => {
  it('refuses to replace --to without --force (exit 2) and replaces it with --force', async () => {
    const to = path.join(tmp, 'again.html');
    fs.writeFileSync(to, 'old');
    const refused = await cli(['report', '--out', out, '--to', to]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(`clinetrail: report: --to ${to} exists (--force replaces it)\n`);
    expect(fs.readFileSync(to, 'utf8')).toBe('old');
    const forced = await cli(['report', '--out', out, '--to', to, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(fs.readFileSync(to, 'utf8')).toMatch(/^<!doctype html>/);
    expect(fs.readdirSync(tmp).filter((f) => f.startsWith('.clinetrail-report-'))).toEqual([]);
  });

  it('refuses a --to inside OUT and a warehouse that does not exist', async () => {
    const inside = await cli(['report', '--out', out, '--to', path.join(out, 'r.html')]);
    expect(inside.code).toBe(2);
    expect(fs.existsSync(path.join(out, 'r.html'))).toBe(false);
    const none = await cli(['report', '--out', path.join(tmp, 'nothing'), '--to', path.join(tmp, 'n.html')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^clinetrail: report: --out .*nothing not found\n$/);
    expect(fs.existsSync(path.join(tmp, 'n.html'))).toBe(false);
  });

  it('report -h lists its options; a missing --to is refused with one line, exit 2', async () => {
    const help = await cli(['report', '-h']);
    expect(help.code, help.stderr).toBe(0);
    for (const text of ['--out', '--to', '--force', 'Content-Security-Policy']) expect(help.stdout).toContain(text);
    const missing = await cli(['report', '--out', out]);
    expect([missing.code, missing.stdout]).toEqual([2, '']);
    expect(missing.stderr).toMatch(/^clinetrail: Missing required argument: to \(see clinetrail --help\)\n$/);
  });

  it('prints the same UTC times whatever TZ the process has', () => {
    const to = path.join(tmp, 'chatham.html');
    const run = spawnSync(process.execPath, [path.join(REPO, 'dist/src/cli/main.js'), 'report', '--out', out, '--to', to], {
      encoding: 'utf8',
      env: { ...process.env, TZ: 'Pacific/Chatham' },
    });
    expect(run.status, run.stderr).toBe(0);
    const other = parse(fs.readFileSync(to, 'utf8'));
    for (const id of ['glance-first', 'glance-last']) expect(textOf(byId(other, id))).toBe(textOf(byId(doc, id)));
    expect(tableRows(byId(other, 'activity'))).toEqual(tableRows(byId(doc, 'activity')));
  });
});

describe('the drill-down', () => {
  it('gives each host a section listing its sessions as the warehouse does, linked from the hosts table', async () => {
    const sessions = await sql(out, 'select host, session_id from sessions');
    const [{ n: hosts }] = await sql(out, 'select count(*) as n from hosts');
    const sections = elements(byId(doc, 'byhost')).filter((e) => e.tagName === 'section' && attr(e, 'class') === 'host');
    expect(sections).toHaveLength(Number(hosts));
    const links = elements(byId(doc, 'activity')).filter((e) => e.tagName === 'a');
    for (const section of sections) {
      const host = textOf(elements(section).find((e) => e.tagName === 'h3')!);
      const shown = tableRows(section).map((r) => r[0]);
      expect(shown.sort(), host).toEqual(
        sessions
          .filter((s) => s.host === host)
          .map((s) => String(s.session_id))
          .sort(),
      );
      expect(links.filter((a) => textOf(a) === host).map((a) => attr(a, 'href'))).toEqual([`#${attr(section, 'id')}`]);
    }
  });

  it('cuts the host sections, their lists and the timeline at the caps, with the command that prints the rest', async () => {
    const caps = { ...DEFAULT_CAPS, hostSections: 2, perHost: 1, timelineHosts: 2 };
    const capped = parse(renderReport(await readReport(out, caps, fs.mkdtempSync(path.join(tmp, 'spill-')))));
    // no findings on this OUT: the hosts with most sessions, then by name
    const busiest = await sql(out, 'select host from sessions group by host order by count(*) desc, host limit 2');
    const [{ n: hosts }] = await sql(out, 'select count(*) as n from hosts');
    const sections = elements(byId(capped, 'byhost')).filter((e) => e.tagName === 'section' && attr(e, 'class') === 'host');
    expect(sections.map((s) => textOf(elements(s).find((e) => e.tagName === 'h3')!)).sort()).toEqual(
      busiest.map((b) => String(b.host)).sort(),
    );
    expect(textOf(byId(capped, 'byhost'))).toContain(`2 of ${hosts} hosts have a section shown (page cap).`);
    for (const section of sections) {
      expect(tableRows(section)).toHaveLength(1);
      const line = textOf(elements(section).find((e) => e.tagName === 'p' && textOf(e).includes('more sessions:'))!);
      const m = /^(\d+) more sessions: clinetrail query --out (\S+) "(.*)"$/.exec(line);
      expect(m, line).not.toBeNull();
      expect(m![2]).toBe(out);
      const all = await queryInProcess(out, m![3], 'json');
      expect(all.stdout.trim().split('\n').length).toBe(Number(m![1]) + 1);
    }
    const [{ n: active }] = await sql(
      out,
      'select count(distinct host) as n from sessions where first_timestamp_utc is not null',
    );
    const timeline = byId(capped, 'timeline');
    expect(textOf(timeline)).toContain(`2 of ${active} hosts with a mark shown (page cap).`);
    const labels = elements(timeline).filter((e) => e.tagName === 'text' && elements(e).some((t) => t.tagName === 'title'));
    expect(labels).toHaveLength(2);
  });
});
