import { CLOCK, FixedClock } from '@quitanda/kernel';
import { newTestService } from '@quitanda/testing';

import { callerOf, projectAccess } from '../../testing/records';
import { ErrorTrackingErrorCode } from '../common/error-tracking.errors';
import { ErrorTrackingDatabase } from '../persistence/error-tracking.database';
import type { Transaction } from '../persistence/error-tracking.database';
import type { IssueRecord } from './issue.types';
import { IssuesRepository } from './issues.repository';
import { IssuesService } from './issues.service';

const NOW = '2026-06-01T10:00:00.000Z';

function issue(overrides: Partial<IssueRecord> = {}): IssueRecord {
  return {
    id: 1,
    iid: 4,
    projectId: 3,
    title: 'Checkout fails',
    description: '',
    state: 'opened',
    labels: [],
    createdAt: new Date(NOW),
    updatedAt: new Date(NOW),
    closedAt: null,
    ...overrides,
  };
}

describe('IssuesService', () => {
  let service: IssuesService;
  let issues: jest.Mocked<IssuesRepository>;
  let db: jest.Mocked<ErrorTrackingDatabase>;
  const tx = {} as Transaction;
  const access = projectAccess();

  beforeEach(async () => {
    const built = await newTestService(IssuesService, [
      { provide: CLOCK, useValue: new FixedClock(NOW) },
    ]);
    service = built.sut;
    issues = built.mock(IssuesRepository);
    db = built.mock(ErrorTrackingDatabase);
    db.transaction.mockImplementation((work) => work(tx));
  });

  it("creates in the project's transaction with the caller as author and empty defaults", async () => {
    const created = issue();
    issues.create.mockResolvedValue(created);
    await expect(
      service.create(callerOf({ id: 9 }), access, { title: 'Checkout fails' }),
    ).resolves.toBe(created);
    expect(issues.create).toHaveBeenCalledWith(
      {
        projectId: 3,
        title: 'Checkout fails',
        description: '',
        labels: [],
        authorId: 9,
        now: new Date(NOW),
      },
      tx,
    );
  });

  it('keeps a given description and labels', async () => {
    issues.create.mockResolvedValue(issue());
    await service.create(callerOf(), access, {
      title: 't',
      description: 'd',
      labels: ['bug'],
    });
    expect(issues.create).toHaveBeenCalledWith(
      expect.objectContaining({ description: 'd', labels: ['bug'] }),
      tx,
    );
  });

  it("lists the project's issues in the asked state and page", async () => {
    issues.list.mockResolvedValue({ issues: [issue()], total: 1 });
    await expect(service.list(access, 'closed', 20, 40)).resolves.toEqual({
      issues: [issue()],
      total: 1,
    });
    expect(issues.list).toHaveBeenCalledWith(3, 'closed', 20, 40);
  });

  it('answers Issue Not Found for an iid the project lacks, on read and on update', async () => {
    issues.find.mockResolvedValue(undefined);
    await expect(service.get(access, 4)).rejects.toMatchObject({
      code: ErrorTrackingErrorCode.NotFound,
      message: '404 Issue Not Found',
    });
    expect(issues.find).toHaveBeenCalledWith(3, 4);
    issues.update.mockResolvedValue(undefined);
    await expect(
      service.update(access, 4, { stateEvent: 'close' }),
    ).rejects.toMatchObject({ message: '404 Issue Not Found' });
  });

  it('updates with the clock time and returns the issue', async () => {
    const closed = issue({ state: 'closed' });
    issues.update.mockResolvedValue(closed);
    await expect(
      service.update(access, 4, { stateEvent: 'close' }),
    ).resolves.toBe(closed);
    expect(issues.update).toHaveBeenCalledWith(
      3,
      4,
      { stateEvent: 'close' },
      new Date(NOW),
    );
  });
});
