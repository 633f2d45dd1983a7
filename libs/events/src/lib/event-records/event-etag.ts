import { createHash } from 'node:crypto';

import type { ExpectedVersions } from './event-record';

/*
 * A strong ETag names the record and its version: `"<version>-<8 hex of the
 * id's hash>"`. The same version always yields the same tag, whichever call
 * returned it, and a tag of one record never matches another.
 */

function idTag(id: string): string {
  return createHash('sha256').update(id).digest('hex').slice(0, 8);
}

export function etagOf(record: { id: string; version: number }): string {
  return `"${record.version}-${idTag(record.id)}"`;
}

/** Splits an `If-Match`/`If-None-Match` list into its entity tags. */
function entityTags(header: string): string[] {
  return header
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag.length > 0);
}

/**
 * The record versions an `If-Match` header accepts. Weak tags never match
 * (RFC 9110 requires strong comparison for If-Match).
 */
export function expectedVersionsFromIfMatch(
  header: string | undefined,
  id: string,
): ExpectedVersions {
  if (header === undefined) return undefined;
  const tags = entityTags(header);
  if (tags.includes('*')) return 'any';
  const suffix = `-${idTag(id)}"`;
  return tags
    .filter((tag) => tag.startsWith('"') && tag.endsWith(suffix))
    .map((tag) => Number(tag.slice(1, -suffix.length)))
    .filter((version) => Number.isSafeInteger(version) && version > 0);
}

/** Whether `If-None-Match` names the current ETag (weak comparison). */
export function ifNoneMatchHits(
  header: string | undefined,
  currentEtag: string,
): boolean {
  if (header === undefined) return false;
  return entityTags(header).some(
    (tag) => tag === '*' || tag.replace(/^W\//, '') === currentEtag,
  );
}
