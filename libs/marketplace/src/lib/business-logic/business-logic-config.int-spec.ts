import type { TestingModule } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';
import type { DataSource } from 'typeorm';

import { marketplaceTestModule } from '../../testing/marketplace-test-module';
import { MARKETPLACE_DATA_SOURCE } from '../common/marketplace.constants';
import { MarketplaceErrorCode } from '../common/marketplace.errors';
import {
  BusinessLogicConfig,
  MAX_FLEX_SERVICES,
} from './business-logic-config';
import { BusinessLogicRepository } from './business-logic.repository';

const KEY = 'int-spec-sealing-key-0123456789abcdef';
const SECRET = 'flex-shared-secret-0123456789';
const service = (name: string, overrides: Record<string, unknown> = {}) => ({
  name,
  url: 'http://127.0.0.1:9/flex/',
  sharedSecret: SECRET,
  ...overrides,
});
const target = { service: 'produce', handler: 'checkOffer' };

describe('business logic configuration (database)', () => {
  let database: TestDatabase;
  let module: TestingModule;
  let config: BusinessLogicConfig;
  let dataSource: DataSource;

  async function build(mfaEncryptionKey?: string): Promise<TestingModule> {
    return marketplaceTestModule(
      database.url,
      [BusinessLogicRepository, BusinessLogicConfig],
      mfaEncryptionKey ? { mfaEncryptionKey } : {},
    );
  }

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await build(KEY);
    config = module.get(BusinessLogicConfig);
    dataSource = module.get(getDataSourceToken(MARKETPLACE_DATA_SOURCE));
  });

  afterAll(async () => {
    await module?.close();
    await database?.close();
  });

  it('stores the shared secret sealed, shows none, and opens it for calls', async () => {
    await config.setService('kid_seal', service('produce', { timeoutMs: 900 }));
    const [row] = await dataSource.query(
      'SELECT url, sealed_secret, sealed_callback_key, timeout_ms FROM marketplace.flex_services WHERE app_key = $1',
      ['kid_seal'],
    );
    expect(row).toMatchObject({
      url: 'http://127.0.0.1:9/flex',
      timeout_ms: 900,
    });
    expect(row.sealed_secret).not.toContain(SECRET);
    expect(JSON.stringify(await config.view('kid_seal'))).not.toContain(SECRET);
    const opened = await config.service('kid_seal', 'produce');
    expect(opened).toMatchObject({ sharedSecret: SECRET, timeoutMs: 900 });
    expect(opened.callbackMasterSecret).not.toBe(opened.callbackAppSecret);
  });

  it('knows the call-back secrets it handed out, and keeps them when the service changes', async () => {
    await config.setService('kid_back', service('produce'));
    const first = await config.service('kid_back', 'produce');
    await expect(
      config.callbackKind('kid_back', first.callbackMasterSecret),
    ).resolves.toEqual({ kind: 'master', service: 'produce' });
    await expect(
      config.callbackKind('kid_back', first.callbackAppSecret),
    ).resolves.toEqual({ kind: 'app', service: 'produce' });
    await expect(
      config.callbackKind('kid_other', first.callbackMasterSecret),
    ).resolves.toBeUndefined();
    await config.setService(
      'kid_back',
      service('produce', { url: 'https://flex.test' }),
    );
    const changed = await config.service('kid_back', 'produce');
    expect(changed.url).toBe('https://flex.test');
    expect(changed.callbackMasterSecret).toBe(first.callbackMasterSecret);
    await config.removeService('kid_back', 'produce');
    await expect(
      config.callbackKind('kid_back', first.callbackMasterSecret),
    ).resolves.toBeUndefined();
  });

  it('binds endpoints, hooks and FlexData collections, and drops the cached snapshot on each change', async () => {
    await config.setService('kid_bind', service('produce'));
    const before = await config.snapshot('kid_bind');
    expect(before.hooks.size).toBe(0);
    await config.setHook('kid_bind', 'offers', 'onPreSave', target);
    await config.setEndpoint('kid_bind', 'summary', {
      service: 'produce',
      handler: 'offerSummary',
    });
    await config.setDataCollection('kid_bind', 'farms', {
      service: 'produce',
      handler: 'farms',
    });
    const after = await config.snapshot('kid_bind');
    expect(after.hooks.get('offers')?.get('onPreSave')).toEqual(target);
    expect(after.endpoints.get('summary')).toEqual({
      service: 'produce',
      handler: 'offerSummary',
    });
    expect(after.dataCollections.get('farms')).toEqual({
      service: 'produce',
      handler: 'farms',
    });
    await expect(config.view('kid_bind')).resolves.toMatchObject({
      hooks: { offers: { onPreSave: target } },
      endpoints: { summary: { service: 'produce', handler: 'offerSummary' } },
      dataCollections: { farms: { service: 'produce', handler: 'farms' } },
    });
    // A service removed takes what was bound to it along.
    await config.removeService('kid_bind', 'produce');
    const gone = await config.snapshot('kid_bind');
    expect(gone.services.size + gone.hooks.size + gone.endpoints.size).toBe(0);
  });

  it('binds hooks to the user collection but never serves it from FlexData', async () => {
    await config.setService('kid_users', service('produce'));
    await expect(
      config.setDataCollection('kid_users', 'user', target),
    ).rejects.toMatchObject({ code: MarketplaceErrorCode.BadRequest });
    await config.setHook('kid_users', 'user', 'onPreSave', target);
    await expect(config.view('kid_users')).resolves.toMatchObject({
      hooks: { user: { onPreSave: target } },
      dataCollections: {},
    });
  });

  it('refuses bad input with a clear error and changes nothing', async () => {
    const refused = [
      () =>
        config.setService('kid_bad', service('produce', { url: 'ftp://x' })),
      () =>
        config.setService(
          'kid_bad',
          service('produce', { url: 'http://u:p@x' }),
        ),
      () =>
        config.setService(
          'kid_bad',
          service('produce', { sharedSecret: 'short' }),
        ),
      () => config.setService('kid_bad', service('produce', { timeoutMs: 10 })),
      () =>
        config.setService('kid_bad', service('produce', { timeoutMs: 60_001 })),
      () => config.setService('kid_bad', service('../x')),
      () => config.setHook('kid_bad', 'offers', 'onPreSave', target),
      () => config.setHook('kid_bad', 'offers', 'beforeSave', target),
      () => config.setHook('kid_bad', '_offers', 'onPreSave', target),
    ];
    for (const attempt of refused)
      await expect(attempt()).rejects.toMatchObject({
        code: expect.stringMatching(/^(BadRequest|EntityNotFound)$/),
      });
    await expect(config.view('kid_bad')).resolves.toEqual({
      services: [],
      endpoints: {},
      hooks: {},
      dataCollections: {},
    });
    await expect(
      config.removeEndpoint('kid_bad', 'none'),
    ).rejects.toMatchObject({
      code: MarketplaceErrorCode.EntityNotFound,
    });
  });

  it(`holds an app to ${MAX_FLEX_SERVICES} services`, async () => {
    for (let n = 0; n < MAX_FLEX_SERVICES; n++)
      await config.setService('kid_many', service(`s${n}`));
    await expect(
      config.setService('kid_many', service('one-more')),
    ).rejects.toMatchObject({
      code: MarketplaceErrorCode.BadRequest,
    });
    // Changing one it has is no new one.
    await expect(
      config.setService('kid_many', service('s0', { timeoutMs: 500 })),
    ).resolves.toBeUndefined();
  });

  it('needs the sealing key to register a service, and says which', async () => {
    const keyless = await build();
    try {
      await expect(
        keyless
          .get(BusinessLogicConfig)
          .setService('kid_nokey', service('produce')),
      ).rejects.toMatchObject({
        code: MarketplaceErrorCode.FeatureUnavailable,
        debug: expect.stringContaining('MARKETPLACE_MFA_ENCRYPTION_KEY'),
      });
    } finally {
      await keyless.close();
    }
  });
});
