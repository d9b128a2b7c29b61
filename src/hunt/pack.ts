/**
 * The hunt pack: `hunts/<id>.sql` at the repository root (beside `sql/`), each one read-only SELECT over
 * the warehouse with a header of `-- key: value` comment lines before it (docs/HUNTS.md). The header is
 * the hunt's documentation: id, title, severity, MITRE ATT&CK techniques, the agents of the Cline family it
 * was checked on, its scope (one host's rows at a time, or the fleet's: how the runner runs it),
 * description, known false positives and the columns it returns. A hunt file with a missing or bad key is an error naming the
 * file, so a broken pack never runs half.
 */
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENT_EXTENSIONS, type AgentId } from '../core/root-kinds.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** `hunts/` beside `src/`, from the sources (src/hunt) or from `dist/src/hunt`. */
export const HUNTS_DIR =
  [path.resolve(HERE, '..', '..', 'hunts'), path.resolve(HERE, '..', '..', '..', 'hunts')].find((d) => existsSync(d)) ??
  path.resolve(HERE, '..', '..', 'hunts');

export const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** The scopes a hunt may declare (`-- scope:`): one host's rows at a time, or the fleet's together. */
export const SCOPES = ['host', 'fleet'] as const;
export type Scope = (typeof SCOPES)[number];

/** One hunt of the pack, as its file declares it. */
export interface Hunt {
  /** The file name without `.sql`: lower case letters, digits and dashes. */
  id: string;
  title: string;
  severity: Severity;
  /** MITRE ATT&CK technique ids (`T1059.004`), possibly none. */
  attack: string[];
  /** The agents of the Cline family its tests check it on (cline, roo-code, kilo-code), at least one. */
  agents: AgentId[];
  description: string;
  falsePositives: string;
  /** The columns its SELECT returns, in order. */
  columns: string[];
  /**
   * What it looks at: `host`, the rows of one host at a time (it runs batch by batch of hosts, each
   * batch in a warehouse of its own: hunt/run.ts), or `fleet`, rows of several hosts together (it runs on
   * fleet.duckdb).
   */
  scope: Scope;
  /** The SELECT, header included (comments), without a trailing semicolon. */
  sql: string;
  /** The file it was read from. */
  file: string;
}

/** The header keys every hunt file must have, in the order they are documented. */
export const HEADER_KEYS = [
  'id',
  'title',
  'severity',
  'attack',
  'agents',
  'scope',
  'description',
  'false_positives',
  'columns',
] as const;
type HeaderKey = (typeof HEADER_KEYS)[number];

/** The columns every hunt must return: what a finding is made of (src/hunt/run.ts adds the hunt's own fields). */
export const FINDING_COLUMNS = ['host', 'session_id', 'row_id', 'timestamp_utc', 'summary', 'source_file'] as const;

const ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const TECHNIQUE = /^T\d{4}(?:\.\d{3})?$/;
const HEADER_LINE = /^--\s*([a-z_]+)\s*:\s?(.*)$/;

/** A fault of the pack: names the file and what is wrong with it. */
export class HuntPackError extends Error {}

function fail(file: string, why: string): never {
  throw new HuntPackError(`hunt ${file}: ${why}`);
}

/**
 * The header of a hunt file: the `-- key: value` lines at its top (blank lines and other comments may sit
 * between them; a line starting `--   ` with no key continues the value before it).
 */
function readHeader(text: string, file: string): Map<HeaderKey, string> {
  const header = new Map<HeaderKey, string>();
  let last: HeaderKey | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (!line.startsWith('--')) break;
    const m = HEADER_LINE.exec(line);
    if (m && (HEADER_KEYS as readonly string[]).includes(m[1])) {
      const key = m[1] as HeaderKey;
      if (header.has(key)) fail(file, `header key '${key}' given twice`);
      header.set(key, m[2].trim());
      last = key;
    } else if (last !== null && /^--\s{2,}\S/.test(raw.trimStart())) {
      header.set(last, `${header.get(last)} ${line.slice(2).trim()}`);
    } else {
      last = null;
    }
  }
  return header;
}

/** Parses and validates one hunt file's text; `file` names it in errors. */
export function parseHunt(text: string, file: string): Hunt {
  const header = readHeader(text, file);
  const missing = HEADER_KEYS.filter((k) => !header.has(k));
  if (missing.length > 0) fail(file, `header lacks ${missing.map((k) => `'-- ${k}:'`).join(', ')}`);
  const get = (key: HeaderKey) => header.get(key) ?? '';
  for (const key of ['id', 'title', 'severity', 'scope', 'description', 'false_positives', 'columns'] as const) {
    if (get(key) === '') fail(file, `header '${key}' is empty`);
  }
  const id = get('id');
  if (!ID.test(id)) fail(file, `id '${id}' is not lower case words joined by dashes`);
  if (path.basename(file) !== `${id}.sql`) fail(file, `id '${id}' differs from the file name`);
  const severity = get('severity');
  if (!(SEVERITIES as readonly string[]).includes(severity))
    fail(file, `severity '${severity}' is not one of ${SEVERITIES.join(', ')}`);
  const scope = get('scope');
  if (!(SCOPES as readonly string[]).includes(scope)) fail(file, `scope '${scope}' is not one of ${SCOPES.join(', ')}`);
  const attack = get('attack')
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  const badTechnique = attack.find((t) => !TECHNIQUE.test(t));
  if (badTechnique !== undefined) fail(file, `attack '${badTechnique}' is not an ATT&CK technique id (T1234 or T1234.001)`);
  const agents = get('agents')
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '');
  if (agents.length === 0) fail(file, `header 'agents' is empty`);
  const badAgent = agents.find((a) => !Object.hasOwn(AGENT_EXTENSIONS, a));
  if (badAgent !== undefined) fail(file, `agents '${badAgent}' is not one of ${Object.keys(AGENT_EXTENSIONS).join(', ')}`);
  const columns = get('columns')
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');
  const lacking = FINDING_COLUMNS.filter((c) => !columns.includes(c));
  if (lacking.length > 0) fail(file, `columns must name ${lacking.join(', ')}`);
  const sql = text.trimEnd().replace(/;+$/, '').trimEnd();
  if (!/\bselect\b/i.test(sql)) fail(file, 'holds no SELECT');
  return {
    id,
    title: get('title'),
    severity: severity as Severity,
    attack,
    agents: agents as AgentId[],
    description: get('description'),
    falsePositives: get('false_positives'),
    columns,
    scope: scope as Scope,
    sql,
    file,
  };
}

/** Every `*.sql` of `dir` (default: the shipped pack) parsed, sorted by id. */
export async function loadHuntPack(dir: string = HUNTS_DIR): Promise<Hunt[]> {
  const names = (await fs.readdir(dir)).filter((n) => n.endsWith('.sql')).sort();
  const hunts: Hunt[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    hunts.push(parseHunt(await fs.readFile(file, 'utf8'), file));
  }
  return hunts.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
