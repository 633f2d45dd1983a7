import type { StoredUser } from './stored-user';
import { SessionCache } from './session-cache';

const user = (id: string): StoredUser => ({
  id,
  username: `${id}@example.com`,
  doc: { _id: id },
  passwordHash: 'x',
  disabled: false,
});
const at = (ms: number) => new Date(1_000_000 + ms);
const LATER = at(3_600_000);

describe('SessionCache', () => {
  it('answers for a token within its lifetime and the cache time, for its own app', () => {
    const cache = new SessionCache(5_000);
    cache.set('kid_a', 'd1', user('u1'), LATER, at(0));
    expect(cache.get('kid_a', 'd1', at(4_999))?.id).toBe('u1');
    expect(cache.get('kid_b', 'd1', at(1))).toBeUndefined();
    expect(cache.get('kid_a', 'd1', at(5_000))).toBeUndefined();
  });

  it('never outlives the token', () => {
    const cache = new SessionCache(5_000);
    cache.set('kid_a', 'd1', user('u1'), at(100), at(0));
    expect(cache.get('kid_a', 'd1', at(99))?.id).toBe('u1');
    expect(cache.get('kid_a', 'd1', at(100))).toBeUndefined();
  });

  it('forgets one token, or every token of a user of one app', () => {
    const cache = new SessionCache(5_000);
    cache.set('kid_a', 'd1', user('u1'), LATER, at(0));
    cache.set('kid_a', 'd2', user('u1'), LATER, at(0));
    cache.set('kid_b', 'd3', user('u1'), LATER, at(0));
    cache.set('kid_a', 'd4', user('u2'), LATER, at(0));
    cache.forgetToken('d4');
    expect(cache.get('kid_a', 'd4', at(1))).toBeUndefined();
    cache.forgetUser('kid_a', 'u1');
    expect(cache.get('kid_a', 'd1', at(1))).toBeUndefined();
    expect(cache.get('kid_a', 'd2', at(1))).toBeUndefined();
    expect(cache.get('kid_b', 'd3', at(1))?.id).toBe('u1');
  });

  it('forgets every session of one app (its users emptied), none of another', () => {
    const cache = new SessionCache(5_000);
    cache.set('kid_a', 'd1', user('u1'), LATER, at(0));
    cache.set('kid_a', 'd2', user('u2'), LATER, at(0));
    cache.set('kid_b', 'd3', user('u3'), LATER, at(0));
    cache.forgetApp('kid_a');
    expect(cache.get('kid_a', 'd1', at(1))).toBeUndefined();
    expect(cache.get('kid_a', 'd2', at(1))).toBeUndefined();
    expect(cache.get('kid_b', 'd3', at(1))?.id).toBe('u3');
  });

  it('keeps nothing when turned off', () => {
    const cache = new SessionCache(0);
    cache.set('kid_a', 'd1', user('u1'), LATER, at(0));
    expect(cache.get('kid_a', 'd1', at(0))).toBeUndefined();
  });

  it('stays bounded, dropping the oldest session first', () => {
    const cache = new SessionCache(5_000);
    for (let n = 0; n <= 10_000; n++)
      cache.set('kid_a', `d${n}`, user(`u${n}`), LATER, at(0));
    expect(cache.get('kid_a', 'd0', at(1))).toBeUndefined();
    expect(cache.get('kid_a', 'd1', at(1))?.id).toBe('u1');
    expect(cache.get('kid_a', 'd10000', at(1))?.id).toBe('u10000');
  });
});
