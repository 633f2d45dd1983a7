import { ErrorTrackingError } from '../common/error-tracking.errors';
import { MAX_SEARCH_TERMS, parseSearch } from './sentry-search';

const NOW = new Date('2026-11-29T10:00:00.000Z');
const errors = (text: string) => parseSearch(text, 'errors', NOW);
const events = (text: string) => parseSearch(text, 'events', NOW);

function faultOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ErrorTrackingError);
    return (error as ErrorTrackingError).message;
  }
  throw new Error('no fault');
}

describe('parseSearch', () => {
  it('reads nothing from an empty or blank query', () => {
    expect(errors('')).toEqual([]);
    expect(errors('   ')).toEqual([]);
  });

  it('reads tags, negated tags and the built-in keys as tag terms', () => {
    expect(
      errors(
        'browser.name:Chrome !environment:staging level:error release:shop@1.2.0 user.email:ana@example.com',
      ),
    ).toEqual([
      { kind: 'tag', key: 'browser.name', value: 'Chrome', negated: false },
      { kind: 'tag', key: 'environment', value: 'staging', negated: true },
      { kind: 'tag', key: 'level', value: 'error', negated: false },
      { kind: 'tag', key: 'release', value: 'shop@1.2.0', negated: false },
      {
        kind: 'tag',
        key: 'user.email',
        value: 'ana@example.com',
        negated: false,
      },
    ]);
  });

  it('takes quoted values with spaces, colons and escaped quotes', () => {
    expect(errors('user:"id:42" transaction:"GET /a \\"b\\""')).toEqual([
      { kind: 'tag', key: 'user', value: 'id:42', negated: false },
      { kind: 'tag', key: 'transaction', value: 'GET /a "b"', negated: false },
    ]);
  });

  it('joins the free words, quoted or not, into one text, wherever they stand', () => {
    expect(errors('Cannot is:unresolved "read property" x')).toEqual([
      { kind: 'status', status: 'unresolved', negated: false },
      { kind: 'text', text: 'Cannot read property x' },
    ]);
  });

  it('keeps a word whose colon does not follow a key as text (a URL)', () => {
    expect(errors('https://shop.example/a')).toEqual([
      { kind: 'text', text: 'https://shop.example/a' },
    ]);
  });

  it('reads is:, has: and tags[...] keys', () => {
    expect(errors('!is:ignored is:muted has:user !has:tags[my:key]')).toEqual([
      { kind: 'status', status: 'ignored', negated: true },
      { kind: 'status', status: 'ignored', negated: false },
      { kind: 'has', key: 'user', negated: false },
      { kind: 'has', key: 'my:key', negated: true },
    ]);
    expect(errors('tags[my:key]:v')).toEqual([
      { kind: 'tag', key: 'my:key', value: 'v', negated: false },
    ]);
  });

  it('reads relative times as within (-) or before (+) that long ago', () => {
    expect(errors('firstSeen:-24h lastSeen:+14d')).toEqual([
      {
        kind: 'time',
        field: 'firstSeen',
        op: '>=',
        at: new Date('2026-11-28T10:00:00.000Z'),
      },
      {
        kind: 'time',
        field: 'lastSeen',
        op: '<',
        at: new Date('2026-11-15T10:00:00.000Z'),
      },
    ]);
  });

  it('reads absolute times with an operator, and a bare date as its whole UTC day', () => {
    expect(
      errors('firstSeen:>=2026-11-01T12:30:00 lastSeen:2026-11-20'),
    ).toEqual([
      {
        kind: 'time',
        field: 'firstSeen',
        op: '>=',
        at: new Date('2026-11-01T12:30:00.000Z'),
      },
      {
        kind: 'time',
        field: 'lastSeen',
        op: '>=',
        at: new Date('2026-11-20T00:00:00.000Z'),
      },
      {
        kind: 'time',
        field: 'lastSeen',
        op: '<',
        at: new Date('2026-11-21T00:00:00.000Z'),
      },
    ]);
  });

  it('reads times_seen with a comparison, or as an exact count', () => {
    expect(errors('times_seen:>10 times_seen:3')).toEqual([
      { kind: 'count', field: 'times_seen', op: '>', value: 10 },
      { kind: 'count', field: 'times_seen', op: '=', value: 3 },
    ]);
  });

  it('names the fault of a bad query', () => {
    expect(faultOf(() => errors('message:"open'))).toBe(
      'query: a quote opened at character 9 is never closed',
    );
    expect(faultOf(() => errors('is:pending'))).toBe(
      'query: is:pending is not a status (unresolved, resolved or ignored)',
    );
    expect(faultOf(() => errors('firstSeen:-24x'))).toMatch(
      /^query: firstSeen:-24x is not a time/,
    );
    expect(faultOf(() => errors('lastSeen:2026-11-01T10:00'))).toMatch(
      /needs an operator/,
    );
    expect(faultOf(() => errors('times_seen:>many'))).toMatch(
      /^query: times_seen:>many is not a count/,
    );
    expect(faultOf(() => errors('level:'))).toMatch(
      /^query: level: needs a value/,
    );
    expect(faultOf(() => errors('assigned:me'))).toMatch(/not stored here/);
    expect(faultOf(() => errors('timestamp:-1h'))).toMatch(/describes events/);
    expect(faultOf(() => events('is:resolved'))).toMatch(
      /describes an error, not its events/,
    );
    expect(faultOf(() => errors('x'.repeat(1001)))).toBe(
      'query: at most 1000 characters',
    );
    expect(
      faultOf(() =>
        errors(
          Array.from(
            { length: MAX_SEARCH_TERMS + 1 },
            (_, i) => `k${i}:v`,
          ).join(' '),
        ),
      ),
    ).toBe(`query: at most ${MAX_SEARCH_TERMS} terms`);
  });

  it('lets events be searched by timestamp', () => {
    expect(events('timestamp:-1h browser:Firefox')).toEqual([
      {
        kind: 'time',
        field: 'timestamp',
        op: '>=',
        at: new Date('2026-11-29T09:00:00.000Z'),
      },
      { kind: 'tag', key: 'browser', value: 'Firefox', negated: false },
    ]);
  });
});
