import { CLOCK, FixedClock, newId } from '@quitanda/kernel';
import { newTestService } from '@quitanda/testing';

import { EventsError, EventsErrorCode } from '../common/events.errors';
import type { EventRecord } from './event-record';
import { EventRecordsRepository } from './event-records.repository';
import { EventRecordsService } from './event-records.service';
import { encodeCursor } from './list-cursor';

function record(overrides: Partial<EventRecord> = {}): EventRecord {
  const at = new Date('2026-01-01T00:00:00.000Z');
  return {
    id: newId(),
    title: 't',
    description: '',
    version: 1,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

describe('EventRecordsService', () => {
  let service: EventRecordsService;
  let repository: jest.Mocked<EventRecordsRepository>;
  const clock = new FixedClock('2026-06-01T10:00:00.000Z');

  beforeEach(async () => {
    const built = await newTestService(EventRecordsService, [
      { provide: CLOCK, useValue: clock },
    ]);
    service = built.sut;
    repository = built.mock(EventRecordsRepository);
    repository.insert.mockImplementation(async (r: EventRecord) => r);
  });

  it('creates with a v7 id, the clock time and an empty default description', async () => {
    const created = await service.create({ title: '  Fair  ' });
    expect(created).toMatchObject({
      title: '  Fair  ',
      description: '',
      version: 1,
      createdAt: clock.now(),
      updatedAt: clock.now(),
    });
    expect(created.id[14]).toBe('7');
  });

  it('answers not found for ids that are not UUIDs without asking the database', async () => {
    await expect(service.get('42')).rejects.toMatchObject({
      code: EventsErrorCode.EventNotFound,
    });
    await expect(service.assertExists('42')).rejects.toBeInstanceOf(
      EventsError,
    );
    await expect(service.delete('42', undefined)).rejects.toBeInstanceOf(
      EventsError,
    );
    expect(repository.findById).not.toHaveBeenCalled();
    expect(repository.exists).not.toHaveBeenCalled();
    expect(repository.delete).not.toHaveBeenCalled();
  });

  it('pages with one extra row and hands out the cursor of the last item', async () => {
    const rows = [record(), record(), record()];
    repository.list.mockResolvedValue(rows);
    const page = await service.list({ limit: 2 });
    expect(repository.list).toHaveBeenCalledWith({
      limit: 3,
      after: undefined,
      search: undefined,
    });
    expect(page.items).toEqual(rows.slice(0, 2));
    expect(page.nextCursor).toBe(encodeCursor(rows[1] as EventRecord));

    repository.list.mockResolvedValue(rows.slice(0, 2));
    await expect(service.list({ limit: 2 })).resolves.toEqual({
      items: rows.slice(0, 2),
    });
  });

  it('refuses a malformed cursor as a validation error of the cursor field', async () => {
    await expect(
      service.list({ limit: 2, cursor: 'nope' }),
    ).rejects.toMatchObject({
      code: EventsErrorCode.ValidationFailed,
      fieldErrors: [{ field: 'cursor', message: expect.any(String) }],
    });
    expect(repository.list).not.toHaveBeenCalled();
  });

  it('maps write outcomes to errors', async () => {
    const id = newId();
    repository.update.mockResolvedValue({ status: 'precondition_failed' });
    await expect(service.update(id, { title: 'x' }, [1])).rejects.toMatchObject(
      {
        code: EventsErrorCode.PreconditionFailed,
      },
    );
    repository.update.mockResolvedValue({ status: 'not_found' });
    await expect(
      service.update(id, { title: 'x' }, undefined),
    ).rejects.toMatchObject({
      code: EventsErrorCode.EventNotFound,
    });
  });

  it('replaces with an empty description when none is given', async () => {
    const id = newId();
    const updated = record({ id, version: 2 });
    repository.update.mockResolvedValue({ status: 'ok', value: updated });
    await expect(service.replace(id, { title: 'T' }, 'any')).resolves.toBe(
      updated,
    );
    expect(repository.update).toHaveBeenCalledWith(
      id,
      { title: 'T', description: '' },
      'any',
      clock.now(),
    );
  });
});
