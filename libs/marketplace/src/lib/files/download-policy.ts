/**
 * The bytes of a download are whatever a user uploaded, served on the
 * gateway's origin (the web UI's too, unless FILES_PUBLIC_BASE_URL moves
 * them): a sandbox that may load nothing but the file itself keeps an HTML
 * or SVG file from running script there even if a browser renders it. The
 * browser's own page for audio and video loads the file again: media-src.
 */
export const DOWNLOAD_CSP =
  "default-src 'none'; media-src 'self'; style-src 'unsafe-inline'; sandbox";

/**
 * Passive types a browser may show in the tab, as GitLab does: raster
 * images, audio, video and plain text. Everything else, HTML, SVG, XML,
 * PDF (its viewers run script) and unknown types alike, is an attachment.
 */
const SHOWN_INLINE = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'video/mp4',
  'video/webm',
  'video/ogg',
  'audio/mpeg',
  'audio/ogg',
  'audio/wav',
  'audio/webm',
  'audio/mp4',
  'text/plain',
]);

/** Whether a browser may show a file of this Content-Type in the tab. */
export function showsInline(mimeType: string): boolean {
  const essence = mimeType.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  return SHOWN_INLINE.has(essence);
}
