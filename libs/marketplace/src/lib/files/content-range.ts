/** A `Content-Range` of an upload: a probe or a chunk. */
export type UploadRange =
  | { readonly kind: 'probe'; readonly total: number }
  | {
      readonly kind: 'chunk';
      readonly start: number;
      readonly end: number;
      readonly total: number;
    };

/** Parses a probe (`bytes *` + `/N`), a chunk `bytes a-b/N` or `bytes a-b/*` (total -1). */
export function parseContentRange(
  header: string | undefined,
): UploadRange | undefined {
  if (!header) return undefined;
  const probe = /^\s*bytes\s+\*\/(\d+)\s*$/i.exec(header);
  if (probe) return { kind: 'probe', total: Number(probe[1]) };
  const chunk = /^\s*bytes\s+(\d+)-(\d+)\/(\d+|\*)\s*$/i.exec(header);
  if (!chunk) return undefined;
  const start = Number(chunk[1]);
  const end = Number(chunk[2]);
  if (end < start) return undefined;
  return {
    kind: 'chunk',
    start,
    end,
    total: chunk[3] === '*' ? -1 : Number(chunk[3]),
  };
}

/** A download `Range: bytes=a-b` (one range), clamped to `size`; null when unsatisfiable. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | undefined {
  if (!header) return undefined;
  const match = /^\s*bytes=(\d*)-(\d*)\s*$/i.exec(header);
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return null;
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return null;
  return { start, end };
}
