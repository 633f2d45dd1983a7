import type { TestingModule } from '@nestjs/testing';
import { Sql } from '@quitanda/database';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import {
  marketplaceTestModule,
  sqlOf,
} from '../../testing/marketplace-test-module';
import { MarketplaceErrorCode } from '../common/marketplace.errors';
import { RecordsRepository } from './records.repository';
import type { NewRecord } from './records.repository';

/**
 * Creates sent in one turn go to PostgreSQL as one batch; each must still
 * end as it would alone.
 */
describe('batched creates (database)', () => {
  let database: TestDatabase;
  let module: TestingModule;
  let records: RecordsRepository;
  let sql: Sql;
  let apps = 0;

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await marketplaceTestModule(database.url, [RecordsRepository]);
    records = module.get(RecordsRepository);
    sql = sqlOf(module);
  });

  afterAll(async () => {
    await module?.close();
    await database?.close();
  });

  /** A fresh app key with one user, `producer`. */
  async function app(): Promise<string> {
    const appKey = `kid_batch${++apps}`;
    await sql.rows(
      `INSERT INTO marketplace.users (app_key, id, username, doc, password_hash, created_at, updated_at)
       VALUES ($1, 'producer', 'producer', '{}', 'x', now(), now())`,
      [appKey],
    );
    return appKey;
  }

  const record = (
    appKey: string,
    id: string,
    fields: Record<string, unknown> = {},
    uniqueName: string | null = null,
  ): NewRecord => ({
    appKey,
    collection: 'offers',
    id,
    doc: { _id: id, ...fields },
    creator: 'producer',
    uniqueName,
    uniqueField: 'name',
    now: new Date('2026-11-29T12:00:00.000Z'),
  });

  async function stored(appKey: string): Promise<Array<[string, unknown]>> {
    const rows = await sql.rows<{ id: string; doc: { n?: unknown } }>(
      `SELECT id, doc FROM marketplace.records WHERE app_key = $1 ORDER BY id`,
      [appKey],
    );
    return rows.map((row) => [row.id, row.doc.n]);
  }

  /** Settles each insert, as `stored`, `false`, or its error code. */
  const outcomes = (inserts: Array<Promise<boolean>>) =>
    Promise.all(
      inserts.map((insert) =>
        insert.then(
          (ok) => (ok ? 'stored' : false),
          (error: { code?: string; message?: string }) =>
            error.code ?? error.message,
        ),
      ),
    );

  it('stores every record of a turn in one statement, each exactly as sent', async () => {
    const appKey = await app();
    const statements = jest.spyOn(Sql.prototype, 'prepared');
    const answers = await outcomes(
      Array.from({ length: 20 }, (_, n) =>
        records.insert(
          record(appKey, `r${String(n).padStart(2, '0')}`, { n }),
          'producer',
        ),
      ),
    );
    expect(answers).toEqual(Array(20).fill('stored'));
    expect(statements.mock.calls.map(([name]) => name)).toEqual([
      'mkt_insert_records',
    ]);
    statements.mockRestore();
    expect(await stored(appKey)).toEqual(
      Array.from({ length: 20 }, (_, n) => [
        `r${String(n).padStart(2, '0')}`,
        n,
      ]),
    );
    const [row] = await sql.rows<{ doc: unknown; created_at: Date }>(
      `SELECT doc, created_at FROM marketplace.records WHERE app_key = $1 AND id = 'r03'`,
      [appKey],
    );
    expect(row).toEqual({
      doc: { _id: 'r03', n: 3 },
      created_at: new Date('2026-11-29T12:00:00.000Z'),
    });
  });

  it('sends at most a MiB of records in one statement', async () => {
    const appKey = await app();
    const statements = jest.spyOn(Sql.prototype, 'prepared');
    const big = 'x'.repeat(700 * 1024);
    const answers = await outcomes([
      records.insert(record(appKey, 'big1', { big })),
      records.insert(record(appKey, 'big2', { big })),
      records.insert(record(appKey, 'small', { n: 1 })),
    ]);
    expect(answers).toEqual(['stored', 'stored', 'stored']);
    // The ids each statement carried.
    expect(
      statements.mock.calls.map(([, , values]) =>
        String(values[0]).match(/"i":"\w+"/g),
      ),
    ).toEqual([['"i":"big1"'], ['"i":"big2"', '"i":"small"']]);
    statements.mockRestore();
  });

  it('answers the one record whose producer is no user false, and stores the rest', async () => {
    const appKey = await app();
    const answers = await outcomes([
      records.insert(record(appKey, 'a', { n: 1 }), 'producer'),
      records.insert(record(appKey, 'b', { n: 2 }), 'nobody'),
      records.insert(record(appKey, 'c', { n: 3 })),
    ]);
    expect(answers).toEqual(['stored', false, 'stored']);
    expect(await stored(appKey)).toEqual([
      ['a', 1],
      ['c', 3],
    ]);
  });

  it('stores one of two records sent with one id, and the other is DuplicateEntity; so is an id already stored', async () => {
    const appKey = await app();
    await records.insert(record(appKey, 'taken', { n: 0 }));
    const answers = await outcomes([
      records.insert(record(appKey, 'twin', { n: 1 })),
      records.insert(record(appKey, 'twin', { n: 2 })),
      records.insert(record(appKey, 'taken', { n: 3 })),
      records.insert(record(appKey, 'free', { n: 4 })),
    ]);
    expect(answers).toEqual([
      'stored',
      MarketplaceErrorCode.DuplicateEntity,
      MarketplaceErrorCode.DuplicateEntity,
      'stored',
    ]);
    expect(await stored(appKey)).toEqual([
      ['free', 4],
      ['taken', 0],
      ['twin', 1],
    ]);
  });

  it('refuses a unique value another record of the turn holds, naming its field', async () => {
    const appKey = await app();
    const answers = await outcomes([
      records.insert(record(appKey, 'a', { n: 1 }, 'ripe')),
      records.insert(record(appKey, 'b', { n: 2 }, 'ripe')),
    ]);
    expect(answers).toEqual(['stored', MarketplaceErrorCode.DuplicateEntity]);
    await expect(
      records.insert(record(appKey, 'c', {}, 'ripe')),
    ).rejects.toMatchObject({ debug: 'name' });
  });

  it('fails only the record PostgreSQL cannot store (NUL); it goes alone, the others of its turn in one batch', async () => {
    const appKey = await app();
    const statements = jest.spyOn(Sql.prototype, 'prepared');
    const answers = await outcomes([
      records.insert(record(appKey, 'a', { n: 1 })),
      records.insert(record(appKey, 'bad', { n: 'nul \u0000 inside' })),
      records.insert(record(appKey, 'c', { n: 3 })),
    ]);
    expect(answers[0]).toBe('stored');
    expect(answers[1]).not.toBe('stored');
    expect(answers[2]).toBe('stored');
    // The NUL record at once, alone; the other two at the turn's end.
    expect(statements.mock.calls.map(([name]) => name)).toEqual([
      'mkt_insert_record',
      'mkt_insert_records',
    ]);
    statements.mockRestore();
    expect(await stored(appKey)).toEqual([
      ['a', 1],
      ['c', 3],
    ]);
  });

  it('clears the tombstone of an id created again, and keeps it when the create is refused', async () => {
    const appKey = await app();
    await sql.rows(
      `INSERT INTO marketplace.record_tombstones (app_key, collection, id, deleted_at)
       VALUES ($1, 'offers', 'back', now()), ($1, 'offers', 'refused', now())`,
      [appKey],
    );
    const answers = await outcomes([
      records.insert(record(appKey, 'back'), 'producer'),
      records.insert(record(appKey, 'refused'), 'nobody'),
    ]);
    expect(answers).toEqual(['stored', false]);
    const tombstones = await sql.rows<{ id: string }>(
      `SELECT id FROM marketplace.record_tombstones WHERE app_key = $1`,
      [appKey],
    );
    expect(tombstones).toEqual([{ id: 'refused' }]);
  });
});
