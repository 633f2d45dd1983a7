import { randomBytes } from 'node:crypto';

import { Client } from 'pg';

import {
  pythonAttachmentEnvelope,
  zstdAttachmentEnvelope,
} from '../error-tracking/python-attachment-envelope';
import type { PythonEnvelope } from '../error-tracking/python-attachment-envelope';
import { peakRssMb, startGatewayProcess } from './support/gateway-process';
import { startFaultCluster } from './support/fault-cluster';
import type { FaultCluster } from './support/fault-cluster';
import {
  GATEWAY_ENV,
  SCALE,
  probeLive,
  send,
  trackedProject,
} from './support/scenario';

/** The contract's ceiling ("Reliability": under any load). */
const RSS_LIMIT_MB = 300;
const MIB = 1024 * 1024;
/**
 * Errors with a large attachment uploaded at once: 6 in CI (a third each
 * plain, gzip and zstd), 12 at full size (`FAULTS_SCALE` 2 or more).
 */
const UPLOADS = SCALE > 1 ? 12 : 6;

/**
 * Errors with large attachments at once, against one gateway process
 * (contract, "Limits": skipped items are read through and dropped as they
 * stream in; "Reliability": RSS under 300 MB under any load). Each upload
 * is a Python SDK 1.21.0 envelope of an error and a 30 MiB attachment
 * (31 MB as sent, plain or gzip), or the same error with 40 MiB of log
 * text attached, zstd (6 KB as sent): every one is answered 200 with its
 * event's id and its event stored, while the gateway stays under 300 MB
 * resident and `/health/live` keeps answering.
 */
describe('errors with large attachments (fault)', () => {
  let cluster: FaultCluster;

  beforeAll(async () => {
    cluster = await startFaultCluster('large-attachments');
  });

  afterAll(async () => {
    await cluster?.destroy();
  });

  /**
   * Sends `uploads` at once to a fresh gateway process, probing
   * `/health/live` meanwhile; then `check` reads the database.
   */
  async function uploadAtOnce(
    name: string,
    uploads: (project: { id: number; publicKey: string }) => PythonEnvelope[],
    check: (db: Client, projectId: number) => Promise<void>,
  ): Promise<void> {
    const gw = await startGatewayProcess({
      ...GATEWAY_ENV,
      DATABASE_URL: cluster.databaseUrl,
      DATA_DIR: cluster.dataDir,
    });
    const db = new Client({ connectionString: cluster.databaseUrl });
    try {
      await db.connect();
      const project = await trackedProject(gw.url);
      const sent = uploads(project);

      // prom-client's event-loop lag: its maximum since the last scrape.
      const maxLoopLagMs = async () => {
        const metrics = await send(`${gw.url}/metrics`);
        const max = /^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(
          metrics.text,
        );
        return Number(max?.[1] ?? Number.NaN) * 1000;
      };
      await maxLoopLagMs();
      let uploading = true;
      let slowestProbeMs = 0;
      const probeStatuses = new Set<number>();
      const probe = (async () => {
        while (uploading) {
          const answer = await probeLive(gw.url);
          probeStatuses.add(answer.status);
          slowestProbeMs = Math.max(slowestProbeMs, answer.ms);
        }
      })();
      const started = performance.now();
      const answers = await Promise.all(
        sent.map((upload) =>
          send(`${gw.url}${upload.path}`, {
            method: 'POST',
            headers: upload.headers,
            body: upload.body,
            timeoutMs: 120_000,
          }),
        ),
      );
      const elapsedMs = performance.now() - started;
      uploading = false;
      await probe;
      const loopLagMs = await maxLoopLagMs();

      const rss = await peakRssMb(await gw.servingPid());
      console.log(
        `${name}: ${sent.length} uploads (${Math.round(
          sent.reduce((sum, u) => sum + u.body.length, 0) / 1e6,
        )} MB in all) at once in ${Math.round(elapsedMs)} ms; slowest probe ${Math.round(
          slowestProbeMs,
        )} ms (${[...probeStatuses].join(', ')}); gateway event loop held up at most ${Math.round(
          loopLagMs,
        )} ms; gateway peak RSS ${Math.round(rss)} MB`,
      );
      expect(answers.map((a) => [a.status, a.text])).toEqual(
        sent.map((u) => [200, JSON.stringify({ id: u.eventId })]),
      );
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM error_tracking.events WHERE project_id = $1',
        [project.id],
      );
      expect(rows[0]?.n).toBe(sent.length);
      await check(db, project.id);
      expect([...probeStatuses]).toEqual([200]);
      expect(loopLagMs).toBeLessThan(1_000);
      expect(rss).toBeGreaterThan(0);
      expect(rss).toBeLessThan(RSS_LIMIT_MB);
    } finally {
      await db.end().catch(() => undefined);
      gw.kill('SIGTERM');
      await gw.exited;
    }
  }

  it(`keeps the event of ${UPLOADS} errors with 30-40 MiB attachments sent at once, under 300 MB resident`, async () => {
    const attachment = randomBytes(30 * MIB);
    await uploadAtOnce(
      'large attachments',
      (project) =>
        Array.from({ length: UPLOADS }, (_, i) =>
          i % 3 === 2
            ? zstdAttachmentEnvelope(project.id, project.publicKey)
            : pythonAttachmentEnvelope(project.id, project.publicKey, {
                attachment,
                plain: i % 3 === 0,
              }),
        ),
      async () => undefined,
    );
  });

  it(`stores ${UPLOADS} errors' 20 MiB attachments (the most an event keeps) sent at once, under 300 MB resident`, async () => {
    const attachment = randomBytes(20 * MIB);
    await uploadAtOnce(
      'stored attachments',
      (project) =>
        Array.from({ length: UPLOADS }, (_, i) =>
          pythonAttachmentEnvelope(project.id, project.publicKey, {
            attachment,
            plain: i % 2 === 0,
          }),
        ),
      async (db, projectId) => {
        const { rows } = await db.query<{ n: number; bytes: string }>(
          `SELECT count(*)::int AS n, sum(size)::text AS bytes
             FROM error_tracking.event_attachments
            WHERE project_id = $1 AND event_id IS NOT NULL`,
          [projectId],
        );
        expect(rows[0]).toEqual({
          n: UPLOADS,
          bytes: String(UPLOADS * 20 * MIB),
        });
      },
    );
  });
});
