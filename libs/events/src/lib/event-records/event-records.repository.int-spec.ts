import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { newId } from '@quitanda/kernel';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';
import type { TestingModule } from '@nestjs/testing';

import { EVENTS_DATA_SOURCE } from '../common/events.constants';
import { eventsDataSourceOptions } from '../persistence/events.data-source-options';
import type { EventRecord } from './event-record';
import { EventRecordsRepository } from './event-records.repository';

function record(overrides: Partial<EventRecord> = {}): EventRecord {
  const at = new Date('2026-02-03T04:05:06.789Z');
  return {
    id: newId(),
    title: 'Market day',
    description: '',
    version: 1,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

describe('EventRecordsRepository', () => {
  let database: TestDatabase;
  let module: TestingModule;
  let repository: EventRecordsRepository;

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await Test.createTestingModule({
      imports: [TypeOrmModule.forRoot(eventsDataSourceOptions(database.url))],
      providers: [EventRecordsRepository],
    }).compile();
    repository = module.get(EventRecordsRepository);
    expect(
      module.get(`${EVENTS_DATA_SOURCE}DataSource`, { strict: false }),
    ).toBeDefined();
  });

  afterAll(async () => {
    await module?.close();
    await database?.close();
  });

  it('stores and reads a record with millisecond timestamps', async () => {
    const stored = await repository.insert(record({ description: 'd' }));
    await expect(repository.findById(stored.id)).resolves.toEqual(stored);
    expect(stored.createdAt.toISOString()).toBe('2026-02-03T04:05:06.789Z');
    await expect(repository.exists(stored.id)).resolves.toBe(true);
    await expect(repository.exists(newId())).resolves.toBe(false);
  });

  it('lists newest first and continues after a position', async () => {
    const tag = newId();
    const base = Date.parse('2030-01-01T00:00:00.000Z');
    const inserted: EventRecord[] = [];
    for (let i = 0; i < 5; i++) {
      const at = new Date(base + i * 1000);
      inserted.push(
        await repository.insert(
          record({ title: `page ${tag} ${i}`, createdAt: at, updatedAt: at }),
        ),
      );
    }
    const first = await repository.list({ limit: 2, search: tag });
    expect(first.map((r) => r.title)).toEqual([
      `page ${tag} 4`,
      `page ${tag} 3`,
    ]);
    const last = first[1] as EventRecord;
    const second = await repository.list({
      limit: 10,
      search: tag,
      after: { createdAt: last.createdAt, id: last.id },
    });
    expect(second.map((r) => r.title)).toEqual([
      `page ${tag} 2`,
      `page ${tag} 1`,
      `page ${tag} 0`,
    ]);
  });

  it('searches title and description case-insensitively, % and _ as literals', async () => {
    const tag = newId().slice(-12);
    const literal = await repository.insert(
      record({ title: `100% sure_${tag}`, description: '' }),
    );
    const inDescription = await repository.insert(
      record({ title: 'other', description: `About CABBAGE ${tag}` }),
    );
    await repository.insert(record({ title: `1000 surex${tag}` }));

    const percent = await repository.list({
      limit: 10,
      search: `0% SURE_${tag}`,
    });
    expect(percent.map((r) => r.id)).toEqual([literal.id]);
    const described = await repository.list({
      limit: 10,
      search: `cabbage ${tag}`,
    });
    expect(described.map((r) => r.id)).toEqual([inDescription.id]);
  });

  it('updates only matching versions and says why it did not', async () => {
    const stored = await repository.insert(record());
    const later = new Date('2026-02-04T00:00:00.000Z');

    const stale = await repository.update(
      stored.id,
      { title: 'x' },
      [7],
      later,
    );
    expect(stale).toEqual({ status: 'precondition_failed' });

    const updated = await repository.update(
      stored.id,
      { description: 'new' },
      [1],
      later,
    );
    expect(updated).toEqual({
      status: 'ok',
      value: { ...stored, description: 'new', version: 2, updatedAt: later },
    });

    const missing = await repository.update(
      newId(),
      { title: 'x' },
      undefined,
      later,
    );
    expect(missing).toEqual({ status: 'not_found' });
  });

  it('deletes conditionally', async () => {
    const stored = await repository.insert(record());
    await expect(repository.delete(stored.id, [2])).resolves.toEqual({
      status: 'precondition_failed',
    });
    await expect(repository.delete(stored.id, 'any')).resolves.toEqual({
      status: 'ok',
      value: undefined,
    });
    await expect(repository.delete(stored.id, undefined)).resolves.toEqual({
      status: 'not_found',
    });
  });
});
