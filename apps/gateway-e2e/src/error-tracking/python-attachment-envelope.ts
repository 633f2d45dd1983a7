import { randomBytes, randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';

import {
  FIXTURE_PUBLIC_KEY,
  loadSentryFixtures,
  loadZstdFixture,
  zstdRawFrame,
} from '@quitanda/testing';

const MIB = 1024 * 1024;

/** The error event the Python SDK 1.21.0 sent (its captured store body). */
function pythonEvent(eventId: string): Buffer {
  const fixture = loadSentryFixtures().find(
    (f) => f.file.startsWith('python-1.21.0/') && f.kind === 'exception',
  );
  if (!fixture) throw new Error('no python 1.21.0 exception fixture');
  const event = JSON.parse(fixture.body.text) as Record<string, unknown>;
  return Buffer.from(JSON.stringify({ ...event, event_id: eventId }));
}

export interface PythonEnvelope {
  readonly eventId: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/**
 * An error's envelope up to its attachment item's payload (the envelope
 * header with `event_id` and `sent_at`, the event item, the attachment
 * item's header as the SDK's `Item` writes it), and what follows it.
 */
function envelopeAround(
  eventId: string,
  attachmentBytes: number,
): [head: Buffer, tail: Buffer] {
  const event = pythonEvent(eventId);
  const head = Buffer.concat([
    Buffer.from(
      `${JSON.stringify({ event_id: eventId, sent_at: new Date().toISOString() })}\n`,
    ),
    Buffer.from(
      `${JSON.stringify({ type: 'event', content_type: 'application/json', length: event.length })}\n`,
    ),
    event,
    Buffer.from(
      `\n${JSON.stringify({ filename: 'heap.bin', type: 'attachment', content_type: 'application/octet-stream', length: attachmentBytes })}\n`,
    ),
  ]);
  return [head, Buffer.from('\n')];
}

/** The captured requests' headers. */
function pythonHeaders(publicKey: string): Record<string, string> {
  return {
    'Accept-Encoding': 'identity',
    'Content-Type': 'application/x-sentry-envelope',
    'User-Agent': 'sentry.python/1.21.0',
    'X-Sentry-Auth': `Sentry sentry_key=${publicKey}, sentry_version=7, sentry_client=sentry.python/1.21.0`,
  };
}

/**
 * An error with one attachment (`scope.add_attachment(bytes=...,
 * filename=...)`) as the Python SDK 1.21.0 sends it, gzip at level 9
 * unless `plain` (`transport_compression_level: 0`), with the captured
 * requests' headers. The attachment is random bytes: gzip saves nothing,
 * as with the compressed files, core dumps and images SDKs attach.
 */
export function pythonAttachmentEnvelope(
  projectId: number | string,
  publicKey = FIXTURE_PUBLIC_KEY,
  options: { attachment?: Buffer; plain?: boolean } = {},
): PythonEnvelope {
  const eventId = randomUUID().replace(/-/g, '');
  const attachment = options.attachment ?? randomBytes(30 * MIB);
  const [head, tail] = envelopeAround(eventId, attachment.length);
  const envelope = Buffer.concat([head, attachment, tail]);
  const headers = pythonHeaders(publicKey);
  if (!options.plain) headers['Content-Encoding'] = 'gzip';
  return {
    eventId,
    path: `/api/v4/error_tracking/collector/api/${projectId}/envelope/`,
    headers,
    body: options.plain ? envelope : gzipSync(envelope, { level: 9 }),
  };
}

/**
 * The same error with 40 MiB of log text attached, zstd-compressed (no
 * Python SDK sends zstd; the envelope is the same): the zstd CLI's frame
 * of the attachment (2 MiB window, content size, checksum) between frames
 * of raw blocks for the rest, as a streaming encoder may write them.
 */
export function zstdAttachmentEnvelope(
  projectId: number | string,
  publicKey = FIXTURE_PUBLIC_KEY,
): PythonEnvelope {
  const eventId = randomUUID().replace(/-/g, '');
  const attachment = loadZstdFixture('attachment-40m.zst');
  const [head, tail] = envelopeAround(eventId, attachment.bytes);
  return {
    eventId,
    path: `/api/v4/error_tracking/collector/api/${projectId}/envelope/`,
    headers: { ...pythonHeaders(publicKey), 'Content-Encoding': 'zstd' },
    body: Buffer.concat([
      zstdRawFrame(head),
      attachment.compressed,
      zstdRawFrame(tail),
    ]),
  };
}
