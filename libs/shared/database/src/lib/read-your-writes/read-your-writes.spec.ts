import { ReadYourWrites } from './read-your-writes';
import type { WalPositionSources } from './read-your-writes';
import { parseWalPosition } from './wal-position';

/** A primary and a replica whose positions the spec moves by hand. */
class FakeServers implements WalPositionSources {
  written = 100n;
  replay: bigint | null = 100n;
  primaryDown = false;
  replicaDown = false;
  readonly asked = { primary: 0, replica: 0 };

  async primary(): Promise<bigint> {
    this.asked.primary++;
    if (this.primaryDown) throw new Error('primary down');
    return this.written;
  }

  async replayed(): Promise<bigint | null> {
    this.asked.replica++;
    if (this.replicaDown) throw new Error('replica down');
    return this.replay;
  }

  /** A write committed on the primary, not replayed yet. */
  commit(): bigint {
    this.written += 10n;
    return this.written;
  }
}

describe('ReadYourWrites', () => {
  let servers: FakeServers;
  let now: number;
  let rules: ReadYourWrites;

  beforeEach(() => {
    servers = new FakeServers();
    now = 1_000;
    rules = new ReadYourWrites(servers, {
      now: () => now,
      replayMaxAgeMs: 5,
      maxCallers: 3,
    });
  });

  it('lets a caller with no remembered write read from the replica, asking nothing', async () => {
    await expect(rules.replicaServes('ana')).resolves.toBe(true);
    expect(servers.asked).toEqual({ primary: 0, replica: 0 });
  });

  it('sends a caller to the primary until the replica has replayed its write, then forgets it', async () => {
    rules.wrote('ana', servers.commit());
    await expect(rules.replicaServes('ana')).resolves.toBe(false);
    now += 5;
    servers.replay = servers.written;
    await expect(rules.replicaServes('ana')).resolves.toBe(true);
    expect(rules.remembered).toBe(0);
    const asked = servers.asked.replica;
    await expect(rules.replicaServes('ana')).resolves.toBe(true);
    expect(servers.asked.replica).toBe(asked);
  });

  it("holds back no other caller for one caller's write", async () => {
    rules.wrote('ana', servers.commit());
    await expect(rules.replicaServes('bruno')).resolves.toBe(true);
    await expect(rules.replicaServes('ana')).resolves.toBe(false);
  });

  it('asks the replica at most every few ms, one query for all the reads waiting', async () => {
    rules.wrote('ana', servers.commit());
    rules.wrote('bruno', servers.commit());
    const answers = await Promise.all([
      rules.replicaServes('ana'),
      rules.replicaServes('bruno'),
      rules.replicaServes('ana'),
    ]);
    expect(answers).toEqual([false, false, false]);
    expect(servers.asked.replica).toBe(1);
    // Replayed meanwhile, but the position read 4 ms ago still stands.
    servers.replay = servers.written;
    now += 4;
    await expect(rules.replicaServes('ana')).resolves.toBe(false);
    expect(servers.asked.replica).toBe(1);
    now += 1;
    await expect(rules.replicaServes('ana')).resolves.toBe(true);
    expect(servers.asked.replica).toBe(2);
    // What the replica said then covers bruno's write too: no query.
    await expect(rules.replicaServes('bruno')).resolves.toBe(true);
    expect(servers.asked.replica).toBe(2);
  });

  it('compares positions as PostgreSQL orders them, across the two halves', async () => {
    servers.replay = parseWalPosition('0/FFFFFFFF');
    rules.wrote('ana', parseWalPosition('1/0'));
    await expect(rules.replicaServes('ana')).resolves.toBe(false);
    now += 5;
    servers.replay = parseWalPosition('1/A0');
    await expect(rules.replicaServes('ana')).resolves.toBe(true);
  });

  it('sends waiting callers to the primary when the replica cannot say where it is; a server that is no standby serves everyone', async () => {
    rules.wrote('ana', servers.commit());
    servers.replicaDown = true;
    servers.replay = servers.written;
    await expect(rules.replicaServes('ana')).resolves.toBe(false);
    await expect(rules.replicaServes('bruno')).resolves.toBe(true);
    now += 5;
    servers.replicaDown = false;
    servers.replay = null;
    rules.wrote('carla', servers.commit());
    await expect(rules.replicaServes('carla')).resolves.toBe(true);
  });

  it('reads the position of a write outside a transaction from the primary after it', async () => {
    servers.commit();
    await rules.wroteNow('ana');
    expect(servers.asked.primary).toBe(1);
    servers.replay = servers.written - 1n;
    await expect(rules.replicaServes('ana')).resolves.toBe(false);
    now += 5;
    servers.replay = servers.written;
    await expect(rules.replicaServes('ana')).resolves.toBe(true);
  });

  it('keeps a caller on the primary after a write whose position could not be read, until a later one is replayed', async () => {
    servers.primaryDown = true;
    servers.commit();
    await rules.wroteNow('ana');
    servers.replay = servers.written;
    // The primary still cannot say: nothing to compare with.
    await expect(rules.replicaServes('ana')).resolves.toBe(false);
    servers.primaryDown = false;
    servers.commit();
    await expect(rules.replicaServes('ana')).resolves.toBe(false);
    now += 5;
    servers.replay = servers.written;
    await expect(rules.replicaServes('ana')).resolves.toBe(true);
  });

  it('keeps the later of two writes of one caller, whatever order their positions come in', async () => {
    const first = servers.commit();
    const second = servers.commit();
    rules.wrote('ana', second);
    rules.wrote('ana', first);
    servers.replay = first;
    await expect(rules.replicaServes('ana')).resolves.toBe(false);
  });

  it('forgets no write for room: callers past the limit fold into a floor every read waits for', async () => {
    for (const caller of ['ana', 'bruno', 'carla', 'dora'])
      rules.wrote(caller, servers.commit());
    expect(rules.remembered).toBe(3);
    // ana was forgotten, not her write: nobody reads past it on the replica.
    await expect(rules.replicaServes('ana')).resolves.toBe(false);
    await expect(rules.replicaServes('eva')).resolves.toBe(false);
    now += 5;
    servers.replay = 110n;
    await expect(rules.replicaServes('eva')).resolves.toBe(true);
    await expect(rules.replicaServes('ana')).resolves.toBe(true);
    await expect(rules.replicaServes('bruno')).resolves.toBe(false);
  });

  it('drops the oldest writes the replica is known to have replayed as new ones come', async () => {
    rules.wrote('ana', servers.commit());
    rules.wrote('bruno', servers.commit());
    servers.replay = servers.written;
    await rules.replicaServes('bruno');
    expect(rules.remembered).toBe(1);
    rules.wrote('carla', servers.commit());
    expect(rules.remembered).toBe(1);
  });
});
