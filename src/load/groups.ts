/**
 * Discovery of every image of a load, and its sources and problems grouped by (host, store) partition.
 */
import { imagePath, memberText, type Source, type StoreId } from '../core/row.js';
import { discoverImage, type Discovery, type DiscoveryProblem, type HostImage } from '../discover/discover.js';
import type { LoadEvent } from './progress.js';
import { evidenceName } from './collections.js';

/**
 * Discovery of one image; an image that cannot be searched at all (its folder name is not valid UTF-8,
 * it vanished, it is unreadable) becomes one problem of its own, never the end of the fleet's load.
 */
export async function discoverOrReport(image: HostImage): Promise<Discovery> {
  try {
    return await discoverImage(image);
  } catch (err) {
    return {
      sources: [],
      problems: [{ host: image.host, store: null, file: image.root, message: `image not searched: ${(err as Error).message}` }],
      fault: 'unreadable',
    };
  }
}

/** The progress event of a problem of `image`: a collection's is named by its archive and member, never by its private copy's path. */
export function problemEvent(image: HostImage, problem: DiscoveryProblem): LoadEvent {
  const archive = image.collection?.archive.path;
  // a member skipped for its name has no path in the image: named as stored
  const named =
    problem.member !== undefined && archive !== undefined
      ? { file: memberText(archive, problem.member), archive, member: problem.member }
      : evidenceName(image, problem.file);
  return { event: 'problem', host: image.host, ...named, message: problem.message };
}

export interface PartitionGroup {
  host: string;
  store: StoreId;
  sources: Source[];
  problems: DiscoveryProblem[];
}

/**
 * Sources and discovery problems grouped by (host, store). Every problem is logged and becomes a
 * `parser:` row: in its store's partition, or in the host's `discovery` partition when it lies
 * outside every store root.
 */
export function groupByPartition(
  images: HostImage[],
  discoveries: Discovery[],
  emit: (event: LoadEvent) => void,
): Map<string, PartitionGroup> {
  const groups = new Map<string, PartitionGroup>();
  discoveries.forEach((d, i) => {
    for (const source of d.sources) {
      const key = `${source.host}\0${source.store}`;
      const g = groups.get(key) ?? { host: source.host, store: source.store, sources: [], problems: [] };
      g.sources.push(source);
      groups.set(key, g);
    }
    for (const problem of d.problems) {
      emit(problemEvent(images[i], problem));
      let g = groups.get(`${problem.host}\0${problem.store ?? 'discovery'}`);
      if (!g) {
        // outside every store root: the host's `discovery` partition, whose source is the image itself
        // (a collection's: its staging folder, so problem paths are image-relative, and the archive named)
        const image = images[i];
        const root = image.collection?.listing ? image.collection.stagingRoot : image.root;
        const source: Source = {
          host: image.host,
          store: 'discovery',
          role: 'primary',
          imageRoot: root,
          home: '',
          homeFolder: '',
          user: null,
          client: '-',
          agent: null,
          root,
          files: [],
          ...(image.collection ? { archive: { ...image.collection.archive, members: {}, member_sizes: {} } } : {}),
        };
        g = { host: image.host, store: 'discovery', sources: [source], problems: [] };
        groups.set(`${problem.host}\0discovery`, g);
      }
      g.problems.push(problem);
      // a member skipped for its name: `files` names it as stored
      const archive = g.sources[0]?.archive;
      if (problem.member !== undefined && archive) archive.members[imagePath(g.sources[0], problem.file)] = problem.member;
    }
  });
  return groups;
}
