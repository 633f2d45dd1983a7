import { defined } from '@quitanda/testing';

import {
  createTrackedProject,
  sendRaw,
  startErrorTrackingGateway,
} from './error-tracking-support';
import type { ErrorTrackingGateway } from './error-tracking-support';
import { pythonAttachmentEnvelope } from './python-attachment-envelope';

/**
 * An error is kept whatever it carries along (contract, "Limits": skipped
 * items are read through and dropped as they stream in, so an error with a
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

      const [stored] = await gw.query<{ type: string }>(
        `SELECT payload->'exception'->'values'->-1->>'type' AS type
           FROM error_tracking.events WHERE project_id = $1 AND event_id = $2`,
        [project.id, sent.eventId],
      );
      expect(defined(stored).type).toBe('ValueError');
      const discarded = await gw.query(
        'SELECT source, reason, category, quantity::int FROM error_tracking.discarded_events WHERE project_id = $1',
        [project.id],
      );
      expect(discarded).toEqual([
        {
          source: 'server',
          reason: 'unsupported_item',
          category: 'attachment',
          quantity: 1,
        },
      ]);
    },
  );
});
