import { execFile } from 'node:child_process';
import { createServer, request as httpRequest } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import {
  ROOT_TOKEN,
  createTrackedProject,
  sendRaw,
  startErrorTrackingGateway,
  unique,
} from './error-tracking-support';
import type { ErrorTrackingGateway } from './error-tracking-support';

const root = { 'PRIVATE-TOKEN': ROOT_TOKEN };

/** Debian's interpreter, where `apt-get install python3-gitlab` puts the client. */
const PYTHON = '/usr/bin/python3';
const ERRORS = 5;

interface ClientRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function runClient(env: Record<string, string>): Promise<ClientRun> {
  return new Promise((resolve) => {
    execFile(
      PYTHON,
      [join(__dirname, 'python-gitlab-client.py')],
      { env: { PATH: process.env['PATH'] ?? '', ...env }, timeout: 120_000 },
      (error, stdout, stderr) =>
        resolve({
          status: error
            ? typeof error.code === 'number'
              ? error.code
              : -1
            : 0,
          stdout,
          stderr,
        }),
    );
  });
}

/** ERRORS distinct errors in a new project, the i-th reported i + 1 times. */
async function reportErrors(gw: ErrorTrackingGateway): Promise<number> {
  const project = await createTrackedProject(gw);
  for (let i = 0; i < ERRORS; i += 1)
    for (let n = 0; n <= i; n += 1) {
      const res = await sendRaw(gw.url, {
        path: `/api/v4/error_tracking/collector/api/${project.id}/store/?sentry_key=${project.publicKey}`,
        headers: { 'Content-Type': 'application/json' },
        body: Buffer.from(
          JSON.stringify({
            timestamp: Date.now() / 1000 - 60 * (i * 10 + n),
            exception: {
              values: [{ type: `Error${i}`, value: `failure ${i}` }],
            },
          }),
        ),
      });
      expect(res.status).toBe(200);
    }
  return project.id;
}

/** The client's JSON summary, after failing with its traceback if it failed. */
function summaryOf(run: ClientRun): Record<string, unknown> {
  if (run.status !== 0)
    throw new Error(
      `python-gitlab client exited with ${run.status}:\n${run.stderr}${run.stdout}`,
    );
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}');
}

/**
 * The GitLab client Debian 12 ships (python-gitlab 3.12), unchanged, against
 * the real gateway: every call of python-gitlab-client.py must succeed, and
 * any client exception or warning fails this spec with its traceback.
 */
describe('python-gitlab (Debian python3-gitlab) against the gateway (e2e)', () => {
  let gw: ErrorTrackingGateway;
  let errorsProject: number;
  let run: ClientRun;

  beforeAll(async () => {
    gw = await startErrorTrackingGateway();
    errorsProject = await reportErrors(gw);
    run = await runClient({
      GITLAB_URL: gw.url,
      GITLAB_TOKEN: ROOT_TOKEN,
      ERRORS_PROJECT_ID: String(errorsProject),
      ERRORS_COUNT: String(ERRORS),
      NONCE: unique('n'),
    });
  }, 150_000);

  afterAll(() => gw?.close());

  it('runs every call without a client error or warning', () => {
    const summary = summaryOf(run);
    expect(summary).toMatchObject({
      python_gitlab: expect.stringMatching(/^\d+\.\d+/),
      errors: ERRORS,
      events: ERRORS,
    });
    expect(summary['projects']).toBeGreaterThanOrEqual(8);
  });

  it('left the state the client asked for', async () => {
    const projects = await gw.http
      .get('/api/v4/projects?per_page=1')
      .set(root)
      .expect(200);
    expect(summaryOf(run)['projects']).toBe(
      Number(projects.headers['x-total']),
    );
    const resolved = await gw.http
      .get(
        `/api/v4/projects/${errorsProject}/error_tracking/errors?status=resolved`,
      )
      .set(root)
      .expect(200);
    expect(resolved.body).toEqual([
      expect.objectContaining({ count: ERRORS, status: 'resolved' }),
    ]);
  });
});

/**
 * The same client through a reverse proxy that serves the gateway under
 * `/base`, with PUBLIC_BASE_URL saying so: every link and URL the client
 * follows must carry the public base, or it warns (base URL mismatch) or
 * gets 404s.
 */
describe('python-gitlab behind a proxy under a base path (e2e)', () => {
  let gw: ErrorTrackingGateway;
  let proxy: Server;
  let upstream: URL;
  let run: ClientRun;

  beforeAll(async () => {
    proxy = createServer((req, res) => {
      if (!req.url?.startsWith('/base/')) {
        res.writeHead(404).end();
        return;
      }
      const forward = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url.slice('/base'.length),
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.writeHead(502).end());
      req.pipe(forward);
    });
    await new Promise<void>((ready) =>
      proxy.listen(0, '127.0.0.1', () => ready()),
    );
    const publicUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/base`;
    gw = await startErrorTrackingGateway({ PUBLIC_BASE_URL: publicUrl });
    upstream = new URL(gw.url);
    run = await runClient({
      GITLAB_URL: publicUrl,
      GITLAB_TOKEN: ROOT_TOKEN,
      ERRORS_PROJECT_ID: String(await reportErrors(gw)),
      ERRORS_COUNT: String(ERRORS),
      NONCE: unique('n'),
    });
  }, 150_000);

  afterAll(async () => {
    await new Promise((closed) => proxy?.close(closed));
    await gw?.close();
  });

  it('runs every call without a client error or warning', () => {
    expect(summaryOf(run)).toMatchObject({ errors: ERRORS, events: ERRORS });
  });
});
