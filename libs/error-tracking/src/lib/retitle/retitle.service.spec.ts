import { newTestService } from '@quitanda/testing';

import type { ErrorWithLatestEvent } from './retitle.repository';
import { RetitleRepository } from './retitle.repository';
import { RetitleService } from './retitle.service';

const RECEIVED = new Date('2026-01-01T00:00:00.000Z');
const TYPE_ERROR = {
  exception: {
    values: [
      {
        type: 'TypeError',
        value: 'boom',
        stacktrace: { frames: [{ function: 'main', filename: 'app.js' }] },
      },
    ],
  },
};

function stored(
  id: string,
  overrides: Partial<ErrorWithLatestEvent> = {},
): ErrorWithLatestEvent {
  return {
    id,
    title: 'TypeError: boom',
    culprit: 'app.js in main',
    lastEventId: `event-${id}`,
    payload: TYPE_ERROR,
    receivedAt: RECEIVED,
    ...overrides,
  };
}

describe('RetitleService', () => {
  let service: RetitleService;
  let repository: jest.Mocked<RetitleRepository>;

  beforeEach(async () => {
    const built = await newTestService(RetitleService);
    service = built.sut;
    repository = built.mock(RetitleRepository);
    repository.update.mockImplementation(async (retitled) => retitled.length);
  });

  it('writes only the errors whose title or culprit today differs, with the event they came from', async () => {
    repository.errorsAfter.mockResolvedValueOnce([
      stored('1'),
      stored('2', { title: 'Error' }),
      stored('3', { culprit: 'old culprit' }),
    ]);
    await expect(service.run(5)).resolves.toEqual({ errors: 3, changed: 2 });
    expect(repository.update).toHaveBeenCalledWith([
      {
        id: '2',
        lastEventId: 'event-2',
        title: 'TypeError: boom',
        culprit: 'app.js in main',
      },
      {
        id: '3',
        lastEventId: 'event-3',
        title: 'TypeError: boom',
        culprit: 'app.js in main',
      },
    ]);
  });

  it('skips errors whose latest event is gone', async () => {
    repository.errorsAfter.mockResolvedValueOnce([
      stored('1', { title: 'stale', payload: null }),
      stored('2', { title: 'stale', receivedAt: null }),
    ]);
    await expect(service.run(5)).resolves.toEqual({ errors: 2, changed: 0 });
    expect(repository.update).toHaveBeenCalledWith([]);
  });

  it('reads batch after batch from the last id until a short batch', async () => {
    repository.errorsAfter
      .mockResolvedValueOnce([stored('1'), stored('2', { title: 'old' })])
      .mockResolvedValueOnce([stored('5'), stored('9')])
      .mockResolvedValueOnce([stored('12', { title: 'old' })]);
    await expect(service.run(2)).resolves.toEqual({ errors: 5, changed: 2 });
    expect(repository.errorsAfter.mock.calls).toEqual([
      ['0', 2],
      ['2', 2],
      ['9', 2],
    ]);
    expect(repository.update).toHaveBeenCalledTimes(3);
  });

  it('stops at an empty batch', async () => {
    repository.errorsAfter
      .mockResolvedValueOnce([stored('1'), stored('2')])
      .mockResolvedValueOnce([]);
    await expect(service.run(2)).resolves.toEqual({ errors: 2, changed: 0 });
    expect(repository.errorsAfter).toHaveBeenCalledTimes(2);
  });

  it('counts what the repository reports written, not what it was asked to write', async () => {
    // An error the collector updated meanwhile is left alone (see update).
    repository.errorsAfter.mockResolvedValueOnce([
      stored('1', { title: 'old' }),
      stored('2', { title: 'old' }),
    ]);
    repository.update.mockResolvedValueOnce(1);
    await expect(service.run(5)).resolves.toEqual({ errors: 2, changed: 1 });
  });
});
