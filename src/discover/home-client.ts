/** The home folder and the client (editor) of a store root, from its image-relative path and root kind. */
import type { RootKindId } from '../core/root-kinds.js';

/** Home folder and client of a store root, from its image-relative path. */
export function homeAndClient(relRoot: string, kind: RootKindId): { home: string; client: string } {
  const segs = relRoot.split('/');
  if (kind === 'cline-data') return { home: segs.slice(0, -2).join('/'), client: 'cline' };
  if (kind === 'cline-home') return { home: segs.slice(0, -1).join('/'), client: 'cline' };
  if (kind === 'documents-cline') {
    // `<home>/Documents/Cline` or `<home>/OneDrive.../Documents/Cline`; every Cline client shares it
    let homeEnd = segs.length - 2;
    if (homeEnd > 0 && /^OneDrive\b/.test(segs[homeEnd - 1])) homeEnd -= 1;
    return { home: segs.slice(0, homeEnd).join('/'), client: '-' };
  }
  const user = segs.lastIndexOf('User');
  const editorIdx = user - 1;
  const editor = segs[editorIdx] ?? '';
  const server = segs.findIndex((s, i) => i < user && /^\.[\w.-]+-server(-insiders)?$/.test(s));
  if (server !== -1) return { home: segs.slice(0, server).join('/'), client: segs[server].slice(1) };
  const anchors: Array<[string, string?]> = [['AppData'], ['Library', 'Application Support'], ['.config'], ['.var'], ['.local']];
  for (const [a, b] of anchors) {
    const i = segs.lastIndexOf(a, user);
    if (i !== -1 && i < user && (b === undefined || segs[i + 1] === b))
      return { home: segs.slice(0, i).join('/'), client: clientName(editor) };
  }
  return { home: segs.slice(0, Math.max(0, editorIdx - 1)).join('/'), client: clientName(editor) };
}

function clientName(editor: string): string {
  const known: Record<string, string> = {
    Code: 'vscode',
    'Code - Insiders': 'vscode-insiders',
    'Code - OSS': 'code-oss',
    'code-server': 'code-server',
  };
  return known[editor] ?? (editor.toLowerCase().replace(/\s+/g, '-') || 'unknown');
}
