/**
 * evidence/sqlite-copy.ts and evidence/private-folders.ts: the private copy tells the evidence's faults
 * (an Error, a `parser:` row) from clinetrail's own (an OwnFault that ends the load), and the private
 * folders of killed loads are removed while those of live loads are kept. The mounted cases need root
 * and `mount -t tmpfs`; where the machine refuses the mount, they are skipped and say why.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OwnFault, sqliteOwnFault } from '../../src/core/own-fault.js';
import { removeStaleCopies } from '../../src/evidence/private-folders.js';
import { readSessionsDb } from '../../src/readers/sessions-db/reader.js';
import { copyEvidence, openPrivateCopy } from '../../src/evidence/sqlite-copy.js';
import { collect, makeSource } from '../helpers/source.js';
import { writeSessionsDb } from '../helpers/sqlite-fixtures.js';
import { mountTmpfs, unmountAll } from '../helpers/tmpfs.js';
import { useImages } from '../helpers/temp-images.js';

const image = useImages();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'clinetrail-copytest-'));
afterAll(() => {
  unmountAll();
  fs.rmSync(work, { recursive: true, force: true });
});

const sessions = [1, 2, 3].map((n) => ({ session_id: `1760000000000_s${n}`, started_at: '2026-10-03T10:00:00.000Z' }));

describe('copyEvidence', () => {
  it("reports an error reading the evidence as the evidence's (an Error, not an OwnFault)", () => {
    // A folder opens for reading but every read fails (EISDIR): the read side of the loop fails.
    const fd = fs.openSync(work, 'r');
    try {
      let thrown: unknown = null;
      try {
        copyEvidence(fd, '/image/sessions.db', path.join(work, 'copy.db'), work);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(Error);
      expect(thrown).not.toBeInstanceOf(OwnFault);
      expect((thrown as Error).message).toMatch(/^reading the file failed at byte 0: EISDIR/);
    } finally {
      fs.closeSync(fd);
    }
  });

  it('reports an error writing the copy as an own fault naming the folder, the errno and the evidence', () => {
    const img = image();
    const file = path.join(img.dbDir, 'sessions.db');
    writeSessionsDb(file, sessions);
    const fd = fs.openSync(file, 'r');
    try {
      // /dev/full accepts the open and fails every write with ENOSPC, like a full temporary folder.
      expect(() => copyEvidence(fd, file, '/dev/full', '/tmp-of-test')).toThrow(OwnFault);
      expect(() => copyEvidence(fd, file, '/dev/full', '/tmp-of-test')).toThrow(
        `load: own temporary folder /tmp-of-test is full (ENOSPC) while copying ${file}`,
      );
    } finally {
      fs.closeSync(fd);
    }
  });
});

describe('openPrivateCopy', () => {
  it('names its folder with the pid of the process', () => {
    const img = image();
    const file = path.join(img.dbDir, 'sessions.db');
    writeSessionsDb(file, sessions);
    const copy = openPrivateCopy(file);
    try {
      expect(path.basename(path.dirname(copy.copyPath))).toMatch(new RegExp(`^clinetrail-sqlite-${process.pid}-[A-Za-z0-9]{6}$`));
    } finally {
      copy.close();
    }
  });

  it('throws an own fault, never a parser row, when the temporary folder cannot hold a private folder', async () => {
    const img = image();
    writeSessionsDb(path.join(img.dbDir, 'sessions.db'), sessions);
    const missing = path.join(work, 'no-such-folder');
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = missing;
    try {
      const read = collect(readSessionsDb, makeSource({ store: 'sessions-db', imageRoot: img.imageRoot, root: img.dataRoot }));
      await expect(read).rejects.toThrow(OwnFault);
      await expect(read).rejects.toThrow(`load: own temporary folder ${missing} does not exist (ENOENT)`);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });

  it('throws an own fault when SQLite cannot write beside the copy (the -shm of a WAL database on a full folder)', (ctx) => {
    const { dir: root, refused } = mountTmpfs(path.join(work, 'tmpfs'), '1m', 'SQLite on a full temporary folder');
    if (root === null) return ctx.skip(refused);
    const img = image();
    const file = path.join(img.dbDir, 'sessions.db');
    writeSessionsDb(file, sessions, { wal: true });
    // Leave room for the database and its -wal, not for the 32 KiB -shm SQLite makes when it opens them.
    const st = fs.statfsSync(root);
    const blocks = (f: string) => Math.ceil(fs.statSync(f).size / st.bsize) * st.bsize;
    fs.writeFileSync(path.join(root, 'filler'), Buffer.alloc(st.bavail * st.bsize - blocks(file) - blocks(`${file}-wal`)));
    let thrown: unknown = null;
    try {
      openPrivateCopy(file, root).close();
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(OwnFault);
    expect((thrown as OwnFault).code).toMatch(/^SQLITE_(IOERR|FULL|CANTOPEN)/);
    expect((thrown as Error).message).toContain(`SQLite failed on the private copy of ${file}`);
    expect(fs.readdirSync(root)).toEqual(['filler']);
  });
});

describe('sqliteOwnFault', () => {
  it("takes space and I/O failures of the copy for own faults, and what the bytes say for the evidence's", () => {
    const fault = (code: string) => sqliteOwnFault(Object.assign(new Error('x'), { code }), '/tmp', '/image/sessions.db');
    for (const code of ['SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_IOERR_WRITE', 'SQLITE_IOERR_SHMSIZE', 'SQLITE_CANTOPEN']) {
      expect(fault(code), code).toBeInstanceOf(OwnFault);
    }
    for (const code of ['SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_IOERR_SHORT_READ', 'SQLITE_IOERR_CORRUPTFS', 'SQLITE_ERROR']) {
      expect(fault(code), code).toBeNull();
    }
    expect(sqliteOwnFault(new Error('no code'), '/tmp', 'f')).toBeNull();
  });
});

describe('removeStaleCopies', () => {
  it('removes the folders of dead pids and old unnamed ones; keeps live pids, recent unnamed ones, links and other names', () => {
    const tmp = fs.mkdtempSync(path.join(work, 'tmp-'));
    const outside = fs.mkdtempSync(path.join(work, 'outside-'));
    fs.writeFileSync(path.join(outside, 'keep.db'), 'x');
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const names = {
      dead: `clinetrail-sqlite-${dead}-Ab12Cd`,
      live: `clinetrail-sqlite-${process.pid}-Ef34Gh`,
      old: 'clinetrail-sqlite-Ij56Kl',
      recent: 'clinetrail-sqlite-Mn78Op',
      link: `clinetrail-sqlite-${dead}-Qr90St`,
      other: 'clinetrail-sqlite-notes',
    };
    for (const name of [names.dead, names.live, names.old, names.recent, names.other]) {
      fs.mkdirSync(path.join(tmp, name));
      fs.writeFileSync(path.join(tmp, name, 'sessions.db'), 'SQLite format 3\0');
    }
    fs.symlinkSync(outside, path.join(tmp, names.link));
    const now = Date.now();
    const old = new Date(now - 25 * 3600 * 1000);
    fs.utimesSync(path.join(tmp, names.old, 'sessions.db'), old, old);
    fs.utimesSync(path.join(tmp, names.old), old, old);

    expect(removeStaleCopies(tmp, now).sort()).toEqual([names.dead, names.old].sort());
    expect(fs.readdirSync(tmp).sort()).toEqual([names.live, names.recent, names.link, names.other].sort());
    expect(fs.readdirSync(outside)).toEqual(['keep.db']);
    expect(removeStaleCopies(path.join(work, 'no-such-folder'))).toEqual([]);
  });
});
