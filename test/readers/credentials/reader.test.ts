/**
 * readers/credentials/reader.ts on fixtures/credentials/ (invented, FAKE-VALUE- values), found by discovery:
 * one `credential file:` row per file with key names only, never a value.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverImage, storeOf } from '../../../src/discover/discover.js';
import { credentialText, MAX_KEYS, readCredentials } from '../../../src/readers/credentials/reader.js';
import type { Row } from '../../../src/core/row.js';
import { collect, fixture, listFiles, makeSource } from '../../helpers/source.js';

const IMG = fixture('credentials', 'img');
const DATA = 'home/u/.cline/data';
const VSCODE = 'home/u/.config/Code/User/globalStorage/saoudrizwan.claude-dev';
const mtimeMs = (rel: string): number => Math.trunc(statSync(path.join(IMG, rel)).mtimeMs);

/** Every value of the fixture files: strings that must never reach a row. */
const FAKE_VALUES = listFiles(IMG).flatMap((f) => readFileSync(f, 'utf8').match(/FAKE-VALUE-[a-z]+-\d{4}/g) ?? []);

const tmpDirs: string[] = [];
afterAll(() => {
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
});

describe('discovery maps credential files to the credentials store', () => {
  it('storeOf: cline-data and globalStorage paths', () => {
    expect(storeOf('secrets.json', 'cline-data')).toBe('credentials');
    expect(storeOf('settings/providers.json', 'cline-data')).toBe('credentials');
    expect(storeOf('connectors/settings.json', 'cline-data')).toBe('credentials');
    expect(storeOf('cache/remote_config_org-1234.json', 'vscode-globalstorage')).toBe('credentials');
    expect(storeOf('cache/remote_config_org-1234.json', 'cline-data')).toBe('unread');
    expect(storeOf('secrets.json', 'vscode-globalstorage')).toBe(null);
    expect(storeOf('settings/cline_mcp_settings.json', 'cline-data')).toBe('settings');
  });

  it('finds the five files of the fixture in three sources, Documents/Cline included', async () => {
    const found = await discoverImage({ host: 'h', root: IMG });
    expect(found.problems).toEqual([]);
    const creds = found.sources.filter((s) => s.store === 'credentials');
    expect(
      creds.map((s) => [path.relative(IMG, s.root), s.home, s.client, s.role, s.files.map((f) => path.relative(IMG, f))]),
    ).toEqual([
      [
        'home/u/.cline/data',
        'home/u',
        'cline',
        'primary',
        [`${DATA}/connectors/settings.json`, `${DATA}/secrets.json`, `${DATA}/settings/providers.json`],
      ],
      [VSCODE, 'home/u', 'vscode', 'primary', [`${VSCODE}/cache/remote_config_org-1234.json`]],
      ['home/u/Documents/Cline', 'home/u', '-', 'primary', ['home/u/Documents/Cline/webhook_config.json']],
    ]);
  });
});

