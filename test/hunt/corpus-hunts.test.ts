/**
 * The hunt pack on the demo fleet (fixtures/fleet) and on the homes the released Cline CLIs wrote
 * (fixtures/real-producer), loaded as one fleet and hunted by the real command. The expected findings are
 * read from the fixtures themselves: the demo fleet's settings files and its README's list of sessions
 * whose transcript left the host; the real homes' task settings, globalState.json, MCP settings, agenda policy
 * (tasks.db), the 3.x manifests and hub session records that say a session was non-interactive, and the hub event
 * log (the hook answers that auto-approved a tool call). Nothing else in the demo fleet or in the corpus's ordinary
 * sessions is a finding: the demo's one destructive command (`sudo rm -rf` on 0042) was not approved, and those
 * sessions did ordinary work (ls, git log, a failing check script, file reads and writes). The corpus's attack
 * sessions are test/e2e/attack-scenarios.test.ts's.
 */
import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, type StoredFinding, storedFindings, tempOut } from '../helpers/hunt-run.js';
import { copyHome, corpora } from '../helpers/real-corpus.js';

const DEMO = path.resolve('fixtures/fleet');
const CORPORA = corpora();
const temp = tempOut('hunt-corpus');
let findings: StoredFinding[] = [];

const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
const key = (hunt: string, host: string, session: string | null, what: string) =>
  `${hunt} | ${host} | ${session ?? '-'} | ${what}`;

/** The findings of the pack, as (hunt, host, session, file) keys. */
const found = (hunt: string) =>
  findings
    .filter((f) => f.hunt_id === hunt)
    .map((f) => key(hunt, f.host, f.session_id, f.source_file ?? '-'))
    .sort();

/** Every `cline_mcp_settings.json` and `globalState.json` of an image, relative to it. */
function settingsFiles(image: string, name: string): string[] {
  return (fs.readdirSync(image, { recursive: true }) as string[])
    .filter((f) => path.basename(f) === name)
    .map((f) => f.split(path.sep).join('/'));
}

beforeAll(async () => {
  const fleet = path.join(temp.dir, 'fleet');
  fs.cpSync(DEMO, fleet, { recursive: true });
  fs.rmSync(path.join(fleet, 'README.md'));
  for (const c of CORPORA) copyHome(c, path.join(fleet, c.name));
  const load = await cli(['load', '--fleet', fleet, '--out', temp.out]);
  expect(load.code, load.stderr).toBe(0);
  const hunt = await cli(['hunt', '--out', temp.out]);
  expect(hunt.code, hunt.stderr).toBe(0);
  findings = await storedFindings(temp.out);
});

afterAll(() => temp.remove());

