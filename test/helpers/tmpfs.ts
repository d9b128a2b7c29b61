/**
 * Small tmpfs mounts for the tests of full file systems (they need root and `mount -t tmpfs`). Where
 * the machine refuses the mount, `mountTmpfs` says why and returns null, and the test skips itself.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';

const mounted: string[] = [];

/** Mounts a tmpfs of `size` (`2m`, ...) at `dir`, made if needed; null (with a warning naming `what`) when refused. */
export function mountTmpfs(dir: string, size: string, what: string): string | null {
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (err) {
    console.warn(`[tmpfs] ${what} not tested: mount -t tmpfs refused (${(err as Error).message.split('\n')[0]})`);
    return null;
  }
  mounted.push(dir);
  return dir;
}

/** Unmounts every tmpfs this process mounted (call in afterAll, before removing their folders). */
export function unmountAll(): void {
  for (const dir of mounted.splice(0)) execFileSync('umount', [dir]);
}
