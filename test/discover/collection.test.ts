/**
 * The logical paths of an archive's members (discover/collection.ts) and the discovery walk over a listing
 * (discover/tree.ts): Velociraptor's escapes decoded only inside a Velociraptor collection, `uploads/<accessor>/`
 * and the ntfs accessor's device prefix dropped, paths that would leave the image never mapped, and the
 * stores of a listing found as in a folder.
 */
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeComponent, logicalListing, logicalPath, velociraptorPrefix } from '../../src/discover/collection.js';
import { discoverImage } from '../../src/discover/discover.js';
import type { ArchiveMember } from '../../src/evidence/archive.js';

const file = (name: string): ArchiveMember => ({ name, kind: 'file', size: 1, mtime_ms: 0 });

describe('Velociraptor path escapes', () => {
  it('decodes %XX as UTF-8 bytes and keeps what is no escape', () => {
    expect(decodeComponent('%2Ecline')).toBe('.cline');
    expect(decodeComponent('C%3A')).toBe('C:');
    expect(decodeComponent('%E4%BD%A0%E5%A5%BD')).toBe('你好');
    expect(decodeComponent('100%')).toBe('100%');
    expect(decodeComponent('%zz')).toBe('%zz');
  });

  it('drops uploads/<accessor>/ and the \\\\.\\ device prefix; splits the separators a component held', () => {
    expect(logicalPath('uploads/auto/C%3A/Users/alice/%2Ecline/data', '')).toBe('C:/Users/alice/.cline/data');
    expect(logicalPath('uploads/ntfs/%5C%5C.%5CC%3A/Users/alice', '')).toBe('C:/Users/alice');
    expect(logicalPath('uploads/auto/home/u/%2Ecline/data/db/sessions.db', '')).toBe('home/u/.cline/data/db/sessions.db');
    expect(logicalPath('col/uploads/file/home/u/x', 'col/')).toBe('home/u/x');
  });

  it('maps no collection metadata and no path that leaves the image', () => {
    expect(logicalPath('client_info.json', '')).toBeNull();
    expect(logicalPath('results/Generic.Collectors.File.json', '')).toBeNull();
    expect(logicalPath('uploads/auto/home/%2E%2E/%2E%2E/etc/passwd', '')).toBeNull();
    expect(logicalPath('../escape', null)).toBeNull();
  });

  it('keeps a literal % outside a Velociraptor collection', () => {
    expect(logicalPath('./home/u/100%2Efiles/a.json', null)).toBe('home/u/100%2Efiles/a.json');
    const names = new Set(['home/u/.cline/data/x', 'uploads/auto/y']);
    expect(velociraptorPrefix(names)).toBeNull();
    expect(velociraptorPrefix(new Set(['c1/client_info.json', 'c1/uploads/auto/y']))).toBe('c1/');
    expect(velociraptorPrefix(new Set(['uploads.json', 'uploads/auto/y']))).toBe('');
    // a collection folder tarred as `tar -C dir .`: every member starts with ./
    expect(velociraptorPrefix(new Set(['./client_info.json', './uploads/auto/y']))).toBe('./');
    expect(logicalPath('./uploads/auto/home/u/%2Ecline/x', './')).toBe('home/u/.cline/x');
  });
});

describe('discovery over a listing', () => {
  it('finds the stores of an encoded collection under its staging folder, with decoded home and raw member names', async () => {
    const members = [
      file('client_info.json'),
      file('uploads/auto/home/u/%2Ecline/data/cache/user_input_history.jsonl'),
      file('uploads/auto/home/u/%2Ecline/data/logs/hooks.jsonl'),
      file(
        'uploads/auto/C%3A/Users/alice/AppData/Roaming/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1/ui_messages.json',
      ),
      { name: 'uploads/auto/home/u/%2Ecline/data/cache', kind: 'dir', size: 0, mtime_ms: null } as ArchiveMember,
    ];
    const stagingRoot = path.join('/nonexistent', 'staging');
    const found = await discoverImage({
      host: 'h',
      root: '/cases/h.zip',
      collection: {
        archive: { path: '/cases/h.zip', format: 'zip', size: 10, mtime_ms: 5 },
        stagingRoot,
        listing: logicalListing(members),
        error: null,
      },
    });
    expect(found.problems).toEqual([]);
    expect(found.sources.map((s) => [s.store, s.home, s.client, s.imageRoot])).toEqual([
      ['vscode-tasks', 'C:/Users/alice', 'vscode', stagingRoot],
      ['hooks-log', 'home/u', 'cline', stagingRoot],
      ['input-history', 'home/u', 'cline', stagingRoot],
    ]);
    const hooks = found.sources.find((s) => s.store === 'hooks-log')!;
    expect(hooks.files).toEqual([path.join(stagingRoot, 'home/u/.cline/data/logs/hooks.jsonl')]);
    expect(hooks.archive).toEqual({
      path: '/cases/h.zip',
      format: 'zip',
      size: 10,
      mtime_ms: 5,
      members: { 'home/u/.cline/data/logs/hooks.jsonl': 'uploads/auto/home/u/%2Ecline/data/logs/hooks.jsonl' },
      member_sizes: { 'home/u/.cline/data/logs/hooks.jsonl': 1 },
    });
  });

  it('turns an archive that could not be listed into one problem naming it', async () => {
    const found = await discoverImage({
      host: 'h',
      root: '/cases/h.tar.gz',
      collection: {
        archive: { path: '/cases/h.tar.gz', format: 'tar', size: 10, mtime_ms: 5 },
        stagingRoot: '/nonexistent',
        listing: null,
        error: 'unexpected end of file',
      },
    });
    expect(found).toEqual({
      sources: [],
      problems: [
        {
          host: 'h',
          store: null,
          file: '/cases/h.tar.gz',
          message: 'archive not readable (/cases/h.tar.gz): unexpected end of file',
        },
      ],
      fault: 'unreadable',
    });
  });
});
