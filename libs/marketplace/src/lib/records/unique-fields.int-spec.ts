import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { TestingModule } from '@nestjs/testing';
import type { Sql } from '@quitanda/database';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import {
  marketplaceTestModule,
  sqlOf,
} from '../../testing/marketplace-test-module';
import { CollectionsRepository } from '../app-collections/collections.repository';
import { CollectionsService } from '../app-collections/collections.service';
import { AppsRepository } from '../apps/apps.repository';
import { AppsService } from '../apps/apps.service';
import type { Principal } from '../auth/principal';
import { FilesRepository } from '../files/files.repository';
import { FilesService } from '../files/files.service';
import { KinveyImportService } from '../import/kinvey-import.service';
import { MarketplaceErrorCode } from '../common/marketplace.errors';
import { UsersRepository } from '../users/users.repository';
import { RecordsRepository } from './records.repository';
import { RecordsService } from './records.service';

/** Three unique fields: the first kept in `unique_name`, two beyond it. */
const PEOPLE = {
  unique: [
    { field: 'email', fold: ['case', 'trim'] },
    { field: 'phone' },
    { field: 'profile.nick', fold: ['case'] },
  ],
};

describe('several unique fields per collection (database)', () => {
  let database: TestDatabase;
  let module: TestingModule;
  let apps: AppsService;
  let collections: CollectionsService;
  let records: RecordsService;
  let sql: Sql;
  let n = 0;

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await marketplaceTestModule(database.url, [
      AppsRepository,
      AppsService,
      CollectionsRepository,
      CollectionsService,
      FilesRepository,
      FilesService,
      RecordsRepository,
      RecordsService,
      UsersRepository,
      KinveyImportService,
    ]);
    apps = module.get(AppsService);
    collections = module.get(CollectionsService);
    records = module.get(RecordsService);
    sql = sqlOf(module);
  });

  afterAll(async () => {
    await module?.close();
    await database?.close();
  });

  /** A fresh app with `people` declared as `settings` say: its master. */
  async function appWith(settings: unknown = PEOPLE): Promise<Principal> {
    const { appKey } = await apps.create({
      name: `unique ${++n}`,
      definition: null,
    });
    await collections.create(appKey, 'people', settings);
    return { kind: 'master', app: await apps.get(appKey) };
  }

  const create = (master: Principal, body: object) =>
    records.create(master, 'people', body);

  const update = (master: Principal, id: string, body: object) =>
    records.upsert(master, 'people', id, body);

  /** The error `work` fails with, as code and debug. */
  async function failure(
    work: Promise<unknown>,
  ): Promise<{ code: string; debug: string }> {
    const error = await work.then(
      () => {
        throw new Error('expected a failure');
      },
      (e: unknown) => e as { code: string; debug: string },
    );
    return { code: error.code, debug: error.debug };
  }

  const duplicateOf = (field: string) => ({
    code: MarketplaceErrorCode.DuplicateEntity,
    debug: field,
  });

  /** The values `record_unique_values` holds for the app, as `record:field=value`. */
  async function heldValues(master: Principal): Promise<string[]> {
    const rows = await sql.rows<{ held: string }>(
      `SELECT record_id || ':' || field || '=' || value AS held
         FROM marketplace.record_unique_values
        WHERE app_key = $1 AND value IS NOT NULL ORDER BY 1`,
      [master.app.appKey],
    );
    return rows.map((row) => row.held);
  }

  it('lets one of concurrent creates of a value of any unique field win; the others are DuplicateEntity naming it', async () => {
    const master = await appWith();
    for (const [field, bodies] of [
      ['phone', (i: number) => ({ email: `p${i}@x`, phone: '555' })],
      [
        'profile.nick',
        (i: number) => ({
          email: `n${i}@x`,
          profile: { nick: i % 2 ? 'Zé' : 'zé' },
        }),
      ],
      ['email', (i: number) => ({ email: i % 2 ? ' A@X ' : 'a@x' })],
    ] as const) {
      const outcomes = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) => create(master, bodies(i))),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      for (const outcome of outcomes)
        if (outcome.status === 'rejected')
          expect({
            code: outcome.reason.code,
            debug: outcome.reason.debug,
          }).toEqual(duplicateOf(field));
    }
    expect(await records.count(master, 'people', {})).toBe(3);
  });

  it('refuses an update to a value another record holds; a record keeps its own value and frees the one it leaves', async () => {
    const master = await appWith();
    const ana = await create(master, { email: 'ana@x', phone: '1' });
    const bia = await create(master, { email: 'bia@x', phone: '2' });
    const bid = String(bia['_id']);
    await expect(
      failure(update(master, bid, { email: 'bia@x', phone: '1' })),
    ).resolves.toEqual(duplicateOf('phone'));
    await update(master, bid, { email: 'bia@x', phone: '2', age: 30 });
    await update(master, bid, { email: 'bia@x', phone: '3' });
    await create(master, { email: 'caio@x', phone: '2' });
    // A value dropped from the record is freed too.
    await update(master, String(ana['_id']), { email: 'ana@x' });
    await create(master, { email: 'davi@x', phone: '1' });
    expect(
      (await heldValues(master)).filter((held) => held.startsWith(bid)),
    ).toEqual([`${bid}:phone=3`]);
  });

  it('keeps exactly the last value of a record that two updates change at once', async () => {
    const master = await appWith();
    const id = String(
      (await create(master, { email: 'e@x', phone: '0' }))['_id'],
    );
    await Promise.all(
      ['1', '2', '3', '4'].map((phone) =>
        update(master, id, { email: 'e@x', phone }),
      ),
    );
    const stored = await records.get(master, 'people', id);
    expect(await heldValues(master)).toEqual([
      `${id}:phone=${stored['phone']}`,
    ]);
  });

  it('frees the values of deleted records, deleted one by one or by query', async () => {
    const master = await appWith();
    const ana = await create(master, { email: 'ana@x', phone: '1' });
    await create(master, {
      email: 'bia@x',
      phone: '2',
      profile: { nick: 'b' },
    });
    await records.remove(master, 'people', String(ana['_id']));
    await create(master, { email: 'ana2@x', phone: '1' });
    await records.removeWhere(master, 'people', {
      query: JSON.stringify({ email: 'bia@x' }),
    });
    await create(master, {
      email: 'bia2@x',
      phone: '2',
      profile: { nick: 'B' },
    });
    expect(await heldValues(master)).toHaveLength(3);
  });

  it('refuses a unique field that existing records already repeat, naming it, and changes nothing', async () => {
    const master = await appWith({ unique: [{ field: 'email' }] });
    await create(master, { email: 'a@x', phone: '1' });
    await create(master, { email: 'b@x', phone: '1' });
    const refused = await failure(
      collections.update(master.app.appKey, 'people', {
        unique: [{ field: 'email' }, { field: 'phone' }],
      }),
    );
    expect(refused.code).toBe(MarketplaceErrorCode.BadRequest);
    expect(refused.debug).toBe('unique: phone');
    await expect(
      collections.show(master.app.appKey, 'people'),
    ).resolves.toEqual({
      name: 'people',
      settings: { unique: [{ field: 'email', fold: [] }] },
    });
    expect(await heldValues(master)).toEqual([]);
    await create(master, { email: 'c@x', phone: '1' });
  });

  it('applies an added unique field to the records already there', async () => {
    const master = await appWith({ unique: [{ field: 'email' }] });
    const ana = await create(master, { email: 'a@x', phone: ' 1' });
    await collections.update(master.app.appKey, 'people', {
      unique: [{ field: 'email' }, { field: 'phone', fold: ['trim'] }],
    });
    expect(await heldValues(master)).toEqual([`${ana['_id']}:phone=1`]);
    await expect(
      failure(create(master, { email: 'b@x', phone: '1 ' })),
    ).resolves.toEqual(duplicateOf('phone'));
  });

  it('drops the values of a unique field removed or moved first, and of a deleted collection', async () => {
    const master = await appWith();
    const appKey = master.app.appKey;
    await create(master, { email: 'a@x', phone: '1', profile: { nick: 'n' } });
    // `phone` becomes the first field (its own column), `email` one beyond.
    await collections.update(appKey, 'people', {
      unique: [{ field: 'phone' }, { field: 'email' }],
    });
    expect((await heldValues(master)).map((h) => h.split(':')[1])).toEqual([
      'email=a@x',
    ]);
    await expect(
      failure(create(master, { email: 'b@x', phone: '1' })),
    ).resolves.toEqual(duplicateOf('phone'));
    await expect(
      failure(create(master, { email: 'a@x', phone: '2' })),
    ).resolves.toEqual(duplicateOf('email'));
    await create(master, { email: 'c@x', phone: '3', profile: { nick: 'm' } });

    await collections.update(appKey, 'people', {});
    expect(await heldValues(master)).toEqual([]);
    await create(master, { email: 'd@x', phone: '1' });

    await collections.update(appKey, 'people', {
      unique: [{ field: 'email' }, { field: 'profile.nick' }],
    });
    expect(await heldValues(master)).toHaveLength(2);
    await collections.remove(appKey, 'people');
    expect(await heldValues(master)).toEqual([]);
  });

  it('holds imported records to every unique field', async () => {
    const master = await appWith();
    const dir = await mkdtemp(join(tmpdir(), 'unique-import-'));
    try {
      await writeFile(
        join(dir, 'people.json'),
        JSON.stringify([
          { _id: 'p1', email: 'a@x', phone: '1' },
          { _id: 'p2', email: 'b@x', phone: '1' },
          { _id: 'p3', email: 'c@x', phone: '3' },
        ]),
      );
      const rejected: string[] = [];
      const report = await module
        .get(KinveyImportService)
        .importDirectory(master.app.appKey, dir, {
          progress: () => undefined,
          rejected: (_file, _index, id, reason) =>
            rejected.push(`${String(id)}: ${reason}`),
        });
      expect(report['people.json']).toEqual({
        imported: 2,
        unchanged: 0,
        rejected: 1,
      });
      expect(rejected).toEqual([expect.stringMatching(/^p[12]: .*\(phone\)$/)]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
