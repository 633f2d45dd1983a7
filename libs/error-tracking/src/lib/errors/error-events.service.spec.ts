import { newTestService } from '@quitanda/testing';

import { errorRecord, projectAccess } from '../../testing/records';
import { ErrorTrackingErrorCode } from '../common/error-tracking.errors';
import type { EventNeighbours, StoredEvent } from './error.types';
import { ErrorEventsService } from './error-events.service';
import { ErrorsRepository } from './errors.repository';
import { ErrorsService } from './errors.service';

const EVENT_ID = 'b'.repeat(32);
const STORED: StoredEvent = {
  payload: { title: 'TypeError: x' },
  receivedAt: new Date('2026-06-01T09:00:00.000Z'),
  timestamp: new Date('2026-06-01T08:59:00.000Z'),
};
const NEIGHBOURS: EventNeighbours = {
  oldest: 'a'.repeat(32),
  older: 'a'.repeat(32),
  newer: null,
  latest: EVENT_ID,
};

describe('ErrorEventsService', () => {
  let service: ErrorEventsService;
  let repository: jest.Mocked<ErrorsRepository>;
  let errors: jest.Mocked<ErrorsService>;
  const access = projectAccess();
  const error = errorRecord();

  beforeEach(async () => {
    const built = await newTestService(ErrorEventsService);
    service = built.sut;
    repository = built.mock(ErrorsRepository);
    errors = built.mock(ErrorsService);
    errors.find.mockResolvedValue(error);
    repository.findEvent.mockResolvedValue(STORED);
    repository.eventNeighbours.mockResolvedValue(NEIGHBOURS);
  });

  it('finds an event by id in any form, with its neighbours around its time', async () => {
    await expect(
      service.eventAt(access, '42', 'BBBBBBBB-BBBB-BBBB-BBBB-BBBBBBBBBBBB'),
    ).resolves.toEqual({
      error,
      eventId: EVENT_ID,
      event: STORED,
      neighbours: NEIGHBOURS,
    });
    expect(errors.find).toHaveBeenCalledWith(access, '42');
    expect(repository.findEvent).toHaveBeenCalledWith(3, error.id, EVENT_ID);
    expect(repository.eventNeighbours).toHaveBeenCalledWith(error.id, {
      timestamp: STORED.timestamp,
      eventId: EVENT_ID,
    });
  });

  it.each(['latest', 'oldest'] as const)(
    'finds the %s event by time',
    async (edge) => {
      repository.edgeEventId.mockResolvedValue(EVENT_ID);
      const found = await service.find(access, '42', edge);
      expect(found.eventId).toBe(EVENT_ID);
      expect(repository.edgeEventId).toHaveBeenCalledWith(error.id, edge);
    },
  );

  it('answers Event Not Found for a malformed id (without a lookup), a missing event, or an error without events', async () => {
    await expect(service.eventAt(access, '42', 'newest')).rejects.toMatchObject(
      { code: ErrorTrackingErrorCode.NotFound, message: '404 Event Not Found' },
    );
    expect(repository.findEvent).not.toHaveBeenCalled();
    repository.findEvent.mockResolvedValue(undefined);
    await expect(service.eventAt(access, '42', EVENT_ID)).rejects.toMatchObject(
      { message: '404 Event Not Found' },
    );
    repository.edgeEventId.mockResolvedValue(undefined);
    await expect(service.find(access, '42', 'latest')).rejects.toMatchObject({
      message: '404 Event Not Found',
    });
    expect(repository.eventNeighbours).not.toHaveBeenCalled();
  });

  it("gives an error's latest event with its neighbours, or nothing when none is kept", async () => {
    repository.edgeEventId.mockResolvedValue(EVENT_ID);
    await expect(service.latestOf(access, error)).resolves.toMatchObject({
      eventId: EVENT_ID,
      neighbours: NEIGHBOURS,
    });
    expect(errors.find).not.toHaveBeenCalled();
    repository.edgeEventId.mockResolvedValue(undefined);
    await expect(service.latestOf(access, error)).resolves.toBeUndefined();
  });
});
