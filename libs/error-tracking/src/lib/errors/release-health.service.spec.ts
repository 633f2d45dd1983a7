import { newTestService } from '@quitanda/testing';

import { projectAccess } from '../../testing/records';
import { ReleaseHealthRepository } from './release-health.repository';
import { ReleaseHealthService } from './release-health.service';

describe('ReleaseHealthService', () => {
  let service: ReleaseHealthService;
  let repository: jest.Mocked<ReleaseHealthRepository>;
  const access = projectAccess();

  beforeEach(async () => {
    const built = await newTestService(ReleaseHealthService);
    service = built.sut;
    repository = built.mock(ReleaseHealthRepository);
  });

  it("turns PostgreSQL's numeric sums into numbers and a crash-free rate", async () => {
    repository.counts.mockResolvedValue([
      {
        release: '1.0',
        environment: 'production',
        sessions: '8',
        errored: '3',
        crashed: '2',
        abnormal: '1',
      },
    ]);
    await expect(
      service.list(access, { release: '1.0', environment: 'production' }),
    ).resolves.toEqual([
      {
        release: '1.0',
        environment: 'production',
        sessions: 8,
        errored: 3,
        crashed: 2,
        abnormal: 1,
        crashFreeRate: 0.75,
      },
    ]);
    expect(repository.counts).toHaveBeenCalledWith(3, '1.0', 'production');
  });

  it('has no crash-free rate without sessions, and matches all without filters', async () => {
    repository.counts.mockResolvedValue([
      {
        release: '2.0',
        environment: 'staging',
        sessions: '0',
        errored: '0',
        crashed: '0',
        abnormal: '0',
      },
    ]);
    const [health] = await service.list(access, {});
    expect(health?.crashFreeRate).toBeNull();
    expect(repository.counts).toHaveBeenCalledWith(3, null, null);
  });
});
