import type { ReceivedMail } from '@quitanda/testing';
import request from 'supertest';

import { runCli } from '../support/gateway-process';
import { startTestGateway } from '../support/test-gateway';
import type { TestGateway } from '../support/test-gateway';

export const APP_KEY = 'kid_e2eMarketApp0001';
export const APP_SECRET = 'app-secret-0123456789abcdef';
export const MASTER_SECRET = 'master-secret-0123456789abcdef';
export const OTHER_APP_KEY = 'kid_otherApp00000002';

export const MARKETPLACE_ENV = {
  MARKETPLACE_APP_KEY: APP_KEY,
  MARKETPLACE_APP_SECRET: APP_SECRET,
  MARKETPLACE_MASTER_SECRET: MASTER_SECRET,
  MARKETPLACE_APP_NAME: 'Quitanda e2e',
};

export function basic(name: string, secret: string): string {
  return `Basic ${Buffer.from(`${name}:${secret}`).toString('base64')}`;
}

export const APP_AUTH = basic(APP_KEY, APP_SECRET);
export const MASTER_AUTH = basic(APP_KEY, MASTER_SECRET);

export interface MarketplaceTest {
  readonly gw: TestGateway;
  readonly http: ReturnType<typeof request>;
  /** Kinvey's login with app credentials; the pending request. */
  login(username: string, password: string): request.Test;
  /** Signs a user up (app credentials) and returns it with its session header. */
  signup(username: string, extra?: Record<string, unknown>): Promise<TestUser>;
  /** Declares a collection of the e2e app (master); the pending request. */
  declare(name: string, settings?: unknown): request.Test;
  /** Creates a record with `auth`; the pending request. */
  post(collection: string, auth: string, body: unknown): request.Test;
}

/** A signed-up user with its session header. */
export interface TestUser {
  readonly id: string;
  readonly auth: string;
  readonly body: Record<string, unknown>;
}

/** The e2e app's collections administration path. */
export const adminPath = (path = '') => `/admin/${APP_KEY}/collections${path}`;

export async function startMarketplace(
  env: Record<string, string> = {},
): Promise<MarketplaceTest> {
  const gw = await startTestGateway({ ...MARKETPLACE_ENV, ...env });
  const http = request(gw.url);
  return {
    gw,
    http,
    login: (username, password) =>
      http
        .post(`/user/${APP_KEY}/login`)
        .set('Authorization', APP_AUTH)
        .send({ username, password }),
    async signup(username, extra = {}) {
      const res = await http
        .post(`/user/${APP_KEY}`)
        .set('Authorization', APP_AUTH)
        .send({ username, password: 'correct horse battery', ...extra })
        .expect(201);
      return {
        id: res.body._id as string,
        auth: `Kinvey ${res.body._kmd.authtoken as string}`,
        body: res.body as Record<string, unknown>,
      };
    },
    declare: (name, settings = {}) =>
      http
        .post(adminPath())
        .set('Authorization', MASTER_AUTH)
        .send({ name, settings }),
    post: (collection, auth, body) =>
      http
        .post(`/appdata/${APP_KEY}/${collection}`)
        .set('Authorization', auth)
        .send(body as object),
  };
}

/** An app the operator made with the CLI, and its credentials as headers. */
export interface CliApp {
  readonly appKey: string;
  readonly appSecret: string;
  readonly masterSecret: string;
  readonly appAuth: string;
  readonly masterAuth: string;
}

/**
 * `marketplace:apps:create` with `options`, then set to create collections
 * on first write: before the gateway first sees the app, since it rereads
 * an app's settings only a few seconds after another process changed them.
 */
export async function createAppByCli(
  gw: TestGateway,
  options: readonly string[],
): Promise<CliApp> {
  const env = { DATABASE_URL: gw.databaseUrl, DATA_DIR: gw.dataDir };
  const created = await runCli(['marketplace:apps:create', ...options], env);
  if (created.stderr !== '') throw new Error(created.stderr);
  const app = JSON.parse(created.stdout) as CliApp;
  const on = await runCli(
    ['marketplace:apps:create-collections-on-write', '--app', app.appKey, 'on'],
    env,
  );
  if (on.code !== 0) throw new Error(on.stderr);
  return {
    ...app,
    appAuth: basic(app.appKey, app.appSecret),
    masterAuth: basic(app.appKey, app.masterSecret),
  };
}

/** Kinvey's error body: three strings. */
export function kinveyError(name: string) {
  return {
    error: name,
    description: expect.any(String),
    debug: expect.any(String),
  };
}

/** Creates a file with `auth`, uploads its bytes; its id and download URL. */
export async function uploadFile(
  t: MarketplaceTest,
  file: { _filename: string; mimeType: string; _public?: boolean },
  bytes: Buffer,
  auth = APP_AUTH,
): Promise<{ id: string; downloadURL: string }> {
  const created = await t.http
    .post(`/blob/${APP_KEY}`)
    .set('Authorization', auth)
    .send({ ...file, size: bytes.length })
    .expect(201);
  const upload = new URL(created.body._uploadURL);
  await t.http
    .put(`${upload.pathname}${upload.search}`)
    .set('Content-Type', file.mimeType)
    .send(bytes)
    .expect(201);
  const meta = await t.http
    .get(`/blob/${APP_KEY}/${created.body._id}`)
    .set('Authorization', auth)
    .expect(200);
  return { id: created.body._id, downloadURL: meta.body._downloadURL };
}

/** The link an account mail carries, its quoted-printable soft breaks undone. */
export function mailedLink(mail: ReceivedMail): URL {
  const text = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = /https?:\/\/\S+\/account\/\S+?\?token=[A-Za-z0-9_-]+/.exec(
    text,
  );
  if (!match) throw new Error(`no link in:\n${mail.raw}`);
  return new URL(match[0]);
}

/** Submits the form of a mailed link's page, its token and `fields`, as a user would. */
export function submitMailedLink(
  http: ReturnType<typeof request>,
  link: URL,
  fields: Record<string, string> = {},
): request.Test {
  return http
    .post(link.pathname)
    .type('form')
    .send({ token: link.searchParams.get('token'), ...fields });
}
