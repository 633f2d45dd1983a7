import { defined } from '@quitanda/testing';

import { mostBodyBytesHeld } from '../support/body-bytes-held';

import {
  createTrackedProject,
  sendRaw,
  startErrorTrackingGateway,
} from './error-tracking-support';
import type { ErrorTrackingGateway } from './error-tracking-support';
import {
  pythonAttachmentEnvelope,
  zstdAttachmentEnvelope,
} from './python-attachment-envelope';
import type { PythonEnvelope } from './python-attachment-envelope';

const MIB = 1024 * 1024;

/**
 * An error is kept whatever it carries along (contract, "Limits": skipped
 * items, attachments past ERROR_TRACKING_MAX_ATTACHMENT_BYTES among them,
 * are read through and dropped as they stream in, so an error with a
 * 30 MiB attachment keeps its event). With the Python SDK 1.21.0 such a
 * request (31 MB) was refused whole, the error lost.
 */
describe('collector: errors with large attachments (e2e)', () => {
  let gw: ErrorTrackingGateway;

  beforeAll(async () => {
    // The defaults: a 100 MiB body, a 32 MiB body budget.
    gw = await startErrorTrackingGateway();
  });

  afterAll(() => gw?.close());

  /** Its event stored, its attachment (past the 20 MiB an event keeps) counted as discarded. */
  async function expectKept(projectId: number, sent: PythonEnvelope) {
    const [stored] = await gw.query<{ type: string }>(
      `SELECT payload->'exception'->'values'->-1->>'type' AS type
         FROM error_tracking.events WHERE project_id = $1 AND event_id = $2`,
      [projectId, sent.eventId],
    );
    expect(defined(stored).type).toBe('ValueError');
    const discarded = await gw.query(
      'SELECT source, reason, category, quantity::int FROM error_tracking.discarded_events WHERE project_id = $1',
      [projectId],
    );
    expect(discarded).toEqual([
      {
        source: 'server',
        reason: 'too_large',
        category: 'attachment',
        quantity: 1,
      },
    ]);
  }

  it.each([
    ['plain', true],
    ['gzip', false],
  ])(
    'keeps the event of a Python SDK 1.21.0 error with a 30 MiB attachment (%s), the attachment counted as discarded',
    async (_name, plain) => {
      const project = await createTrackedProject(gw);
      const sent = pythonAttachmentEnvelope(project.id, project.publicKey, {
        plain,
      });
      expect(sent.body.length).toBeGreaterThan(30 * 1024 * 1024);
      const res = await sendRaw(gw.url, sent);
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ id: sent.eventId });
      await expectKept(project.id, sent);
    },
  );

  it('keeps the event of a zstd envelope with a 40 MiB attachment, holding the event and one window, never the attachment', async () => {
    const project = await createTrackedProject(gw);
    const sent = zstdAttachmentEnvelope(project.id, project.publicKey);
    expect(sent.body.length).toBeLessThan(64 * 1024);
    // Chunked, as a streaming encoder sends: decoded as it comes.
    const { result: res, mostHeld } = await mostBodyBytesHeld(() =>
      sendRaw(gw.url, { ...sent, chunked: true }),
    );
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ id: sent.eventId });
    await expectKept(project.id, sent);
    // The frame's 2 MiB window and the event. Decoded whole, the 40 MiB
    // were past the 32 MiB budget.
    expect(mostHeld).toBeGreaterThan(2 * MIB);
    expect(mostHeld).toBeLessThan(2 * MIB + 64 * 1024);
  });

  it('holds at most 2 MiB of a body whose key is not yet known: a 3 MiB body under two encodings with no key gets 413', async () => {
    const project = await createTrackedProject(gw);
    // A list of encodings is read whole before decoding; bytes that are
    // no gzip at all, as an attacker sends them.
    const body = Buffer.alloc(3 * MIB, 'x');
    const { result: res, mostHeld } = await mostBodyBytesHeld(() =>
      sendRaw(gw.url, {
        path: `/api/v4/error_tracking/collector/api/${project.id}/envelope/`,
        headers: { 'Content-Encoding': 'gzip, gzip' },
        body,
        chunked: true,
      }),
    );
    expect(res.status).toBe(413);
    expect(res.json()).toEqual({ detail: expect.stringContaining('key') });
    expect(mostHeld).toBeLessThanOrEqual(2 * MIB + 64 * 1024);
  });
});
