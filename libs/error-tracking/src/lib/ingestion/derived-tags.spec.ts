import { loadBrowserSourceMapFixture } from '@quitanda/testing';

import type { JsonObject } from '../sentry-event/event-json';
import {
  EVENT_TAGS_MAX,
  derivedTags,
  eventTags,
  tagsJsonOf,
} from './derived-tags';

describe('derivedTags', () => {
  it('derives Sentry’s tags from the event’s fields, interfaces and contexts', () => {
    expect(
      derivedTags({
        level: 'error',
        environment: 'production',
        release: 'shop@1.2.0',
        dist: '7',
        server_name: 'web-1',
        transaction: '/checkout',
        request: { url: 'https://shop.example/checkout?step=2#top' },
        exception: {
          values: [
            { type: 'Cause', mechanism: { type: 'chained', handled: true } },
            { type: 'Error', mechanism: { type: 'onerror', handled: false } },
          ],
        },
        user: { email: 'ana@example.com', username: 'ana' },
        contexts: {
          browser: { name: 'Chrome', version: '120.0' },
          os: { name: 'Windows', version: '10' },
          device: { model: 'iPhone14,2', family: 'iPhone' },
          runtime: { name: 'node', version: 'v20.11.0' },
        },
      }),
    ).toEqual([
      ['level', 'error'],
      ['environment', 'production'],
      ['release', 'shop@1.2.0'],
      ['dist', '7'],
      ['server_name', 'web-1'],
      ['transaction', '/checkout'],
      ['url', 'https://shop.example/checkout'],
      ['handled', 'no'],
      ['mechanism', 'onerror'],
      ['user', 'email:ana@example.com'],
      ['browser', 'Chrome 120.0'],
      ['browser.name', 'Chrome'],
      ['os', 'Windows 10'],
      ['os.name', 'Windows'],
      ['device', 'iPhone14,2'],
      ['device.family', 'iPhone'],
      ['runtime', 'node v20.11.0'],
      ['runtime.name', 'node'],
    ]);
  });

  it('names the user by id first, and by address last', () => {
    expect(
      derivedTags({ user: { id: 42, email: 'a@b', ip_address: '10.0.0.1' } }),
    ).toEqual([['user', 'id:42']]);
    expect(derivedTags({ user: { ip_address: '10.0.0.1' } })).toEqual([
      ['user', 'ip:10.0.0.1'],
    ]);
  });

  it('gives no tag for what the event lacks (no handled without a mechanism’s flag)', () => {
    expect(
      derivedTags({
        exception: { values: [{ type: 'E', mechanism: { type: 'generic' } }] },
        contexts: { os: { version: '10' } },
      }),
    ).toEqual([['mechanism', 'generic']]);
  });
});

describe("derivedTags from the request's User-Agent", () => {
  /** A real @sentry/browser 11.12.0 event: a User-Agent, no browser context. */
  const browserEvent = loadBrowserSourceMapFixture('001-debug-id.json').parsed
    .event as JsonObject;
  const tagsOf = (payload: JsonObject) =>
    Object.fromEntries(derivedTags(payload));

  it("names the browser and, for JavaScript, the OS of a browser SDK's event", () => {
    expect(browserEvent['contexts']).not.toHaveProperty('browser');
    expect(tagsOf(browserEvent)).toMatchObject({
      browser: 'Chrome Headless 156.0.0',
      'browser.name': 'Chrome Headless',
      os: 'Linux',
      'os.name': 'Linux',
    });
    // A desktop agent names no device.
    expect(tagsOf(browserEvent)).not.toHaveProperty('device');
  });

  it("takes the device from the agent, and the OS only for JavaScript (a server's OS is its own)", () => {
    const iPhone =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';
    const tags = tagsOf({
      platform: 'python',
      request: { headers: [['user-agent', iPhone]] },
    });
    expect(tags).toMatchObject({
      browser: 'Mobile Safari 17.1',
      'browser.name': 'Mobile Safari',
      device: 'iPhone',
      'device.family': 'iPhone',
    });
    expect(tags).not.toHaveProperty('os');
  });

  it("lets the event's own contexts win, and ignores an agent it cannot read", () => {
    expect(
      tagsOf({
        ...browserEvent,
        contexts: {
          browser: { name: 'Firefox', version: '121.0' },
          os: { name: 'Windows', version: '11' },
        },
      }),
    ).toMatchObject({
      browser: 'Firefox 121.0',
      os: 'Windows 11',
    });
    const curl = tagsOf({
      platform: 'javascript',
      request: { headers: { 'User-Agent': 'curl/8.5.0' } },
    });
    expect(Object.keys(curl)).toEqual([]);
  });
});

describe('eventTags', () => {
  it('lets derived tags win over the SDK’s of the same key and keeps the user’s e-mail', () => {
    expect(
      eventTags(
        { level: 'warning', user: { id: '7', email: 'ana@example.com' } },
        { level: 'sdk-level', feature: 'cart' },
      ),
    ).toEqual({
      level: 'warning',
      user: 'id:7',
      'user.email': 'ana@example.com',
      feature: 'cart',
    });
  });

  it(`counts at most ${EVENT_TAGS_MAX} tags an event`, () => {
    const sdk = Object.fromEntries(
      Array.from({ length: 150 }, (_, i) => [`k${i}`, 'v']),
    );
    expect(Object.keys(eventTags({ level: 'error' }, sdk))).toHaveLength(
      EVENT_TAGS_MAX,
    );
  });

  it('derives them again for an event spooled before they were kept', () => {
    expect(
      JSON.parse(
        tagsJsonOf({
          payloadJson: JSON.stringify({ level: 'info', tags: { a: '1' } }),
        }),
      ),
    ).toEqual({ level: 'info', a: '1' });
  });
});
