import { DataSource } from 'typeorm';

import { contextDataSourceOptions } from './context-data-source-options';
import { startEmbeddedPostgres } from './embedded-postgres';
import type { EmbeddedPostgres } from './embedded-postgres';
import { runAsCaller } from './read-your-writes/caller-scope';
import { readYourWritesOf } from './read-your-writes/data-source-read-your-writes';
import { Sql, poolOf, readPoolOf } from './sql';

/**
 * What `Sql` remembers of a caller's writes on a real server. Its "replica"
 * here is the same server (no standby: it has every write, so reads stay
 * there); a standby that lags is the scale suite's (scale-out.scale-spec).
 */
describe('Sql read-your-writes', () => {
  let embedded: EmbeddedPostgres;
  const dataSources: DataSource[] = [];

  async function dataSourceOf(withReplica: boolean): Promise<DataSource> {
    const dataSource = new DataSource(
      contextDataSourceOptions({
        name: withReplica ? 'with-replica' : 'primary-only',
        schema: 'public',
        url: embedded.url,
        readUrl: withReplica ? embedded.url : undefined,
        entities: [],
        migrations: [],
      }),
    );
    dataSources.push(await dataSource.initialize());
    return dataSource;
  }

  const asCaller = <T>(key: string, work: () => Promise<T>) =>
    runAsCaller({}, () => key, work);

  beforeAll(async () => {
    embedded = await startEmbeddedPostgres({});
    const sql = new Sql(await dataSourceOf(false));
    await sql.rows('CREATE TABLE notes (id int primary key, body text)');
  });

  afterAll(async () => {
    for (const dataSource of dataSources) await dataSource.destroy();
    await embedded.close();
  });

  it("remembers a caller's writes, in a transaction or alone, and nothing of reads or of writes outside a caller's scope", async () => {
    const dataSource = await dataSourceOf(true);
    const sql = new Sql(dataSource);
    const remembered = () =>
      readYourWritesOf(poolOf(dataSource), readPoolOf(dataSource)).remembered;
    await sql.rows('INSERT INTO notes VALUES (1, $1)', ['no caller']);
    await asCaller('reader', async () => {
      await sql.rows('SELECT body FROM notes');
      await sql.transaction((tx) => tx.rows('SELECT body FROM notes'));
    });
    expect(remembered()).toBe(0);
    await asCaller('ana', () =>
      sql.transaction(async (tx) => {
        await tx.rows('SELECT body FROM notes');
        await tx.rows('INSERT INTO notes VALUES (2, $1)', ['in a transaction']);
      }),
    );
    expect(remembered()).toBe(1);
    await asCaller('bruno', () =>
      sql.rows('UPDATE notes SET body = $1 WHERE id = 1', ['alone']),
    );
    expect(remembered()).toBe(2);
    // The same server has replayed them all: both read there, and are
    // forgotten.
    for (const caller of ['ana', 'bruno']) {
      const rows = await asCaller(caller, () =>
        Sql.replica(dataSource).rows<{ n: number }>(
          'SELECT count(*)::int AS n FROM notes',
        ),
      );
      expect(rows[0]?.n).toBe(2);
    }
    expect(remembered()).toBe(0);
  });

  it('remembers, for each caller that asks, a write another scope sent for it (a batch)', async () => {
    const dataSource = await dataSourceOf(true);
    const sql = new Sql(dataSource);
    const tracker = readYourWritesOf(
      poolOf(dataSource),
      readPoolOf(dataSource),
    );
    // The batch is sent outside every caller's scope, as a timer would.
    await sql.rows('INSERT INTO notes VALUES (4, $1), (5, $1)', ['batched']);
    expect(tracker.remembered).toBe(0);
    await asCaller('carla', () => sql.wroteForCaller());
    await asCaller('davi', () => sql.wroteForCaller());
    expect(tracker.remembered).toBe(2);
    // Outside a scope, and on the replica's Sql, there is no one to remember.
    await sql.wroteForCaller();
    await asCaller('eva', () => Sql.replica(dataSource).wroteForCaller());
    expect(tracker.remembered).toBe(2);
  });

  it('adds no query without a replica', async () => {
    const dataSource = await dataSourceOf(false);
    const pool = poolOf(dataSource);
    const query = jest.spyOn(pool, 'query');
    await asCaller('ana', async () => {
      await new Sql(dataSource).rows('INSERT INTO notes VALUES (3, $1)', [
        'primary only',
      ]);
      await Sql.replica(dataSource).rows('SELECT body FROM notes');
      await new Sql(dataSource).wroteForCaller();
    });
    expect(query).toHaveBeenCalledTimes(2);
    query.mockRestore();
  });
});