describe('the hunt pack on the demo fleet and the real-producer homes', () => {
  it('safety-turned-off: the settings that approve every command, MCP tools approved for good, yolo tasks and hook approvals', () => {
    const expected: string[] = [];
    for (const host of fs.readdirSync(DEMO).filter((h) => fs.statSync(path.join(DEMO, h)).isDirectory())) {
      const image = path.join(DEMO, host);
      for (const file of settingsFiles(image, 'globalState.json')) {
        const auto = readJson(path.join(image, file)).autoApprovalSettings as
          | { enabled?: boolean; actions?: Record<string, boolean> }
          | undefined;
        for (const action of ['executeAllCommands', 'editFilesExternally'])
          if (auto?.enabled === true && auto.actions?.[action] === true)
            expected.push(key('safety-turned-off', host, null, file));
      }
      for (const file of settingsFiles(image, 'cline_mcp_settings.json')) {
        const servers = readJson(path.join(image, file)).mcpServers as Record<
          string,
          { autoApprove?: string[]; alwaysAllow?: string[] }
        >;
        for (const server of Object.values(servers))
          for (const _tool of [...(server.autoApprove ?? []), ...(server.alwaysAllow ?? [])])
            expected.push(key('safety-turned-off', host, null, file));
      }
    }
    for (const c of CORPORA) {
      const data = path.join(c.home, '.cline', 'data');
      const state = path.join(data, 'globalState.json');
      if (fs.existsSync(state) && readJson(state).yoloModeToggled === true)
        expected.push(key('safety-turned-off', c.name, null, '.cline/data/globalState.json'));
      const servers = readJson(path.join(data, 'settings', 'cline_mcp_settings.json')).mcpServers as Record<
        string,
        { autoApprove?: string[]; alwaysAllow?: string[] }
      >;
      for (const server of Object.values(servers ?? {}))
        for (const _tool of [...(server.autoApprove ?? []), ...(server.alwaysAllow ?? [])])
          expected.push(key('safety-turned-off', c.name, null, '.cline/data/settings/cline_mcp_settings.json'));
      // 3.x: a session whose own metadata says nobody can answer its approvals (the CLI's one-shot runs), from its
      // manifest, or from the hub's session record where the manifest is gone (the deleted session)
      const manifests = new Set<string>();
      const sessions = path.join(data, 'sessions');
      for (const id of fs.existsSync(sessions) ? fs.readdirSync(sessions) : []) {
        const file = path.join(sessions, id, `${id}.json`);
        if (!fs.existsSync(file)) continue;
        manifests.add(id);
        if ((readJson(file).metadata as { interactive?: unknown } | undefined)?.interactive === false)
          expected.push(key('safety-turned-off', c.name, id, `.cline/data/sessions/${id}/${id}.json`));
      }
      const tasks = path.join(data, 'tasks');
      for (const id of fs.existsSync(tasks) ? fs.readdirSync(tasks) : []) {
        const file = path.join(tasks, id, 'settings.json');
        if (fs.existsSync(file) && readJson(file).yoloModeToggled === true)
          expected.push(key('safety-turned-off', c.name, id, `.cline/data/tasks/${id}/settings.json`));
      }
      // the 3.x agenda's automation policy, when it lets agents start tasks unattended
      const tasksDb = path.join(data, 'db', 'tasks.db');
      if (fs.existsSync(tasksDb)) {
        const copy = path.join(temp.dir, `${c.name}-tasks.db`);
        fs.copyFileSync(tasksDb, copy);
        const sqlite = new Database(copy, { readonly: true });
        for (const row of sqlite.prepare('select mode from agenda_task_automation').all() as { mode: string }[])
          if (['auto_start', 'unattended'].includes(row.mode))
            expected.push(key('safety-turned-off', c.name, null, '.cline/data/db/tasks.db'));
        sqlite.close();
      }
      // the hub's hook answers: capability.resolved of a hook.* capability whose control says autoApprove
      const db = path.join(data, 'db');
      for (const name of fs.existsSync(db) ? fs.readdirSync(db).filter((n) => /^hub-events.*\.db$/.test(n)) : []) {
        const copy = path.join(temp.dir, `${c.name}-${name}`);
        fs.copyFileSync(path.join(db, name), copy);
        const sqlite = new Database(copy, { readonly: true });
        const created = new Set<string>();
        for (const row of sqlite
          .prepare("select session_id, envelope_json from hub_events where event = 'session.created' order by sequence")
          .all() as { session_id: string; envelope_json: string }[]) {
          if (manifests.has(row.session_id) || created.has(row.session_id)) continue;
          created.add(row.session_id);
          const envelope = JSON.parse(row.envelope_json) as { payload: { session?: { metadata?: { interactive?: unknown } } } };
          if (envelope.payload.session?.metadata?.interactive === false)
            expected.push(key('safety-turned-off', c.name, row.session_id, `.cline/data/db/${name}`));
        }
        for (const row of sqlite
          .prepare("select session_id, envelope_json from hub_events where event = 'capability.resolved'")
          .all() as {
          session_id: string;
          envelope_json: string;
        }[]) {
          const payload = (JSON.parse(row.envelope_json) as { payload: { capabilityName: string; payload?: unknown } }).payload;
          const policy = (payload.payload as { control?: { policy?: { autoApprove?: boolean } } } | undefined)?.control?.policy;
          if (payload.capabilityName.startsWith('hook.') && policy?.autoApprove === true)
            expected.push(key('safety-turned-off', c.name, row.session_id, `.cline/data/db/${name}`));
        }
        sqlite.close();
      }
    }
    // the 1.0.x runs left yolo in the settings of the tasks the driver created with -y (corpus/README.md)
    expect(expected.filter((k) => k.includes('cline-1.0.10') && k.endsWith('/settings.json')).length).toBeGreaterThan(6);
    expect(found('safety-turned-off')).toEqual(expected.sort());
  });

  it('transcript-left-host: the sessions fixtures/fleet/README.md says left the host', () => {
    expect(found('transcript-left-host').map((k) => k.split(' | ').slice(1, 3).join(' '))).toEqual(
      [
        'WIN-ALICE01 1760100000000', // the extension's upload queue, item synced
        'lnx-u01 1760000500000_gone3', // sessions.db: enterprise upload to s3 (manifest gone)
        'lnx-u01 1760001000000_ent6b', // enterprise.blobUpload to r2
        'lnx-u01 ses-01JCLOUDDONE', // Cline Cloud, from globalState.json cloudSessionStatuses
        'lnx-u01 ses-01JCLOUDWAIT', // Cline Cloud, a pending start
      ].sort(),
    );
  });

  it('finds nothing else in the demo fleet and the ordinary sessions of the real homes', () => {
    const attackSessions = new Set(
      CORPORA.flatMap((c) =>
        (c.facts.sessions as Array<{ role?: string; observedSessionId: string | null }>)
          .filter((s) => s.role !== undefined && s.role !== 'ordinary')
          .map((s) => `${c.name} ${s.observedSessionId}`),
      ),
    );
    expect(attackSessions.size).toBeGreaterThan(20);
    expect(
      findings
        .filter((f) => !['safety-turned-off', 'transcript-left-host'].includes(f.hunt_id))
        .filter((f) => !attackSessions.has(`${f.host} ${f.session_id}`))
        .map((f) => `${f.hunt_id}: ${f.summary}`),
    ).toEqual([]);
  });

  it('every finding points at a row of events', () => {
    expect(findings.filter((f) => !f.in_events)).toEqual([]);
  });
});