describe('readCredentials', async () => {
  const found = await discoverImage({ host: 'h', root: IMG });
  const rows: Row[] = [];
  for (const source of found.sources.filter((s) => s.store === 'credentials'))
    rows.push(...(await collect(readCredentials, source)));

  it('writes one credential_file system row per file, at the file mtime, with key names only', () => {
    expect(
      rows
        .filter((r) => r.kind === 'credential_file')
        .map((r) => [r.source_file, r.turn_type, r.kind, r.timestamp_utc, r.is_error, r.session_id, r.text]),
    ).toEqual([
      [
        `${DATA}/connectors/settings.json`,
        'system',
        'credential_file',
        mtimeMs(`${DATA}/connectors/settings.json`),
        null,
        null,
        'credential file: .cline/data/connectors/settings.json keys=slack.botToken,slack.channel',
      ],
      [
        `${DATA}/secrets.json`,
        'system',
        'credential_file',
        mtimeMs(`${DATA}/secrets.json`),
        null,
        null,
        'credential file: .cline/data/secrets.json keys=apiKey,openRouterApiKey,awsAccessKey,awsSecretKey,clineAccountId',
      ],
      [
        `${DATA}/settings/providers.json`,
        'system',
        'credential_file',
        mtimeMs(`${DATA}/settings/providers.json`),
        null,
        null,
        'credential file: .cline/data/settings/providers.json keys=version,lastUsedProvider,' +
          'providers.anthropic.settings.provider,providers.anthropic.settings.apiKey,providers.anthropic.settings.model,' +
          'providers.openai-compatible.settings.baseUrl,providers.openai-compatible.settings.apiKey,providers.openai-compatible.settings.headers.X-Org,' +
          'fallbacks[].provider,fallbacks[].apiKey,fallbacks[].region,disabled[]',
      ],
      [
        `${VSCODE}/cache/remote_config_org-1234.json`,
        'system',
        'credential_file',
        mtimeMs(`${VSCODE}/cache/remote_config_org-1234.json`),
        null,
        null,
        'credential file: .config/Code/User/globalStorage/saoudrizwan.claude-dev/cache/remote_config_org-1234.json keys=organizationId,providerSettings.apiKey',
      ],
      [
        'home/u/Documents/Cline/webhook_config.json',
        'system',
        'credential_file',
        mtimeMs('home/u/Documents/Cline/webhook_config.json'),
        null,
        null,
        'credential file: Documents/Cline/webhook_config.json keys=url,secret',
      ],
    ]);
  });

  it('never puts a value in any column of any row', () => {
    expect(FAKE_VALUES.length).toBe(14);
    const everything = JSON.stringify(rows);
    for (const value of FAKE_VALUES) expect(everything).not.toContain(value);
    expect(everything).not.toContain('FAKE-VALUE');
    expect(everything).not.toContain('llm.example.com');
  });

  it("reads of providers.json only its provider defaults: the default provider and each provider's model", () => {
    const defaults = rows.filter((r) => r.kind !== 'credential_file');
    expect(
      defaults.map((r) => [
        r.source_file,
        r.kind,
        r.timestamp_utc,
        r.timestamp_source,
        r.provider,
        r.model,
        r.setting_name,
        r.setting_value,
      ]),
    ).toEqual([
      [
        `${DATA}/settings/providers.json`,
        'provider_default',
        mtimeMs(`${DATA}/settings/providers.json`),
        'file_mtime',
        'anthropic',
        null,
        'lastUsedProvider',
        'anthropic',
      ],
      // no updatedAt in this file: the time its block was written is unknown
      [
        `${DATA}/settings/providers.json`,
        'provider_default',
        null,
        null,
        'anthropic',
        'claude-sonnet-4-5',
        'providers.anthropic.settings.model',
        'claude-sonnet-4-5',
      ],
    ]);
  });

  it('a file that is not JSON is one parser row that does not quote the file; odd keys are quoted, long lists cut', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-creds-'));
    tmpDirs.push(tmp);
    const root = path.join(tmp, 'home/u/.cline/data');
    mkdirSync(root, { recursive: true });
    writeFileSync(path.join(root, 'secrets.json'), '{"apiKey": "FAKE-VALUE-broken-9999"');
    const bad = await collect(readCredentials, makeSource({ store: 'credentials', imageRoot: tmp, root }));
    expect(bad.map((r) => [r.kind, r.is_error, r.text])).toEqual([
      ['parser', true, 'parser: home/u/.cline/data/secrets.json: not valid JSON'],
    ]);
    expect(JSON.stringify(bad)).not.toContain('FAKE-VALUE');

    expect(credentialText('f', { 'a,b': 1, 'x.y': { 'line\nbreak': 2 }, ok: [[1]], empty: {} })).toBe(
      'credential file: f keys="a,b","x.y"."line\\nbreak",ok[][],empty',
    );
    expect(credentialText('f', 'just a string')).toBe('credential file: f keys=(none)');
    const many = Object.fromEntries(Array.from({ length: MAX_KEYS + 5 }, (_, i) => [`k${i}`, i]));
    expect(credentialText('f', many)).toMatch(/keys=k0,k1,.*,k199 \(\+5 more\)$/);
  });
});
