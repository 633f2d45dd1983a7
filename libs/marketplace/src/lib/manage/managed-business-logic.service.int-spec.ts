import type { TestingModule } from '@nestjs/testing';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import {
  marketplaceTestModule,
  sqlOf,
} from '../../testing/marketplace-test-module';
import { AppsRepository } from '../apps/apps.repository';
import { AppsService } from '../apps/apps.service';
import { BusinessLogicConfig } from '../business-logic/business-logic-config';
import { BusinessLogicRepository } from '../business-logic/business-logic.repository';
import {
  MarketplaceError,
  MarketplaceErrorCode,
} from '../common/marketplace.errors';
import { ManagedAppsRepository } from './managed-apps.repository';
import { ManagedAppsService } from './managed-apps.service';
import { ManagedBusinessLogicService } from './managed-business-logic.service';
import { ManagedServicesRepository } from './managed-services.repository';
import {
  MAX_SERVICE_ENVIRONMENTS,
  ManagedServicesService,
} from './managed-services.service';
import { ORGANIZATION } from './managed-views';

const KEY = 'manage-key-0123456789abcdef0123456789';
const URL = 'https://flex.example.com/pricing';
const SECRET = 'flex-shared-secret';

describe('management API business logic (database)', () => {
  let database: TestDatabase;
  let module: TestingModule;
  let managed: ManagedAppsService;
  let services: ManagedServicesService;
  let logic: ManagedBusinessLogicService;
  let config: BusinessLogicConfig;

  /** The management API's services, with the given sealing keys. */
  const build = (keys: {
    manageEncryptionKey: string;
    mfaEncryptionKey?: string;
  }) =>
    marketplaceTestModule(
      database.url,
      [
        AppsRepository,
        AppsService,
        ManagedAppsRepository,
        ManagedAppsService,
        ManagedServicesRepository,
        ManagedServicesService,
        BusinessLogicRepository,
        BusinessLogicConfig,
        ManagedBusinessLogicService,
      ],
      keys,
    );

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await build({ manageEncryptionKey: KEY, mfaEncryptionKey: KEY });
    managed = module.get(ManagedAppsService);
    services = module.get(ManagedServicesService);
    logic = module.get(ManagedBusinessLogicService);
    config = module.get(BusinessLogicConfig);
  });

  afterAll(async () => {
    await module?.close();
    await database?.close();
  });

  /**
   * An application with its Development environment and a service of its
   * own, made through `on` (the module under test unless another is given).
   */
  async function appWithService(name: string, on = module) {
    const app = await on.get(ManagedAppsService).createApp({ name });
    const env = app.environments[0];
    if (!env) throw new Error('no Development environment');
    const made = on.get(ManagedServicesService);
    const service = await made.create({
      name: `${name} pricing`,
      type: 'external',
      access: { writers: { apps: [app.id] } },
    });
    const svcEnv = await made.createEnvironment(service.id, {
      name: 'prod',
      host: URL,
      secret: SECRET,
    });
    return { app, env, service, svcEnv };
  }

  it('writes what kinvey-cli applies into the business logic the Flex caller runs: the service environment as a Flex service of the app, each endpoint, hook and external collection bound to its handler', async () => {
    const { env, service, svcEnv } = await appWithService('Joined');
    await logic.createEndpoint(env.id, {
      name: 'quote',
      host: svcEnv.id,
      sdkHandlerName: 'quote',
      code: 'function onRequest(request, response, modules) {}',
    });
    await logic.putHook(env.id, 'orders', 'pre-save', {
      host: svcEnv.id,
      sdkHandlerName: 'checkOrder',
    });
    const target = { service: svcEnv.id, handler: 'quote' };
    expect(await config.view(env.id)).toEqual({
      services: [{ name: svcEnv.id, url: URL, timeoutMs: 2_000 }],
      endpoints: { quote: target },
      hooks: {
        orders: { onPreSave: { service: svcEnv.id, handler: 'checkOrder' } },
      },
      dataCollections: {},
    });
    const running = await config.snapshot(env.id);
    expect(running.services.get(svcEnv.id)?.sharedSecret).toBe(SECRET);
    expect(running.endpoints.get('quote')).toEqual(target);
    expect(await logic.endpoints(env.id)).toEqual([
      { name: 'quote', host: svcEnv.id, sdkHandlerName: 'quote' },
    ]);
    await logic.setDataLink(env.id, 'farms', {
      id: 'ignored: the service is found by its environment',
      backingServerId: svcEnv.id,
      serviceObjectName: 'farms',
    });
    expect((await config.view(env.id)).dataCollections).toEqual({
      farms: { service: svcEnv.id, handler: 'farms' },
    });
    expect(await logic.dataLinks(env.id)).toEqual(
      new Map([
        [
          'farms',
          {
            id: service.id,
            backingServerId: svcEnv.id,
            serviceObjectName: 'farms',
          },
        ],
      ]),
    );
    expect(await logic.hooks(env.id)).toEqual([
      {
        collectionName: 'orders',
        hooks: [
          { name: 'onPreSave', host: svcEnv.id, sdkHandlerName: 'checkOrder' },
        ],
      },
    ]);
  });

  it("moves every app's Flex service with its service environment's host and secret, keeping the app's timeout", async () => {
    const { env, service, svcEnv } = await appWithService('Moved');
    await logic.createEndpoint(env.id, {
      name: 'quote',
      host: svcEnv.id,
      sdkHandlerName: 'quote',
    });
    await config.setService(env.id, {
      name: svcEnv.id,
      url: URL,
      sharedSecret: SECRET,
      timeoutMs: 5_000,
    });
    const moved = 'https://flex2.example.com/pricing';
    const newSecret = 'another-shared-secret';
    await services.updateEnvironment(service.id, svcEnv.id, {
      name: 'prod',
      host: moved,
      secret: newSecret,
    });
    expect((await config.view(env.id)).services).toEqual([
      { name: svcEnv.id, url: moved, timeoutMs: 5_000 },
    ]);
    // Another replica's cache aside, this one reads the change at once.
    const running = await config.snapshot(env.id);
    expect(running.services.get(svcEnv.id)?.sharedSecret).toBe(newSecret);
    expect(running.endpoints.get('quote')?.service).toBe(svcEnv.id);
  });

  it('refuses a secret a Flex service cannot have for a bound service environment, changing nothing', async () => {
    const { env, service, svcEnv } = await appWithService('Short');
    await logic.createEndpoint(env.id, {
      name: 'quote',
      host: svcEnv.id,
      sdkHandlerName: 'quote',
    });
    await expect(
      services.updateEnvironment(service.id, svcEnv.id, {
        name: 'prod',
        host: 'https://elsewhere.example.com',
        secret: 'short',
      }),
    ).rejects.toBeInstanceOf(MarketplaceError);
    expect((await services.environments(service.id))[0]).toMatchObject({
      host: URL,
      secret: SECRET,
    });
    expect((await config.view(env.id)).services[0]?.url).toBe(URL);
  });

  it('keeps the service and environment secrets sealed at rest', async () => {
    const { env } = await appWithService('Sealed');
    const sql = sqlOf(module);
    const svcEnvs = await sql.rows<{ sealed_secret: string }>(
      'SELECT sealed_secret FROM marketplace.managed_service_environments',
    );
    expect(svcEnvs.length).toBeGreaterThan(0);
    for (const row of svcEnvs) expect(row.sealed_secret).not.toContain(SECRET);
    const [stored] = await sql.rows<{ sealed_master_secret: string }>(
      'SELECT sealed_master_secret FROM marketplace.managed_environments WHERE app_key = $1',
      [env.id],
    );
    expect(stored?.sealed_master_secret).toMatch(/^v1:/);
    expect(stored?.sealed_master_secret).not.toContain(env.masterSecret);
  });

  it('refuses a handler on a service environment the app may not use, code without a service, and schedules, storing nothing', async () => {
    const { env } = await appWithService('Refused');
    const other = await appWithService('Other');
    for (const body of [
      { name: 'a', host: other.svcEnv.id, sdkHandlerName: 'x' },
      { name: 'b', code: 'function onRequest() {}' },
      {
        name: 'c',
        host: other.svcEnv.id,
        sdkHandlerName: 'x',
        schedule: { start: '2026-01-01T00:00:00Z' },
      },
    ])
      await expect(logic.createEndpoint(env.id, body)).rejects.toBeInstanceOf(
        MarketplaceError,
      );
    await expect(
      logic.setDataLink(env.id, 'farms', {
        id: other.service.id,
        backingServerId: other.svcEnv.id,
        serviceObjectName: 'farms',
      }),
    ).rejects.toBeInstanceOf(MarketplaceError);
    expect(await logic.endpoints(env.id)).toEqual([]);
    expect(await config.view(env.id)).toMatchObject({
      services: [],
      dataCollections: {},
    });
  });

  it('without MARKETPLACE_MFA_ENCRYPTION_KEY keeps services (kinvey-cli service create) but binds none to an app: FeatureUnavailable naming the key, storing nothing', async () => {
    const keyless = await build({ manageEncryptionKey: KEY });
    try {
      // Made without the key: service create needs only the management key.
      const { env, svcEnv } = await appWithService('Keyless', keyless);
      const keylessLogic = keyless.get(ManagedBusinessLogicService);
      for (const bind of [
        () =>
          keylessLogic.createEndpoint(env.id, {
            name: 'quote',
            host: svcEnv.id,
            sdkHandlerName: 'quote',
          }),
        () =>
          keylessLogic.putHook(env.id, 'orders', 'pre-save', {
            host: svcEnv.id,
            sdkHandlerName: 'checkOrder',
          }),
      ])
        await expect(bind()).rejects.toMatchObject({
          code: MarketplaceErrorCode.FeatureUnavailable,
          debug: 'MARKETPLACE_MFA_ENCRYPTION_KEY is not set',
        });
      expect(await config.view(env.id)).toEqual({
        services: [],
        endpoints: {},
        hooks: {},
        dataCollections: {},
      });
    } finally {
      await keyless.close();
    }
  });

  it("lets every app use the organization's services", async () => {
    const { env } = await appWithService('Shared');
    const orgService = await services.create({
      name: 'Org mail',
      type: 'external',
      access: { writers: { organizations: [ORGANIZATION.id] } },
    });
    const orgEnv = await services.createEnvironment(orgService.id, {
      name: 'prod',
      host: URL,
      secret: SECRET,
    });
    await logic.createEndpoint(env.id, {
      name: 'mail',
      host: orgEnv.id,
      sdkHandlerName: 'send',
    });
    expect(await logic.endpoints(env.id)).toEqual([
      { name: 'mail', host: orgEnv.id, sdkHandlerName: 'send' },
    ]);
  });

  it('holds the environments of a service to the limit under parallel creates', async () => {
    const { service } = await appWithService('Crowded');
    const results = await Promise.allSettled(
      Array.from({ length: MAX_SERVICE_ENVIRONMENTS + 5 }, (_, i) =>
        services.createEnvironment(service.id, {
          name: `env-${i}`,
          host: URL,
          secret: SECRET,
        }),
      ),
    );
    // One environment was there already (appWithService's `prod`).
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(
      MAX_SERVICE_ENVIRONMENTS - 1,
    );
    expect(await services.environments(service.id)).toHaveLength(
      MAX_SERVICE_ENVIRONMENTS,
    );
  });

  it("deletes an application's environments, data, services, endpoints and hooks with it", async () => {
    const { app, env, service, svcEnv } = await appWithService('Deleted');
    await logic.createEndpoint(env.id, {
      name: 'quote',
      host: svcEnv.id,
      sdkHandlerName: 'quote',
    });
    await logic.putHook(env.id, 'orders', 'post-fetch', {
      host: svcEnv.id,
      sdkHandlerName: 'shape',
    });
    await managed.deleteApp(app.id);
    const sql = sqlOf(module);
    const left = await sql.rows<{ n: number }>(
      `SELECT (SELECT count(*) FROM marketplace.apps WHERE app_key = $1)
            + (SELECT count(*) FROM marketplace.managed_environments WHERE app_key = $1)
            + (SELECT count(*) FROM marketplace.flex_services WHERE app_key = $1)
            + (SELECT count(*) FROM marketplace.business_logic_bindings WHERE app_key = $1)
            + (SELECT count(*) FROM marketplace.managed_services WHERE id = $2)
            + (SELECT count(*) FROM marketplace.managed_service_environments WHERE service_id = $2) AS n`,
      [env.id, service.id],
    );
    expect(Number(left[0]?.n)).toBe(0);
  });
});