const SHARED = path.resolve('../shared/real-cline');
const HAS_SHARED = fs.existsSync(path.join(SHARED, 'session_session.json'));

describe('the hunt pack on the real Cline session (../shared/real-cline)', () => {
  it('finds nothing in a session of ordinary UI work (file reads and edits of a React sidebar, one grep)', async (ctx) => {
    if (!HAS_SHARED) return ctx.skip(`the real SDK session is not here: ${SHARED} is absent (a fresh clone has no ../shared)`);
    const sid = (readJson(path.join(SHARED, 'session_session.json')) as { session_id: string }).session_id;
    const real = tempOut('hunt-real');
    try {
      const folder = path.join(real.dir, 'fleet', 'real', 'home', 'u', '.cline', 'data', 'sessions', sid);
      fs.mkdirSync(folder, { recursive: true });
      fs.copyFileSync(path.join(SHARED, 'session_session.json'), path.join(folder, `${sid}.json`));
      fs.copyFileSync(path.join(SHARED, 'session_session.messages.json'), path.join(folder, `${sid}.messages.json`));
      expect((await cli(['load', '--fleet', path.join(real.dir, 'fleet'), '--out', real.out])).code).toBe(0);
      const hunt = await cli(['hunt', '--out', real.out, '--format', 'json']);
      expect(hunt.code, hunt.stderr).toBe(0);
      expect(await storedFindings(real.out)).toEqual([]);
    } finally {
      real.remove();
    }
  });
});
