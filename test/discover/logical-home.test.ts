/**
 * Issue 25 point 7: the home as the machine names it (`C:/Users/alice` from a KAPE tree's `C` folder and
 * from a Velociraptor collection's `C:` alike), and the home's user. The load of the same home collected
 * both ways is test/hostile/home-user.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { homeUser, logicalHome } from '../../src/discover/logical-home.js';

describe('logicalHome', () => {
  it.each([
    // a KAPE drive folder: the image's top folder, one letter, the home in its profiles folder
    ['C/Users/alice', 'C:/Users/alice'],
    ['D/Users/svc-build', 'D:/Users/svc-build'],
    ['c/users/alice', 'C:/users/alice'],
    ['C/Documents and Settings/alice', 'C:/Documents and Settings/alice'],
    // Velociraptor's own name for the drive, as decoded
    ['C:/Users/alice', 'C:/Users/alice'],
    ['c:/Users/alice', 'C:/Users/alice'],
  ])('%s is %s', (folder, home) => {
    expect(logicalHome(folder)).toBe(home);
  });

  it.each([
    // a folder named C that is not a KAPE drive folder keeps its path
    ['mnt/disk1/C/Users/alice', 'deeper than the top of the image'],
    ['C/home/alice', 'the home is not in a Windows profiles folder'],
    ['C/Users', 'no home in the profiles folder'],
    ['CC/Users/alice', 'not one letter'],
    ['1/Users/alice', 'not a letter'],
    // the other layouts
    ['home/alice', 'Linux'],
    ['Users/alice', 'macOS'],
    ['root', "root's home"],
    ['', 'an image that is the home'],
  ])('%s stays as found (%s)', (folder) => {
    expect(logicalHome(folder)).toBe(folder);
  });
});

describe('homeUser', () => {
  it.each([
    ['C:/Users/alice', 'alice'],
    ['C:/Documents and Settings/alice', 'alice'],
    ['home/alice', 'alice'],
    ['Users/alice', 'alice'],
    ['mnt/disk1/C/Users/alice', 'alice'],
    ['mnt/disk1/home/bob', 'bob'],
    ['export/home/carol', 'carol'],
    // the last profiles folder of the path names the user: a profile copied into another home
    ['home/alice/backup/Users/bob', 'bob'],
    // a home below a user's own folder is still that user's
    ['home/alice/projects/x', 'alice'],
    ['root', 'root'],
    ['var/root', 'root'],
  ])('%s is the home of %s', (home, user) => {
    expect(homeUser(home)).toBe(user);
  });

  it.each([
    ['', 'an image that is the home'],
    ['var/lib/jenkins', "a service's home"],
    ['opt/VSCode-linux-x64', "a portable editor's folder"],
    ['home', 'the profiles folder itself'],
    ['C:/Windows/System32/config/systemprofile', 'the system profile'],
  ])('%s has no user (%s)', (home) => {
    expect(homeUser(home)).toBeNull();
  });
});
