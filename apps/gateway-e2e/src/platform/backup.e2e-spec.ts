import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadSentryFixtures, openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';
import { Client } from 'pg';
import request from 'supertest';

import {
  ROOT_TOKEN,
  createTrackedProject,
  registerFixtureProject,
  replayFixture,
} from '../error-tracking/error-tracking-support';
import type { ErrorTrackingGateway } from '../error-tracking/error-tracking-support';
import {
  APP_AUTH,
  APP_KEY,
  APP_SECRET,
  MASTER_AUTH,
  MASTER_SECRET,
  startMarketplace,
} from '../marketplace/marketplace-support';
import type { MarketplaceTest } from '../marketplace/marketplace-support';
import { runCli, serveEmbedded } from '../support/gateway-process';

const SCHEMAS = ['marketplace', 'events', 'error_tracking'];

/**
 * Every row of every table of the three schemas (file bytes included, as
 * bytea text) and every sequence's position, in a stable order and UTC.
 */
async function snapshot(url: string): Promise<Record<string, unknown>> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SET TimeZone = 'UTC'");
    const tables = await client.query<{ name: string; kind: string }>(
      `SELECT format('%I.%I', n.nspname, c.relname) AS name, c.relkind AS kind
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = ANY($1) AND c.relkind IN ('r', 'S')
        ORDER BY 1`,
      [SCHEMAS],
    );
    const data: Record<string, unknown> = {};
    for (const { name, kind } of tables.rows) {
      const rows = await client.query<{ row: string }>(
        kind === 'S'
          ? `SELECT last_value::text || '/' || is_called::text AS row FROM ${name}`
          : `SELECT t::text AS row FROM ${name} t ORDER BY 1`,
      );
      data[name] = rows.rows.map((row) => row.row);
    }
    return data;
  } finally {
    await client.end();
  }
}

async function embeddedSnapshot(
  dataDir: string,
): Promise<Record<string, unknown>> {
  const embedded = await serveEmbedded(dataDir);
  try {
    return await snapshot(embedded.url);
  } finally {
    await embedded.close();
  }
}

// The server side needs a PostgreSQL server: without DATABASE_URL every test
// database is an embedded one (see README, Tests), and there is no server.
const withServer = process.env['DATABASE_URL'] ? describe : describe.skip;

