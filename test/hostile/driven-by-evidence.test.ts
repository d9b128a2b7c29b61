/**
 * sessions.driven_by against evidence that lies or is broken (issue 31 point 5). Each host holds the 3.0.65 CLI's own
 * files of the driven corpus (fixtures/real-producer/driven: the session an MCP bridge ran with a provider/model
 * override, and the providers.json it wrote back), with one thing changed per host: what the change plants decides
 * the expectation. A person's typed prompt wins over any agent code (never agent), a providers.json whose block was
 * written after the session or whose values are of the wrong type is no evidence, and a providers.json that is not
 * JSON costs only itself.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryWarehouse } from '../../src/warehouse/build.js';
import { cli, tempOut } from '../helpers/hunt-run.js';
import { fixture } from '../helpers/source.js';

const CORPUS = fixture('real-producer', 'driven', 'cline-3.0.65');
const present = fs.existsSync(path.join(CORPUS, 'facts.json'));
const facts = present
  ? (JSON.parse(fs.readFileSync(path.join(CORPUS, 'facts.json'), 'utf8')) as {
      sessions: Array<{ id: string; observedSessionId: string; prompts: Array<{ text: string }> }>;
    })
  : { sessions: [] };
const bridge = facts.sessions.find((s) => s.id === 'bridge-override');
const ID = bridge?.observedSessionId ?? '';
const DATA = path.join(CORPUS, 'home', '.cline', 'data');
const temp = tempOut('driven-by-evidence');
let rows = new Map<string, { driven_by: string; evidence: string[] }>();
let parsers: string[] = [];

type Providers = { providers: Record<string, { settings: Record<string, unknown>; updatedAt: string }> };

/** A host whose home holds the bridge's session and `providers` (null: no providers.json), and `extra` files. */
function host(name: string, providers: string | null, extra: Record<string, string> = {}): void {
  const data = path.join(temp.dir, 'fleet', name, 'home', 'u', '.cline', 'data');
  fs.cpSync(path.join(DATA, 'sessions', ID), path.join(data, 'sessions', ID), { recursive: true });
  if (providers !== null) {
    fs.mkdirSync(path.join(data, 'settings'), { recursive: true });
    fs.writeFileSync(path.join(data, 'settings', 'providers.json'), providers);
  }
  for (const [rel, text] of Object.entries(extra)) {
    fs.mkdirSync(path.dirname(path.join(data, rel)), { recursive: true });
    fs.writeFileSync(path.join(data, rel), text);
  }
}

beforeAll(async () => {
  if (!bridge) return;
  const real = fs.readFileSync(path.join(DATA, 'settings', 'providers.json'), 'utf8');
  const edit = (change: (p: Providers) => void): string => {
    const p = JSON.parse(real) as Providers;
    change(p);
    return JSON.stringify(p, null, 2);
  };
  const manifest = JSON.parse(fs.readFileSync(path.join(DATA, 'sessions', ID, `${ID}.json`), 'utf8')) as {
    started_at: string;
    ended_at: string;
  };
  host('restored', real);
  // the TUI's own line for the session's prompt, as the TUI writes it, half a second after the session started
  const typed = `${JSON.stringify({ prompt: bridge.prompts[0].text, ts: Date.parse(manifest.started_at) + 500 })}\n`;
  host('typed-and-restored', real, { 'cache/user_input_history.jsonl': typed });
  // a later `cline auth` wrote the block an hour after the session: the file says nothing about the session
  const later = new Date(Date.parse(manifest.ended_at) + 3_600_000).toISOString();
  host(
    'written-later',
    edit((p) => {
      p.providers['openai-native'].updatedAt = later;
    }),
  );
  host(
    'wrong-types',
    edit((p) => {
      p.providers['openai-native'].updatedAt = 'yesterday';
      p.providers['openai-compatible'].settings.model = 42;
    }),
  );
  host('providers-an-array', JSON.stringify({ lastUsedProvider: { x: 1 }, providers: [] }));
  host('cut', real.slice(0, Math.floor(real.length / 2)));
  const load = await cli(['load', '--fleet', path.join(temp.dir, 'fleet'), '--out', temp.out]);
  expect(load.code, load.stderr).toBe(0);
  const result = await queryWarehouse(temp.out, 'select host, driven_by, driven_by_evidence from sessions');
  rows = new Map(result.rows.map((r) => [r[0] as string, { driven_by: r[1] as string, evidence: [...(r[2] as string[])] }]));
  const p = await queryWarehouse(temp.out, "select host from events where kind = 'parser' order by host");
  parsers = p.rows.map((r) => r[0] as string);
});

afterAll(() => temp.remove());

describe.skipIf(!bridge)('driven_by on planted and broken evidence (no driven corpus: make real-corpus MAJORS=driven)', () => {
  it('calls the bridge session agent on the files as the bridge left them', () => {
    expect(rows.get('restored')).toEqual({ driven_by: 'agent', evidence: ['providers_json_restored', 'non_interactive'] });
  });

  it('never calls a session agent when a person typed its prompt into the TUI: unknown, both codes kept', () => {
    expect(rows.get('typed-and-restored')).toEqual({
      driven_by: 'unknown',
      evidence: ['typed_in_tui', 'providers_json_restored', 'non_interactive'],
    });
  });

  it('takes no evidence from a provider block written after the session, or from values of the wrong type', () => {
    for (const name of ['written-later', 'wrong-types', 'providers-an-array'])
      expect([name, rows.get(name)]).toEqual([name, { driven_by: 'unknown', evidence: ['non_interactive'] }]);
  });

  it('costs a providers.json that is not JSON only itself: one parser row, the session still there', () => {
    expect(parsers).toEqual(['cut']);
    expect(rows.get('cut')).toEqual({ driven_by: 'unknown', evidence: ['non_interactive'] });
  });
});
