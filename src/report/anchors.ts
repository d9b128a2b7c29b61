/**
 * The fragment ids of the report's drill-down, one place so every link and its target agree: `host-N`
 * (a host's section, N its place among the sections), `finding-N` (a finding with its context, N its place
 * in the findings table) and `secret-N` (a fingerprint's row in the secrets table). Ids are numbers, never
 * evidence text: a host name may be anything.
 */
import type { ReportData } from './data.js';

/** Host name -> the id of its section, for the hosts that have one. */
export function hostAnchors(data: ReportData): Map<string, string> {
  return new Map(data.hostDetails.map((h, i) => [h.host, `host-${i + 1}`]));
}

export const findingKey = (huntId: string, rowId: string | null): string => `${huntId}\u0000${rowId ?? ''}`;

/** The id of the context of the i-th finding of the findings table (from 0). */
export const findingAnchor = (i: number): string => `finding-${i + 1}`;

/** (hunt, row) -> the id of the finding's context, for the findings shown with one (the first of a pair). */
export function findingAnchors(data: ReportData): Map<string, string> {
  const anchors = new Map<string, string>();
  (data.findings?.rows ?? []).slice(0, data.caps.contexts).forEach((r, i) => {
    const key = findingKey(r.huntId, r.rowId);
    if (!anchors.has(key)) anchors.set(key, findingAnchor(i));
  });
  return anchors;
}

export const secretKey = (fingerprint: string, kind: string): string => `${fingerprint}\u0000${kind}`;

/** (fingerprint, kind) -> the id of its row in the secrets table. */
export function secretAnchors(data: ReportData): Map<string, string> {
  return new Map(data.secrets.map((s, i) => [secretKey(s.fingerprint, s.kind), `secret-${i + 1}`]));
}
