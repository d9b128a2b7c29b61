/**
 * The custom modes of Roo Code and Kilo Code as settings, split the way the other settings are
 * (settings-permissions.ts), so the `settings` model and a hunter read a mode's grants by name rather than out
 * of a JSON value. A mode (`ModeConfig`, RooCodeInc/Roo-Code `packages/types/src/mode.ts`; Kilo Code adds
 * `iconName`, `preferredProviderId`, `preferredModelId` and the source `organization`) is kept in the settings
 * file `settings/custom_modes.yaml`, in a workspace's `.roomodes` (Kilo Code: `.kilocodemodes`), and merged
 * into the extension's globalState `customModes`. Its `groups` say what the agent may do in it: `read`,
 * `edit`, `browser`, `command`, `mcp`, `modes`, each a name or `[name, {fileRegex, description}]`; Roo Code
 * applies a non-empty `fileRegex` to the `edit` group's tools only (`src/core/tools/validateToolUse.ts`
 * `isToolAllowedForMode`).
 *
 * One mode gives, in this order:
 * - `customModes.<slug>.name=<name>`: always, so a mode of no groups is still a row;
 * - `customModes.<slug>.groups.<group>=<fileRegex>` per group entry, `*` where the entry sets no fileRegex
 *   or an empty one (for `edit`: every file), and `customModes.<slug>.groups.<group>.<option>` per other option
 *   (`description`); where `groups` is absent, empty or not a list, one `customModes.<slug>.groups` row with
 *   the value as it stands;
 * - `customModes.<slug>.<key>` for every other key, as written (`roleDefinition`, `whenToUse`,
 *   `customInstructions`, `source`, ...): what the model is told in that mode.
 * The modes are read as written, whether or not the agent's schema would accept them; a mode that is not an
 * object, has no slug, or a group entry of no known shape is a problem, and the rest is read.
 */
import type { PermissionItem } from './settings-permissions.js';
import { label, plainObject } from '../common/values.js';

/** A setting or problem of a mode, with the mode's 1-based place in the list (null: the list itself). */
export type ModeItem = PermissionItem & { mode: number | null };

/** The value of a group entry that sets no fileRegex: the group is granted whole. */
export const WHOLE_GROUP = '*';

/** Keys of a mode read by their own rule: the rest are read as written. */
const OWN_RULE = new Set(['slug', 'name', 'groups']);

/** The settings of every mode of a `customModes` list, in list order. */
export function* customModeItems(modes: unknown): Generator<ModeItem> {
  if (!Array.isArray(modes)) {
    yield { problem: `customModes is not a list: ${label(modes)}`, mode: null };
    return;
  }
  for (const [index, element] of modes.entries()) {
    for (const item of modeItems(index, element)) yield { ...item, mode: index + 1 };
  }
}

/** The settings of the mode at `index` of the list. */
function* modeItems(index: number, element: unknown): Generator<PermissionItem> {
  const mode = plainObject(element);
  if (mode === null) {
    yield { problem: `customModes[${index}] is not an object: ${label(element)}` };
    return;
  }
  let slug = typeof mode.slug === 'string' || typeof mode.slug === 'number' ? String(mode.slug) : '';
  if (slug === '') {
    slug = `#${index + 1}`;
    yield { problem: `customModes[${index}] has no slug: its settings are named ${slug}` };
  }
  const key = `customModes.${slug}`;
  yield { key: `${key}.name`, value: mode.name };
  yield* groupItems(key, mode.groups);
  for (const [name, value] of Object.entries(mode)) if (!OWN_RULE.has(name)) yield { key: `${key}.${name}`, value };
}

/** The groups of the mode `key`: one setting per entry, its fileRegex or WHOLE_GROUP. */
function* groupItems(key: string, groups: unknown): Generator<PermissionItem> {
  if (!Array.isArray(groups) || groups.length === 0) {
    yield { key: `${key}.groups`, value: groups };
    return;
  }
  for (const [index, entry] of groups.entries()) {
    if (typeof entry === 'string') {
      yield { key: `${key}.groups.${entry}`, value: WHOLE_GROUP };
      continue;
    }
    const options = Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string' ? plainObject(entry[1]) : null;
    if (options === null) {
      yield { problem: `${key}.groups[${index}] is neither a group name nor [group, options]: ${label(entry)}` };
      continue;
    }
    const group = `${key}.groups.${entry[0]}`;
    const fileRegex = options.fileRegex;
    yield { key: group, value: fileRegex === undefined || fileRegex === '' ? WHOLE_GROUP : fileRegex };
    for (const [name, value] of Object.entries(options)) if (name !== 'fileRegex') yield { key: `${group}.${name}`, value };
  }
}
