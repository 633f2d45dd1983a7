import { randomBytes } from 'node:crypto';

import { defined } from '@quitanda/testing';
import type request from 'supertest';

import {
  createMember,
  createTrackedProject,
  createUser,
  sendRaw,
  startErrorTrackingGateway,
} from './error-tracking-support';
import type { ErrorTrackingGateway } from './error-tracking-support';
import {
  HTML_ATTACHMENT,
  attachmentBytes,
  reportWithAttachments,
} from './attachment-sdk';
import { mostBodyBytesHeld } from '../support/body-bytes-held';
import { pythonAttachmentEnvelope } from './python-attachment-envelope';
import { signedInAgent } from './web-support';

const MIB = 1024 * 1024;
const PASSWORD = 'correct horse battery';

function binary(req: request.Test): request.Test {
  return req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
}

/**
 * Attachments kept with their events (contract, "Attachments"): stored
 * up to the per-event and per-project bounds, downloaded by members only,
 * as plain bytes that are never rendered.
 */
describe('event attachments (e2e)', () => {
  let gw: ErrorTrackingGateway;

  beforeAll(async () => {
    gw = await startErrorTrackingGateway({
      ERROR_TRACKING_MAX_ATTACHMENT_BYTES: String(4 * MIB),
      ERROR_TRACKING_MAX_PROJECT_ATTACHMENT_BYTES: String(7 * MIB),
    });
  });

  afterAll(() => gw?.close());

  async function attachmentsOf(projectId: number) {
    return gw.query<{
      id: string;
      event_id: string | null;
      filename: string;
      content_type: string | null;
      size: number;
      chunks: number;
    }>(
      `SELECT a.id::text, replace(a.event_id::text, '-', '') AS event_id, a.filename,
              a.content_type, a.size,
              (SELECT count(*)::int FROM error_tracking.event_attachment_chunks c
                WHERE c.attachment_id = a.id) AS chunks
         FROM error_tracking.event_attachments a WHERE a.project_id = $1 ORDER BY a.id`,
      [projectId],
    );
  }

  async function errorOf(projectId: number, eventId: string) {
    const [row] = await gw.query<{ error_id: string }>(
      `SELECT error_id::text FROM error_tracking.events
        WHERE project_id = $1 AND event_id = $2`,
      [projectId, eventId],
    );
    return defined(row).error_id;
  }

  async function discardsOf(projectId: number) {
    return gw.query<{ reason: string; quantity: number }>(
      `SELECT reason, quantity::int FROM error_tracking.discarded_events
        WHERE project_id = $1 AND category = 'attachment' ORDER BY reason`,
      [projectId],
    );
  }

  async function metric(name: string): Promise<number> {
    const res = await gw.http.get('/metrics').expect(200);
    const match = new RegExp(`^${name} (\\d+)$`, 'm').exec(res.text);
    return Number(defined(match)[1]);
  }

  describe('sent by @sentry/node', () => {
    const size = 2.5 * MIB;
    const seed = 36;
    let project: { id: number; dsn: string };
    let eventId: string;
    let errorId: string;
    let before: { count: number; bytes: number };

    beforeAll(async () => {
      before = {
        count: await metric('error_tracking_attachments_stored_total'),
        bytes: await metric('error_tracking_attachment_bytes_stored_total'),
      };
      project = await createTrackedProject(gw);
      eventId = await reportWithAttachments(project.dsn, size, seed);
      errorId = await errorOf(project.id, eventId);
    }, 90_000);

    it('stores both attachments with the event, in 256 KiB pieces, and counts them in /metrics', async () => {
      const stored = await attachmentsOf(project.id);
      expect(stored).toEqual([
        expect.objectContaining({
          event_id: eventId,
          filename: 'heap dump.bin',
          content_type: 'application/octet-stream',
          size,
          chunks: 10,
        }),
        expect.objectContaining({
          event_id: eventId,
          filename: 'report.html',
          content_type: 'text/html',
          size: HTML_ATTACHMENT.length,
          chunks: 1,
        }),
      ]);
      expect(await discardsOf(project.id)).toEqual([]);
      expect(await metric('error_tracking_attachments_stored_total')).toBe(
        before.count + 2,
      );
      expect(await metric('error_tracking_attachment_bytes_stored_total')).toBe(
        before.bytes + size + HTML_ATTACHMENT.length,
      );
    });

    it('lists them on the error page for a member, who downloads each as plain bytes, never rendered', async () => {
      const member = await createMember(gw, project.id, 20);
      const agent = await signedInAgent(gw, member.username, PASSWORD);
      const page = await agent
        .get(`/projects/${project.id}/error_tracking/${errorId}`)
        .expect(200);
      const [heap, html] = await attachmentsOf(project.id);
      const base = `/projects/${project.id}/error_tracking/${errorId}/events/${eventId}/attachments`;
      expect(page.text).toContain(`href="${base}/${defined(heap).id}"`);
      expect(page.text).toContain(`download="report.html"`);

      const download = await binary(
        agent.get(`${base}/${defined(heap).id}`),
      ).expect(200);
      expect(
        Buffer.compare(download.body as Buffer, attachmentBytes(size, seed)),
      ).toBe(0);
      expect(download.headers).toMatchObject({
        'content-type': 'application/octet-stream',
        'content-length': String(size),
        'content-disposition': 'attachment; filename="heap dump.bin"',
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
      });

      const page2 = await binary(
        agent.get(`${base}/${defined(html).id}`),
      ).expect(200);
      expect((page2.body as Buffer).toString()).toBe(HTML_ATTACHMENT);
      // Declared text/html: still served as bytes to save, in a sandbox.
      expect(page2.headers['content-type']).toBe('application/octet-stream');
      expect(page2.headers['content-disposition']).toBe(
        'attachment; filename="report.html"',
      );
    });

    it('answers 404 to a non-member, and to a member for another error, event or attachment', async () => {
      const [heap] = await attachmentsOf(project.id);
      const path = `/projects/${project.id}/error_tracking/${errorId}/events/${eventId}/attachments/${defined(heap).id}`;
      const outsider = await createUser(gw);
      const stranger = await signedInAgent(gw, outsider.username, PASSWORD);
      const refused = await stranger.get(path).expect(404);
      expect(refused.headers['content-disposition']).toBeUndefined();

      const member = await createMember(gw, project.id, 20);
      const agent = await signedInAgent(gw, member.username, PASSWORD);
      for (const wrong of [
        path.replace(
          `/error_tracking/${errorId}/`,
          `/error_tracking/${errorId}0/`,
        ),
        path.replace(eventId, 'f'.repeat(32)),
        path.replace(/\/\d+$/, '/999999999'),
        path.replace(/\/\d+$/, '/x'),
      ])
        await agent.get(wrong).expect(404);
    });
  });

  it('offers a hostile or non-ASCII filename as a quoted download name, never as headers of its own', async () => {
    const project = await createTrackedProject(gw);
    const eventId = randomBytes(16).toString('hex');
    const names = ['a"\r\nX-Evil: 1\r\n.html', 'résumé 日本.pdf'];
    const body = Buffer.concat([
      Buffer.from(
        `${JSON.stringify({ event_id: eventId })}\n{"type":"event"}\n${JSON.stringify({ message: 'named' })}\n`,
      ),
      ...names.map((filename) =>
        Buffer.from(
          `${JSON.stringify({ type: 'attachment', filename, length: 2 })}\nok\n`,
        ),
      ),
    ]);
    const res = await sendRaw(gw.url, {
      path: `/api/v4/error_tracking/collector/api/${project.id}/envelope/?sentry_key=${project.publicKey}`,
      body,
    });
    expect(res.status).toBe(200);
    const stored = await attachmentsOf(project.id);
    expect(stored.map((a) => a.filename)).toEqual(names);
    const member = await createMember(gw, project.id, 20);
    const agent = await signedInAgent(gw, member.username, PASSWORD);
    const errorId = await errorOf(project.id, eventId);
    const base = `/projects/${project.id}/error_tracking/${errorId}/events/${eventId}/attachments`;
    const [hostile, accented] = await Promise.all(
      stored.map((a) => binary(agent.get(`${base}/${a.id}`)).expect(200)),
    );
    expect(defined(hostile).headers['x-evil']).toBeUndefined();
    expect(defined(hostile).headers['content-disposition']).toBe(
      `attachment; filename="a\\"??X-Evil: 1??.html"; filename*=UTF-8''a%22%0D%0AX-Evil%3A%201%0D%0A.html`,
    );
    expect(defined(accented).headers['content-disposition']).toBe(
      `attachment; filename="résumé ??.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%E6%97%A5%E6%9C%AC.pdf`,
    );
    // A piece gone (a fault): the download is cut short, never completed.
    await gw.query(
      'DELETE FROM error_tracking.event_attachment_chunks WHERE attachment_id = $1',
      [defined(stored[1]).id],
    );
    await expect(
      binary(agent.get(`${base}/${defined(stored[1]).id}`)),
    ).rejects.toThrow();
  });

  it('keeps no attachment of an envelope without an event, counting it as discarded', async () => {
    const project = await createTrackedProject(gw);
    const res = await sendRaw(gw.url, {
      path: `/api/v4/error_tracking/collector/api/${project.id}/envelope/?sentry_key=${project.publicKey}`,
      body: Buffer.from(
        `${JSON.stringify({ event_id: 'a'.repeat(32) })}\n${JSON.stringify({ type: 'attachment', filename: 'late.txt', length: 4 })}\nlate\n`,
      ),
    });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({});
    expect(await attachmentsOf(project.id)).toEqual([]);
    expect(await discardsOf(project.id)).toEqual([
      { reason: 'no_event', quantity: 1 },
    ]);
  });

  it('skips an attachment past the per-event bound, then past the project bound, keeping every event', async () => {
    const project = await createTrackedProject(gw);
    const send = async (bytes: number) => {
      const sent = pythonAttachmentEnvelope(project.id, project.publicKey, {
        attachment: randomBytes(bytes),
      });
      const res = await sendRaw(gw.url, sent);
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ id: sent.eventId });
      return sent.eventId;
    };
    // 5 MiB: past the 4 MiB an event keeps.
    const tooLarge = await send(5 * MIB);
    const first = await send(3 * MIB);
    const second = await send(3 * MIB);
    // 7 MiB per project: 6 held, 2 more do not fit.
    const third = await send(2 * MIB);
    for (const eventId of [tooLarge, first, second, third])
      await errorOf(project.id, eventId);
    expect(
      (await attachmentsOf(project.id)).map((a) => [
        a.event_id,
        a.size,
        a.chunks,
      ]),
    ).toEqual([
      [first, 3 * MIB, 12],
      [second, 3 * MIB, 12],
    ]);
    expect(await discardsOf(project.id)).toEqual([
      { reason: 'storage_full', quantity: 1 },
      { reason: 'too_large', quantity: 1 },
    ]);
  });

  it.each([
    ['plain', true],
    ['gzip', false],
  ])(
    'writes a 4 MiB attachment (%s) holding one 256 KiB piece of it at a time, never the attachment',
    async (_name, plain) => {
      const project = await createTrackedProject(gw);
      const attachment = randomBytes(4 * MIB);
      const sent = pythonAttachmentEnvelope(project.id, project.publicKey, {
        attachment,
        plain,
      });
      const { result: res, mostHeld } = await mostBodyBytesHeld(() =>
        sendRaw(gw.url, { ...sent, chunked: true }),
      );
      expect(res.status).toBe(200);
      const [stored] = await attachmentsOf(project.id);
      expect(defined(stored)).toMatchObject({ size: 4 * MIB, chunks: 16 });
      // The piece being written and the event: 267,201 bytes.
      expect(mostHeld).toBeGreaterThanOrEqual(256 * 1024);
      expect(mostHeld).toBeLessThan(256 * 1024 + 64 * 1024);
    },
  );
});
