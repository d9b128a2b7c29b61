/**
 * The keys of an editor's `ItemTable` that belong to an agent of the Cline family. VS Code keeps each
 * extension's globalState (and, in a workspace's database, its workspaceState) under the extension id with
 * the publisher's case (`RooVeterinaryInc.roo-cline`, `saoudrizwan.claude-dev`), one JSON object per id, and
 * each secret under `secret://` and the JSON `{"extensionId":...,"key":...}` (VS Code
 * `src/vs/workbench/api/browser/mainThreadSecretState.ts`, `getFullKey`), its value encrypted by the OS
 * keychain's key: the key names which secret an agent held; the value is never read.
 */
import { AGENT_EXTENSIONS, type AgentId } from '../../core/root-kinds.js';

const BY_EXTENSION = new Map<string, AgentId>(
  Object.entries(AGENT_EXTENSIONS).flatMap(([agent, ids]) => ids.map((id) => [id, agent as AgentId] as const)),
);

/** The agent whose extension id `id` is, compared without case; null for any other extension. */
export function agentOfExtension(id: string): AgentId | null {
  return BY_EXTENSION.get(id.toLowerCase()) ?? null;
}

/** The prefix of every secret's key in ItemTable. */
export const SECRET_PREFIX = 'secret://';

/** An agent's secret named by an ItemTable key: the agent and the secret's own key name; null for another's. */
export function agentSecret(itemKey: string): { agent: AgentId; key: string } | null {
  if (!itemKey.startsWith(SECRET_PREFIX)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(itemKey.slice(SECRET_PREFIX.length));
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { extensionId, key } = parsed as Record<string, unknown>;
  if (typeof extensionId !== 'string' || typeof key !== 'string') return null;
  const agent = agentOfExtension(extensionId);
  return agent === null ? null : { agent, key };
}

/** The folder a workspace's `workspace.json` names (`{"folder":"file:///home/u/proj"}`, or a `.code-workspace` file), as a path. */
export function workspaceFolder(json: unknown): string | null {
  if (typeof json !== 'object' || json === null) return null;
  const { folder, workspace } = json as Record<string, unknown>;
  const uri = typeof folder === 'string' ? folder : typeof workspace === 'string' ? workspace : null;
  if (uri === null) return null;
  if (!uri.startsWith('file://')) return uri;
  try {
    const pathname = decodeURIComponent(new URL(uri).pathname);
    // file:///c%3A/Users/... is a Windows path: no leading slash before the drive
    return /^\/[A-Za-z]:/.test(pathname) ? pathname.slice(1) : pathname;
  } catch {
    return uri;
  }
}
