import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { SENTRY_CLI_FIXTURES_DIR, defined } from '@quitanda/testing';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';

import { launchChromium, signIn } from '../ui/browser-support';
import {
  createUser,
  startErrorTrackingGateway,
  unique,
} from './error-tracking-support';
import type { ErrorTrackingGateway, TestUser } from './error-tracking-support';
import { sentryCli } from './sentry-cli-support';

const WORKSPACE = resolve(__dirname, '../../../..');

/** Serves the page, the SDK and the minified bundle from `root` (another origin). */
async function serveStatic(root: string, pages: Record<string, string>) {
  const types: Record<string, string> = {
    '.js': 'text/javascript',
    '.map': 'application/json',
  };
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const page = pages[path];
    if (page !== undefined) {
      res.writeHead(200, { 'Content-Type': 'text/html' }).end(page);
      return;
    }
    if (!/^\/(static\/)?[\w.-]+$/.test(path)) {
      res.writeHead(404).end();
      return;
    }
    readFile(join(root, path)).then(
      (body) =>
        res
          .writeHead(200, {
            'Content-Type':
              types[path.slice(path.lastIndexOf('.'))] ??
              'application/octet-stream',
          })
          .end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

describe('sentry-cli + esbuild + @sentry/browser in Chromium: minified errors come back with their original frames (e2e)', () => {
  let gw: ErrorTrackingGateway;
  let user: TestUser;
  let project: { id: number; path: string; dsn: string };
  let work: string;
  let browser: Browser;
  const uploads: string[] = [];

  beforeAll(async () => {
    gw = await startErrorTrackingGateway();
    user = await createUser(gw);
    const auth = { 'PRIVATE-TOKEN': user.token };
    const created = await gw.http
      .post('/api/v4/projects')
      .set(auth)
      .send({ name: unique('web-shop') })
      .expect(201);
    await gw.http
      .put(`/api/v4/projects/${created.body.id}/error_tracking/settings`)
      .set(auth)
      .send({ active: true, integrated: true })
      .expect(200);
    const keys = await gw.http
      .get(`/api/v4/projects/${created.body.id}/error_tracking/client_keys`)
      .set(auth)
      .expect(200);
    project = {
      id: created.body.id,
      path: created.body.path,
      dsn: keys.body[0].sentry_dsn,
    };

    // The fixture app's source, bundled and minified by esbuild with a linked map.
    work = await mkdtemp(join(tmpdir(), 'quitanda-sourcemaps-'));
    await cp(join(SENTRY_CLI_FIXTURES_DIR, 'app/src'), join(work, 'src'), {
      recursive: true,
    });
    await build({
      entryPoints: [join(work, 'src/main.js')],
      outfile: join(work, 'dist/app.min.js'),
      bundle: true,
      minify: true,
      sourcemap: true,
      format: 'iife',
      logLevel: 'silent',
    });
    // The SDK as a page script (npm ships no browser bundle of it).
    await writeFile(
      join(work, 'sdk-entry.js'),
      "import * as Sentry from '@sentry/browser';\nwindow.Sentry = Sentry;\n",
    );
    await build({
      entryPoints: [join(work, 'sdk-entry.js')],
      outfile: join(work, 'sdk.js'),
      bundle: true,
      minify: true,
      format: 'iife',
      nodePaths: [join(WORKSPACE, 'node_modules')],
      logLevel: 'silent',
    });

    uploads.push(
      await sentryCli(gw, user.token, work, [
        'releases',
        'new',
        'shop@1.0.0',
        '--org',
        'quitanda',
        '--project',
        String(project.id),
      ]),
      await sentryCli(gw, user.token, work, ['sourcemaps', 'inject', 'dist/']),
      await sentryCli(gw, user.token, work, [
        'sourcemaps',
        'upload',
        '--org',
        'quitanda',
        '--project',
        project.path,
        '--wait',
        'dist/',
      ]),
      await sentryCli(gw, user.token, work, [
        'releases',
        'finalize',
        'shop@1.0.0',
        '--org',
        'quitanda',
        '--project',
        String(project.id),
      ]),
    );
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('uploads the injected bundle and records the release with the real sentry-cli', async () => {
    expect(uploads.join('\n')).toMatch(/Bundled 2 files for upload/);
    const [bundle] = await gw.query<{ files: number; debug_ids: number }>(
      `SELECT b.file_count AS files,
              (SELECT count(DISTINCT debug_id)::int FROM error_tracking.artifact_files f
                WHERE f.bundle_id = b.id) AS debug_ids
         FROM error_tracking.artifact_bundles b WHERE b.project_id = $1`,
      [project.id],
    );
    expect(bundle).toEqual({ files: 2, debug_ids: 1 });
    const [release] = await gw.query<{ released: boolean }>(
      `SELECT date_released IS NOT NULL AS released FROM error_tracking.releases
        WHERE project_id = $1 AND version = 'shop@1.0.0'`,
      [project.id],
    );
    expect(release?.released).toBe(true);
  });

  it('resolves the error thrown by the minified bundle in Chromium to the original file, line and function, in the API and on the page', async () => {
    const site = await serveStatic(work, {
      '/index.html': `<!doctype html><html><head><title>shop</title>
<script src="/sdk.js"></script>
<script>Sentry.init({ dsn: ${JSON.stringify(project.dsn)}, release: 'shop@1.0.0' });</script>
</head><body><script src="/static/app.min.js"></script></body></html>`,
    });
    // The bundle is served from /static/, as a deployment would.
    await cp(join(work, 'dist'), join(work, 'static'), { recursive: true });
    try {
      const page = await browser.newPage();
      // The error's own envelope: with a release set the SDK also sends a
      // session envelope, which may be answered first.
      const sent = page.waitForResponse(
        (r) =>
          r.url().includes('/envelope') &&
          r.request().method() === 'POST' &&
          (r.request().postData() ?? '').includes('invalid cart item live'),
      );
      await page.goto(`${site.origin}/index.html?tag=live`);
      expect((await sent).status()).toBe(200);
      await page.close();
    } finally {
      await site.close();
    }

    const auth = { 'PRIVATE-TOKEN': user.token };
    const base = `/api/v4/projects/${project.id}/error_tracking`;
    const list = await gw.http.get(`${base}/errors`).set(auth).expect(200);
    const error = defined(
      list.body.find((e: { title: string }) =>
        e.title.startsWith('TypeError: invalid cart item live'),
      ),
      'the TypeError',
    );
    expect(error.culprit).toBe('validateItem(src/validate.js)');
    const trace = await gw.http
      .get(`${base}/errors/${error.id}/stack_trace`)
      .set(auth)
      .expect(200);
    const entries = trace.body.error.stack_trace_entries as Array<{
      abs_path: string;
      function: string | null;
      lineNo: number;
      context: Array<[number, string]>;
      source_map: { filename: string; lineNo: number } | null;
    }>;
    const crash = defined(entries[entries.length - 1]);
    expect(crash).toMatchObject({ function: 'validateItem', lineNo: 4 });
    // Resolved against the URL the bundle was served from.
    expect(crash.abs_path).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/src\/validate\.js$/,
    );
    expect(crash.context).toContainEqual([
      4,
      '    throw new TypeError(`invalid cart item ${tag}`);',
    ]);
    expect(crash.source_map?.filename).toMatch(/\/static\/app\.min\.js$/);
    expect(entries.map((e) => e.function)).toEqual(
      expect.arrayContaining(['checkout', 'computeTotal', 'validateItem']),
    );

    const detail = await gw.http
      .get(`${base}/errors/${error.id}`)
      .set(auth)
      .expect(200);
    const page = await browser.newPage();
    try {
      await signIn(page, gw.url, user.username, 'correct horse battery');
      await page.goto(detail.body.external_url);
      const crashFrame = page.locator('details.frame.crash');
      await expect(
        crashFrame.locator('.frame-file').textContent(),
      ).resolves.toMatch(/^src\/validate\.js:4:11$/);
      await expect(crashFrame.locator('.frame-fn').textContent()).resolves.toBe(
        'in validateItem',
      );
      await expect(
        crashFrame.locator('.source-mapped').textContent(),
      ).resolves.toBe('source map');
    } finally {
      await page.close();
    }
  });
});
