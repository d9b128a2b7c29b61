/**
 * Member names of a Velociraptor collection, as its collector stores uploads (reporting/container.go
 * `Upload`: `uploads/<accessor>/<path components>`, each component escaped by utils/sanitize.go
 * `SanitizeStringForZip`), for the tests that build collections member for member.
 */

/** A path component escaped as Velociraptor's SanitizeStringForZip does (utils/sanitize.go). */
export function escapeComponent(c: string): string {
  return [...c]
    .map((ch, i) =>
      ((i === 0 || i === c.length - 1) && (ch === '.' || ch === ' ') ? true : '?"*:|<>%/\\'.includes(ch))
        ? `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`
        : ch,
    )
    .join('');
}

/** The member an upload of `logical` (`C:/Users/...` or `home/...`, `/`-separated) is stored as, by the `auto` accessor. */
export const uploadName = (logical: string): string => `uploads/auto/${logical.split('/').map(escapeComponent).join('/')}`;
