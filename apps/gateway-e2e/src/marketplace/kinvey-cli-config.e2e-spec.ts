import type { ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { freePort } from '@quitanda/testing';
import { CustomEndpoint, DataStore, DataStoreType, User } from 'kinvey-js-sdk';
import request from 'supertest';

import { startFlexService, stopFlexService } from './flex-service-process';
import { asOps, startWithOperatorProfile } from './kinvey-cli-support';
import type { KinveyCli } from './kinvey-cli-support';
import { initKinveySdk } from './kinvey-js-sdk-platform';
import { basic } from './marketplace-support';
import type { TestGateway } from '../support/test-gateway';

const FLEX_URL = 'https://pricing.example.com/flex';
const FLEX_SECRET = 'pricing-shared-secret';
const PRODUCE_SECRET = 'produce-shared-secret-0123456789';
// Seals the Flex services the environments' endpoints and hooks run on.
const SEALING_KEY = 'e2e-flex-sealing-key-0123456789abcdef';

const SERVICE_FILE = {
  schemaVersion: '1.0.0',
  configType: 'service',
  type: 'flex-external',
  description: 'Prices and checks',
  environments: { prod: { host: FLEX_URL, secret: FLEX_SECRET } },
};

const flex = (handlerName: string) => ({
  type: 'external',
  service: 'Pricing',
  serviceEnvironment: 'prod',
  handlerName,
});

const ENV_FILE = {
  schemaVersion: '1.0.0',
  configType: 'environment',
  collections: {
    orders: { type: 'internal', permissions: 'private' },
    products: { type: 'internal', permissions: 'read-only' },
  },
  customEndpoints: { quote: flex('quote') },
  collectionHooks: { orders: { onPreSave: flex('checkOrder') } },
};

const APP_FILE = {
  schemaVersion: '1.0.0',
  configType: 'application',
  services: { Pricing: SERVICE_FILE },
  environments: { Development: ENV_FILE },
};

interface Env {
  id: string;
  appSecret: string;
  masterSecret: string;
}

/**
 * kinvey-cli 6.1.3's configuration files against the management API:
 * `service create|export` of an External Flex service, `app create
 * --file`, `app apply`, `appenv apply` and `app export`/`appenv export`
 * (collections with permissions, endpoints and hooks mapped to a service),
 * and the Flex service an applied endpoint names run by kinvey-js-sdk.
 */
// Each kinvey-cli command is a Node process of its own (about a second),
// and the operator commands compile the CLI from sources: a test runs
// several, well past the default 30 s on a loaded machine.
jest.setTimeout(180_000);

describe('kinvey-cli 6.1.3 configuration files (e2e)', () => {
  let gw: TestGateway;
  let cli: KinveyCli;
  let produce: ChildProcess | undefined;

  beforeAll(async () => {
    ({ gw, cli } = await startWithOperatorProfile({
      MARKETPLACE_MFA_ENCRYPTION_KEY: SEALING_KEY,
    }));
  }, 120_000);

  afterAll(async () => {
    await stopFlexService(produce);
    await cli?.close();
    await gw?.close();
  });

  const file = async (name: string, content: unknown): Promise<string> => {
    const path = join(cli.home, name);
    await writeFile(path, JSON.stringify(content));
    return path;
  };
  const readJson = async (path: string): Promise<Record<string, unknown>> =>
    JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
  /** `appenv export` of an application's environment to `path`. */
  const exportEnv = (app: string, env: string, path: string) =>
    cli.json(
      asOps('appenv', 'export', '--app', app, '--env', env, '--file', path),
    );
  /** `appenv apply` of the configuration file at `path`. */
  const applyEnv = (app: string, env: string, path: string) =>
    cli.json(
      asOps('appenv', 'apply', '--file', path, '--app', app, '--env', env),
    );
  /** `app create`, from a configuration file when given one. */
  const createApp = async (name: string, config?: unknown) => {
    const from = config ? ['--file', await file(`${name}.json`, config)] : [];
    const created = await cli.json<{ result: { id: string } }>(
      asOps('app', 'create', name, ...from, '--org', 'Quitanda'),
    );
    return created.result.id;
  };
  /** The declared collections of an environment and their permissions. */
  const permissions = async (env: Env) => {
    const res = await request(gw.url)
      .get(`/admin/${env.id}/collections`)
      .set('Authorization', basic(env.id, env.masterSecret))
      .expect(200);
    return Object.fromEntries(
      (res.body as { name: string; settings: { permissions?: string } }[]).map(
        (c) => [c.name, c.settings.permissions ?? 'shared'],
      ),
    );
  };

  it('creates an External Flex service from a file and exports it', async () => {
    const created = await cli.json<{ result: { id: string } }>(
      asOps(
        'service',
        'create',
        'Catalog',
        '--file',
        await file('catalog-service.json', SERVICE_FILE),
        '--org',
        'Quitanda',
      ),
    );
    const out = join(cli.home, 'exported-service.json');
    await cli.json(
      asOps('service', 'export', '--service', created.result.id, '--file', out),
    );
    expect(await readJson(out)).toEqual(SERVICE_FILE);
  });

  /** An environment with its secrets (`appenv show`). */
  const showEnv = async (app: string, env: string) =>
    (
      await cli.json<{ result: Env }>(
        asOps('appenv', 'show', '--app', app, '--env', env),
      )
    ).result;

  it('creates an application from a file (service, collections with permissions, endpoint and hook) and exports it as it was applied', async () => {
    const appId = await createApp('Shop', APP_FILE);
    expect(await permissions(await showEnv(appId, 'Development'))).toEqual({
      orders: 'private',
      products: 'read-only',
    });

    const envOut = join(cli.home, 'export', 'development.json');
    await exportEnv('Shop', 'Development', envOut);
    // What was applied comes back as it was written.
    expect(await readJson(envOut)).toMatchObject(ENV_FILE);

    const appOut = join(cli.home, 'app-export', 'shop.json');
    await cli.json(asOps('app', 'export', '--app', 'Shop', '--file', appOut));
    expect(await readJson(appOut)).toMatchObject({
      configType: 'application',
      environments: {
        Development: 'file::./environments/Development/Development.json',
      },
      services: { Pricing: 'file::./services/Pricing.json' },
    });
    expect(
      await readJson(join(cli.home, 'app-export', 'services', 'Pricing.json')),
    ).toMatchObject({
      type: 'flex-external',
      environments: SERVICE_FILE.environments,
    });
  });

  it('applies an environment file (collections added and changed, as kinvey-cli deletes none; the hook remapped) and an application file (a new environment)', async () => {
    const appId = await createApp('Market', APP_FILE);
    const envFile = await file('market-dev.json', {
      ...ENV_FILE,
      collections: {
        orders: { type: 'internal', permissions: 'shared' },
        stock: { type: 'internal', permissions: 'full' },
      },
      collectionHooks: { orders: { onPreSave: flex('checkOrderV2') } },
    });
    await applyEnv(appId, 'Development', envFile);
    expect(await permissions(await showEnv(appId, 'Development'))).toEqual({
      orders: 'shared',
      products: 'read-only',
      stock: 'full',
    });
    const exported = join(cli.home, 'market-dev-export.json');
    await exportEnv(appId, 'Development', exported);
    expect(await readJson(exported)).toMatchObject({
      collectionHooks: { orders: { onPreSave: flex('checkOrderV2') } },
    });

    const prodFile = await file('market-prod.json', {
      ...APP_FILE,
      environments: { Production: ENV_FILE },
    });
    await cli.json(asOps('app', 'apply', '--app', appId, '--file', prodFile));
    const envs = await cli.json<{ result: { name: string }[] }>(
      asOps('appenv', 'list', '--app', appId),
    );
    expect(envs.result.map((e) => e.name)).toEqual([
      'Development',
      'Production',
    ]);
  });

  it("refuses business logic written as code in Kinvey's shape, listing it as not served", async () => {
    const appId = await createApp('Coded');
    const coded = await file('coded.json', {
      schemaVersion: '1.0.0',
      configType: 'environment',
      customEndpoints: {
        hello: {
          type: 'internal',
          code: 'function onRequest(r, s) { s.complete(); }',
        },
      },
    });
    const applied = await cli.run(
      asOps(
        'appenv',
        'apply',
        '--app',
        appId,
        '--env',
        'Development',
        '--file',
        coded,
      ),
    );
    expect(applied.code).not.toBe(0);
    expect(applied.stderr).toContain('FeatureUnavailable');
    const exported = join(cli.home, 'coded-export.json');
    await exportEnv(appId, 'Development', exported);
    expect(await readJson(exported)).not.toHaveProperty('customEndpoints');
  });

  it('runs the Flex service that appenv apply configured: a custom endpoint and an external collection called through kinvey-js-sdk reach the service environment applied', async () => {
    const port = await freePort();
    produce = await startFlexService(port, PRODUCE_SECRET);
    await cli.json(
      asOps(
        'service',
        'create',
        'Produce',
        '--file',
        await file('produce-service.json', {
          ...SERVICE_FILE,
          environments: {
            prod: { host: `http://127.0.0.1:${port}`, secret: PRODUCE_SECRET },
          },
        }),
        '--org',
        'Quitanda',
      ),
    );
    const appId = await createApp('Grocer');
    const farms = {
      type: 'external',
      permissions: 'shared',
      service: 'Produce',
      serviceEnvironment: 'prod',
      serviceObject: 'farms',
    };
    const envFile = await file('grocer-dev.json', {
      schemaVersion: '1.0.0',
      configType: 'environment',
      collections: { farms },
      customEndpoints: {
        hello: {
          type: 'external',
          service: 'Produce',
          serviceEnvironment: 'prod',
          handlerName: 'hello',
        },
      },
    });
    await applyEnv(appId, 'Development', envFile);
    const env = await showEnv(appId, 'Development');
    initKinveySdk(gw.url, { appKey: env.id, appSecret: env.appSecret });
    await User.signup({
      username: 'grocer',
      password: 'correct horse battery',
    });
    const user = await User.login('grocer', 'correct horse battery');
    await expect(
      CustomEndpoint.execute('hello', { name: 'Ana' }),
    ).resolves.toEqual({
      greeting: 'hello Ana',
      username: 'grocer',
      userId: user._id,
    });
    // The external collection is the service's object (FlexData).
    const store = DataStore.collection('farms', DataStoreType.Network);
    const north: { _id: string } = await store.save({
      name: 'North',
      state: 'SP',
    });
    await expect(store.findById(north._id).toPromise()).resolves.toMatchObject({
      name: 'North',
      state: 'SP',
    });
    const exported = join(cli.home, 'grocer-export.json');
    await exportEnv(appId, 'Development', exported);
    expect(await readJson(exported)).toMatchObject({
      collections: { farms },
    });
  });
});