withServer('backup and restore, embedded <-> server (e2e)', () => {
  let t: MarketplaceTest;
  let source: Record<string, unknown>;
  let work: string;
  let bytes: Buffer;
  let fileId: string;

  beforeAll(async () => {
    t = await startMarketplace({
      INITIAL_ROOT_TOKEN: ROOT_TOKEN,
      ERROR_TRACKING_RETENTION_INTERVAL_MINUTES: '0',
    });
    work = await mkdtemp(join(tmpdir(), 'quitanda-backup-'));

    // Marketplace: a user, a file's bytes, a record referring to it.
    await t.signup('ana', { city: 'Recife' });
    bytes = Buffer.concat([randomBytes(4096), Buffer.alloc(16)]);
    const file = await t.http
      .post(`/blob/${APP_KEY}`)
      .set('Authorization', APP_AUTH)
      .send({
        _filename: 'photo.bin',
        mimeType: 'application/octet-stream',
        size: bytes.length,
      })
      .expect(201);
    fileId = file.body._id;
    const upload = new URL(file.body._uploadURL);
    await t.http
      .put(`${upload.pathname}${upload.search}`)
      .set('Content-Type', 'application/octet-stream')
      .send(bytes)
      .expect(201);
    await t.http
      .post(`/appdata/${APP_KEY}/product`)
      .set('Authorization', MASTER_AUTH)
      .send({
        name: 'Caju',
        measurement: 'kg',
        image: { _type: 'KinveyFile', _id: fileId },
      })
      .expect(201);
    // Events.
    for (const title of ['one', 'two'])
      await t.http.post('/events').send({ title }).expect(201);
    // Error tracking: a project with a key, and an ingested event.
    const client = new Client({ connectionString: t.gw.databaseUrl });
    await client.connect();
    const et = {
      ...t.gw,
      http: t.http,
      query: async (text: string, values: unknown[] = []) =>
        (await client.query(text, values)).rows,
    } as unknown as ErrorTrackingGateway;
    await createTrackedProject(et);
    await registerFixtureProject(et);
    await client.end();
    const fixture = loadSentryFixtures()[0];
    if (!fixture) throw new Error('no Sentry fixture');
    expect((await replayFixture(t.gw.url, fixture)).status).toBe(200);

    source = await snapshot(t.gw.databaseUrl);
  }, 60_000);

  afterAll(async () => {
    await t?.gw.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('moves a server database into the embedded one, and back to another server, losing nothing', async () => {
    expect(Object.keys(source).length).toBeGreaterThan(10);
    expect(JSON.stringify(source)).toContain(bytes.toString('hex'));

    // Server -> embedded.
    const fromServer = join(work, 'server.sql');
    const dumped = await runCli(['backup', fromServer], {
      DATABASE_URL: t.gw.databaseUrl,
    });
    expect(dumped).toMatchObject({ code: 0, stderr: '' });
    const dataDir = join(work, 'embedded');
    const restored = await runCli(['restore', fromServer], {
      DATA_DIR: dataDir,
    });
    expect(restored).toMatchObject({ code: 0, stderr: '' });
    expect(await embeddedSnapshot(dataDir)).toEqual(source);

    // Embedded -> server (PostgreSQL 15 here): a pre-migrated database is
    // refused unless --replace.
    const fromEmbedded = join(work, 'embedded.sql');
    expect(
      await runCli(['backup', fromEmbedded], { DATA_DIR: dataDir }),
    ).toMatchObject({ code: 0, stderr: '' });
    const target: TestDatabase = await openTestDatabase();
    try {
      const refused = await runCli(['restore', fromEmbedded], {
        DATABASE_URL: target.url,
      });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('only with --replace');
      const replaced = await runCli(['restore', '--replace', fromEmbedded], {
        DATABASE_URL: target.url,
      });
      expect(replaced).toMatchObject({ code: 0, stderr: '' });
      expect(await snapshot(target.url)).toEqual(source);
    } finally {
      await target.close();
    }
  }, 180_000);

  it('serves the restored data: the file reference expands and its bytes download', async () => {
    const file = join(work, 'served.sql');
    expect(
      await runCli(['backup', file], { DATABASE_URL: t.gw.databaseUrl }),
    ).toMatchObject({ code: 0 });
    const target = await openTestDatabase();
    const { loadConfig, startGateway } = await import('@quitanda/gateway');
    try {
      await runCli(['restore', '--replace', file], {
        DATABASE_URL: target.url,
      });
      const gateway = await startGateway(
        loadConfig({
          HOST: '127.0.0.1',
          PORT: '0',
          DATABASE_URL: target.url,
          DATA_DIR: join(work, 'gateway'),
          MIGRATIONS: 'auto',
          LOG_LEVEL: 'silent',
          INITIAL_ROOT_TOKEN: ROOT_TOKEN,
          MARKETPLACE_APP_KEY: APP_KEY,
          MARKETPLACE_APP_SECRET: APP_SECRET,
          MARKETPLACE_MASTER_SECRET: MASTER_SECRET,
        }),
      );
      try {
        const products = await request(gateway.url)
          .get(`/appdata/${APP_KEY}/product`)
          .set('Authorization', MASTER_AUTH)
          .expect(200);
        const url = new URL(products.body[0].image._downloadURL);
        const download = await request(gateway.url)
          .get(`${url.pathname}${url.search}`)
          .buffer(true)
          .parse((res, done) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => done(null, Buffer.concat(chunks)));
          })
          .expect(200);
        expect(Buffer.compare(download.body as Buffer, bytes)).toBe(0);
      } finally {
        await gateway.close();
      }
    } finally {
      await target.close();
    }
  }, 120_000);
});

describe('backup and restore between embedded databases (e2e)', () => {
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'quitanda-backup-embedded-'));
  });

  afterAll(() => rm(work, { recursive: true, force: true }));

  it('copies one embedded database into another, row for row', async () => {
    const from = { DATA_DIR: join(work, 'from') };
    const to = { DATA_DIR: join(work, 'to') };
    expect(await runCli(['migrate'], from)).toMatchObject({ code: 0 });
    const created = await runCli(
      ['marketplace:apps:create', '--name', 'Feira'],
      from,
    );
    expect(created.code).toBe(0);
    const file = join(work, 'embedded.sql');
    expect(await runCli(['backup', file], from)).toMatchObject({
      code: 0,
      stderr: '',
    });
    expect(await runCli(['restore', file], to)).toMatchObject({
      code: 0,
      stderr: '',
    });
    const source = await embeddedSnapshot(from.DATA_DIR);
    expect(JSON.stringify(source)).toContain(
      (JSON.parse(created.stdout) as { appKey: string }).appKey,
    );
    expect(await embeddedSnapshot(to.DATA_DIR)).toEqual(source);
    // A second restore would replace what is there: only when asked.
    const again = await runCli(['restore', file], to);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('only with --replace');
  }, 180_000);
});
