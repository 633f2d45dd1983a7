import { parameterize } from './parameterize';

describe("parameterize (Sentry's kinds of value, whole tokens)", () => {
  it.each([
    ['sync of iso_40days failed', 'sync of iso_40days failed'],
    ['retry 3 of 5 (n=2)', 'retry <int> of <int> (n=<int>)'],
    ['from @sentry/node 7.38.0', 'from @sentry/node <float>.<int>'],
    ['mail jane.doe+x@example.com now', 'mail <email> now'],
    ['GET https://shop.example/cart?id=3 failed', 'GET <url> failed'],
    ['peer 10.0.0.12 and 2001:db8::7', 'peer <ip> and <ip>'],
    ['id 0190b6e2-7d3a-7c4e-9b1a-3f4f5e6d7c8a', 'id <uuid>'],
    [`sha ${'a1'.repeat(20)} md5 ${'b2'.repeat(16)}`, 'sha <sha1> md5 <md5>'],
    ['at 2026-11-29T05:45:20.123Z', 'at <date>'],
    ['on 2026-11-29 at 12:30 pm or 23:59:01', 'on <date> at <date> or <date>'],
    ['Mon, 02 Jan 2006 15:04:05 MST', '<date>'],
    ['took 120ms, then 1.5s', 'took <duration>, then <duration>'],
    ['ptr 0x7fff12 and deadbeef12', 'ptr <hex> and <hex>'],
    ['delta -3.25 and -7 but x-7', 'delta <float> and <int> but x-<int>'],
  ])('%j is %j', (message, parameterized) => {
    expect(parameterize(message)).toBe(parameterized);
  });
});
