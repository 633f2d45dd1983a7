import { ClientKeyCache } from './client-key-cache';
import type {
  CollectorKey,
  CollectorKeysRepository,
} from './collector-keys.repository';

const KEY: CollectorKey = { keyId: 7, projectId: 3, trackingActive: true };
const MINUTE = 60_000;

describe('ClientKeyCache', () => {
  let answer: () => Promise<CollectorKey | null>;
  let reads: number;
  let cache: ClientKeyCache;

  beforeEach(() => {
    reads = 0;
    answer = async () => KEY;
    cache = new ClientKeyCache({
      findActive: () => {
        reads += 1;
        return answer();
      },
    } as unknown as CollectorKeysRepository);
  });

  const databaseDown = () =>
    Promise.reject(
      Object.assign(new Error('connect ECONNREFUSED'), {
        code: 'ECONNREFUSED',
      }),
    );

  it('keeps serving a key it found once its entry is stale and the database cannot be read', async () => {
    await expect(cache.lookup('k', 0)).resolves.toEqual(KEY);
    answer = databaseDown;
    await expect(cache.lookup('k', 2 * MINUTE)).resolves.toEqual(KEY);
    await new Promise((resolve) => setImmediate(resolve));
    await expect(cache.lookup('k', 3 * MINUTE)).resolves.toEqual(KEY);
    expect(reads).toBe(3);
  });

  it('reads a stale key again in the background and takes the new answer', async () => {
    await cache.lookup('k', 0);
    answer = async () => null;
    // Served from the stale entry while the read runs.
    await expect(cache.lookup('k', 2 * MINUTE)).resolves.toEqual(KEY);
    await new Promise((resolve) => setImmediate(resolve));
    await expect(cache.lookup('k', 2 * MINUTE + 1)).resolves.toBeNull();
  });

  it('lets an unknown key fail while the database cannot be read (the collector answers 503)', async () => {
    answer = databaseDown;
    await expect(cache.lookup('unknown', 0)).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
  });

  it('forgets a project key at once when evicted, stale or not', async () => {
    await cache.lookup('k', 0);
    cache.evictProject(KEY.projectId);
    answer = databaseDown;
    await expect(cache.lookup('k', 1)).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
  });
});
