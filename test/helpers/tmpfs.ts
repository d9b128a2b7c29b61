/**
 * Small tmpfs mounts for the tests of full file systems (they need root and `mount -t tmpfs`). Where
 * the machine refuses the mount, `mountTmpfs` returns the reason, and the test skips itself with it
 * (`ctx.skip(reason)`): reported skipped, never passed.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';

const mounted: string[] = [];

/** A mounted tmpfs, or why the machine refused it. */
export type TmpfsMount = { dir: string; refused: null } | { dir: null; refused: string };

/** Mounts a tmpfs of `size` (`2m`, ...) at `dir`, made if needed; when refused, the reason names `what` was not tested. */
export function mountTmpfs(dir: string, size: string, what: string): TmpfsMount {
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (err) {
    return { dir: null, refused: `${what} not testable here: mount -t tmpfs refused (${(err as Error).message.split('\n')[0]})` };
  }
  mounted.push(dir);
  return { dir, refused: null };
}

/** Unmounts every tmpfs this process mounted (call in afterAll, before removing their folders). */
export function unmountAll(): void {
  for (const dir of mounted.splice(0)) execFileSync('umount', [dir]);
}
