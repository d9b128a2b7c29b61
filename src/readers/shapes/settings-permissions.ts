/**
 * The standing permission settings of the `settings` store, as `key=value` pairs (store specification
 * "Permission rows"; cline-formats §4.4-4.6): globalState.json `autoApprovalSettings`, `mode` and
 * `yoloModeToggled` (the CLI's `-y`: every action approved; 1.x leaves it in globalState.json,
 * fixtures/real-producer), settings/global-settings.json's permission keys, and
 * settings/cline_mcp_settings.json's per-server `autoApprove`, `alwaysAllow` (the name Roo Code and
 * configurations copied from it give the same list) and `disabled`. Server env, headers and oauth
 * values are never read.
 */
import { plainObject, show } from '../common/values.js';

/** One `key=value` setting, or a part of the file that could not be read. */
export type PermissionItem = { key: string; value: unknown } | { problem: string };

/** The keys of settings/global-settings.json that grant or withhold permissions. */
const GLOBAL_SETTINGS_KEYS = new Set(['planActMode', 'toolAutoApprove', 'disabledTools', 'tools', 'disabledPlugins']);

/** Deepest object nesting `leaves` follows; a deeper part is one problem, the rest of the file is read. */
export const MAX_SETTINGS_DEPTH = 1000;

/**
 * Every leaf of an object as a dotted key, in document order; arrays are leaves. An explicit stack, not
 * recursion, so no nesting overflows it: a part nested deeper than MAX_SETTINGS_DEPTH is one problem.
 */
export function* leaves(prefix: string, value: unknown): Generator<PermissionItem> {
  const stack: { key: string; value: unknown; depth: number }[] = [{ key: prefix, value, depth: 0 }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const record = plainObject(top.value);
    if (!record) {
      yield { key: top.key, value: top.value };
    } else if (top.depth >= MAX_SETTINGS_DEPTH) {
      const where = top.key.length > 120 ? `${top.key.slice(0, 120)}...` : top.key;
      yield { problem: `${where} nested deeper than ${MAX_SETTINGS_DEPTH} levels, not read` };
    } else {
      const children = Object.entries(record);
      for (let i = children.length - 1; i >= 0; i--) {
        stack.push({ key: `${top.key}.${children[i][0]}`, value: children[i][1], depth: top.depth + 1 });
      }
    }
  }
}

/** One setting per array entry (`disabledTools=<name>`), or the value itself when it is not an array. */
export function* entries(key: string, value: unknown): Generator<PermissionItem> {
  if (!Array.isArray(value)) {
    yield { key, value };
    return;
  }
  for (const entry of value) yield { key, value: entry };
}

/** globalState.json: every leaf of `autoApprovalSettings`, then `mode` and `yoloModeToggled`. */
export function* globalStatePermissions(state: Record<string, unknown>): Generator<PermissionItem> {
  if (state.autoApprovalSettings !== undefined) yield* leaves('autoApprovalSettings', state.autoApprovalSettings);
  if (state.mode !== undefined) yield { key: 'mode', value: state.mode };
  if (state.yoloModeToggled !== undefined) yield { key: 'yoloModeToggled', value: state.yoloModeToggled };
}

/** settings/global-settings.json: the permission keys in file order; telemetry, updates, theme and compaction are skipped. */
export function* globalSettingsPermissions(settings: Record<string, unknown>): Generator<PermissionItem> {
  for (const [key, value] of Object.entries(settings)) {
    if (!GLOBAL_SETTINGS_KEYS.has(key)) continue;
    if (key === 'disabledTools' || key === 'disabledPlugins') {
      yield* entries(key, value);
    } else if (key === 'tools') {
      const tools = plainObject(value);
      if (!tools) {
        yield { key, value };
        continue;
      }
      for (const [name, config] of Object.entries(tools)) {
        const record = plainObject(config);
        if (!record) yield { key: `tools.${name}`, value: config };
        else if (record.enabled !== undefined) yield { key: `tools.${name}.enabled`, value: record.enabled };
      }
    } else {
      yield { key, value };
    }
  }
}

/** settings/cline_mcp_settings.json: per server one `autoApprove=<tool>` (and `alwaysAllow=<tool>`) per tool and `disabled` when present. */
export function* mcpSettingsPermissions(settings: Record<string, unknown>): Generator<PermissionItem> {
  const servers = plainObject(settings.mcpServers);
  if (!servers) {
    yield { problem: 'no mcpServers object' };
    return;
  }
  for (const [name, config] of Object.entries(servers)) {
    const server = plainObject(config);
    if (!server) {
      yield { problem: `mcpServers.${name} is not an object` };
      continue;
    }
    if (server.autoApprove !== undefined) yield* entries(`mcpServers.${name}.autoApprove`, server.autoApprove);
    if (server.alwaysAllow !== undefined) yield* entries(`mcpServers.${name}.alwaysAllow`, server.alwaysAllow);
    if (server.disabled !== undefined) yield { key: `mcpServers.${name}.disabled`, value: server.disabled };
  }
}

/** `permission setting: <key>=<value> (from <file>, file mtime)`; arrays and objects as JSON. */
export function permissionText(key: string, value: unknown, from: string): string {
  return `permission setting: ${key}=${show(value)} (from ${from}, file mtime)`;
}
