import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { setImmediate } from 'node:timers/promises';

import { BODY_BUDGET } from '@quitanda/http';

import {
  createTrackedProject,
  sendRaw,
  startErrorTrackingGateway,
} from '../error-tracking/error-tracking-support';
import type { ErrorTrackingGateway } from '../error-tracking/error-tracking-support';
import { pythonAttachmentEnvelope } from '../error-tracking/python-attachment-envelope';
import { mostBodyBytesHeld } from '../support/body-bytes-held';
import {
  APP_KEY,
  MASTER_AUTH,
  MARKETPLACE_ENV,
} from '../marketplace/marketplace-support';

const MIB = 1024 * 1024;

/**
 * Opens a collector request whose envelope has one event item of
 * `eventBytes` and sends only up to the first byte of that event: the
 * gateway holds the event's declared length of its budget until the
 * request ends. `finish` sends the rest and reads the status.
 */
async function heldOpen(
  url: string,
  path: string,
  eventBytes: number,
): Promise<{ finish(): Promise<string>; destroy(): void }> {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  await new Promise((resolve) => socket.once('connect', resolve));
  const head = `{}\n{"type":"event","length":${eventBytes}}\n{`;
  const rest = `${' '.repeat(eventBytes - 2)}}\n`;
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Length: ${head.length + rest.length}\r\n\r\n${head}`,
  );
  return {
    destroy: () => socket.destroy(),
    finish: () =>
      new Promise((resolve) => {
        let answer = '';
        socket.on('data', (chunk: Buffer) => {
          answer += chunk.toString('latin1');
          if (answer.includes('\r\n\r\n')) {
            socket.destroy();
            resolve(answer.slice(0, answer.indexOf('\r\n')));
          }
        });
        socket.write(rest);
      }),
  };
}

/**
 * The bytes of request bodies buffered at once are bounded across every
 * context (contract, "Limits": 429 with Retry-After past it): with the
 * budget held by one large body in flight, JSON bodies of each context and
 * collector bodies are refused in their context's error format; once it
 * ends they are served again.
 */
describe('body budget (e2e)', () => {
  let gw: ErrorTrackingGateway;
  let project: { id: number; publicKey: string };

  beforeAll(async () => {
    gw = await startErrorTrackingGateway({
      ...MARKETPLACE_ENV,
      HTTP_BODY_BUDGET_BYTES: String(2 * MIB),
      // One event may then be larger than the whole budget.
      ERROR_TRACKING_MAX_EVENT_BYTES: String(4 * MIB),
    });
    project = await createTrackedProject(gw);
  });

  afterAll(() => gw?.close());

  const collectorPath = () =>
    `/api/v4/error_tracking/collector/api/${project.id}/envelope/?sentry_key=${project.publicKey}`;
  const event = JSON.stringify({ title: 'budget' });

  async function answers() {
    const events = await gw.http
      .post('/events')
      .set('Content-Type', 'application/json')
      .send(event);
    const marketplace = await gw.http
      .post(`/appdata/${APP_KEY}/product`)
      .set('Authorization', MASTER_AUTH)
      .set('Content-Type', 'application/json')
      .send({ name: 'budget', measurement: 'kg', price: '3,50' });
    const collector = await sendRaw(gw.url, {
      path: collectorPath(),
      body: Buffer.from('{}\n{"type":"event"}\n{"message":"budget"}\n'),
    });
    return { events, marketplace, collector };
  }

  it('answers 429 with Retry-After in each context while the budget is held, and serves again after', async () => {
    const held = await heldOpen(gw.url, collectorPath(), 2 * MIB);
    try {
      // The gateway (in this process) takes the event's declared length
      // once its item header is read, after the key lookup.
      while (BODY_BUDGET.usedBytes === 0) await setImmediate();
      const { events, marketplace, collector } = await answers();
      expect(events.status).toBe(429);
      expect(events.headers['retry-after']).toBe('1');
      expect(events.headers['content-type']).toMatch(/problem\+json/);
      expect(events.body).toMatchObject({ status: 429 });
      expect(marketplace.status).toBe(429);
      expect(marketplace.headers['retry-after']).toBe('1');
      expect(marketplace.body).toMatchObject({ error: 'TooManyRequests' });
      expect(collector.status).toBe(429);
      expect(collector.headers['retry-after']).toBe('1');
      expect(collector.json()).toEqual({ detail: expect.any(String) });

      // The held request itself is served (an event of blanks).
      expect(await held.finish()).toMatch(/^HTTP\/1\.1 200/);
      expect(BODY_BUDGET.usedBytes).toBe(0);
      const after = await answers();
      expect(after.events.status).toBe(201);
      expect(after.marketplace.status).toBe(201);
      expect(after.collector.status).toBe(200);
    } finally {
      held.destroy();
    }
  });

  it('answers 413 to an event the whole budget could never hold', async () => {
    const res = await sendRaw(gw.url, {
      path: collectorPath(),
      body: Buffer.concat([
        Buffer.from(`{}\n{"type":"event","length":${3 * MIB}}\n`),
        Buffer.alloc(3 * MIB, ' '),
      ]),
    });
    expect(res.status).toBe(413);
    expect(res.json()).toEqual({
      detail: expect.stringMatching(/buffers at once/),
    });
  });

  it.each([
    ['plain', true],
    ['gzip', false],
  ])(
    "holds only an envelope's kept items: an error with a 30 MiB attachment passes a 2 MiB budget (%s)",
    async (_name, plain) => {
      const sent = pythonAttachmentEnvelope(project.id, project.publicKey, {
        plain,
      });
      const { result: res, mostHeld } = await mostBodyBytesHeld(() =>
        sendRaw(gw.url, sent),
      );
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ id: sent.eventId });
      // The event (a few KB), never the attachment.
      expect(mostHeld).toBeGreaterThan(0);
      expect(mostHeld).toBeLessThan(64 * 1024);
    },
  );
});
