/**
 * The provider defaults of a 3.x `settings/providers.json` (cline-formats.md §4.8), the one part of that credential
 * file whose values are read: which provider is the default (`lastUsedProvider`) and each provider's default model
 * with the time its block was last written (`providers.<id>.updatedAt`). The CLI writes a provider's block, its
 * `updatedAt` with it, on every run; an MCP bridge that overrides the provider or model for one run writes the old
 * defaults back afterwards and leaves `updatedAt` as the run left it (shared/spec 004): what sessions.driven_by
 * reads (sql/32_sessions.sql, driven_by). API keys, base URLs and every other value stay unread.
 */
import type { RowFields } from '../../core/row.js';
import { epochMs, nonEmptyString, plainObject } from '../common/values.js';

/** Rows of kind `provider_default` for a providers.json value; `mtime` dates the lastUsedProvider row. */
export function providerDefaultRows(value: unknown, mtime: number | null): RowFields[] {
  const file = plainObject(value);
  if (!file) return [];
  const rows: RowFields[] = [];
  const last = nonEmptyString(file.lastUsedProvider);
  if (last !== null)
    rows.push({
      timestamp_utc: mtime,
      timestamp_source: 'file_mtime',
      turn_type: 'system',
      kind: 'provider_default',
      provider: last,
      setting_name: 'lastUsedProvider',
      setting_value: last,
      text: `provider default: lastUsedProvider=${last}`,
    });
  for (const [id, entry] of Object.entries(plainObject(file.providers) ?? {})) {
    const block = plainObject(entry);
    const model = nonEmptyString(plainObject(block?.settings)?.model);
    if (model === null) continue;
    const updatedAt = nonEmptyString(block?.updatedAt);
    rows.push({
      timestamp_utc: epochMs(updatedAt),
      turn_type: 'system',
      kind: 'provider_default',
      provider: id,
      model,
      setting_name: `providers.${id}.settings.model`,
      setting_value: model,
      text: `provider default: providers.${id}.settings.model=${model} updatedAt=${updatedAt ?? '(none)'}`,
    });
  }
  return rows;
}
