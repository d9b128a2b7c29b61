/**
 * A home as the machine names it, and whose it is, from the folder discovery found it in: so one home
 * of one machine is one `home` and one `user` whatever collected it (issue 25 point 7).
 *
 * KAPE copies a Windows drive into a folder named by its letter (`<tdest>\C\Users\alice`), Velociraptor
 * names it `C:` (`uploads/auto/C%3A/Users/alice`, decoded by discover/collection.ts). The home is written
 * `C:/Users/alice` for both. A KAPE drive folder is told from a plain folder named `C` by where it lies
 * and what it holds: it is the image's top folder, named by one letter, and the home lies in its Windows
 * profiles folder (`Users`, or `Documents and Settings` before Vista). A folder `C` deeper in the image
 * (`mnt/disk1/C/Users/alice`) or holding the home elsewhere (`C/home/alice`) is a plain folder, and the
 * home keeps its path. Only the home is named so: `source_file` stays the path of the file in the image.
 *
 * The user is the name of the home's folder when its layout says it is a user's: a folder of a profiles
 * folder (`Users/<u>`, `Documents and Settings/<u>`, `home/<u>`, at any depth: the last one in the path),
 * or root's home (`root`, `var/root`). A remote editor server (`.vscode-server`) lies in a home like any
 * other store. Any other home (a portable editor's folder, a service's `/var/lib/<name>`, an image that is
 * itself the home) has no user (null): its folder's name is not known to be a user name.
 */

/** Folders that hold one home per user (compared case-insensitively: Windows names are). */
const PROFILES_FOLDERS = new Set(['users', 'documents and settings', 'home']);
/** The profiles folders of a Windows drive. */
const WINDOWS_PROFILES_FOLDERS = new Set(['users', 'documents and settings']);

/** The home as the machine names it: a KAPE drive folder's `C/Users/alice` as `C:/Users/alice`; any other as found. */
export function logicalHome(folder: string): string {
  const segs = folder.split('/');
  const drive = /^([A-Za-z]):?$/.exec(segs[0]);
  if (drive === null || segs.length < 3 || !WINDOWS_PROFILES_FOLDERS.has(segs[1].toLowerCase())) return folder;
  return [`${drive[1].toUpperCase()}:`, ...segs.slice(1)].join('/');
}

/** The user a home belongs to, by its layout; null when its layout does not say. */
export function homeUser(home: string): string | null {
  const segs = home.split('/').filter((s) => s !== '');
  for (let i = segs.length - 2; i >= 0; i--) if (PROFILES_FOLDERS.has(segs[i].toLowerCase())) return segs[i + 1];
  return segs.at(-1) === 'root' ? 'root' : null;
}
