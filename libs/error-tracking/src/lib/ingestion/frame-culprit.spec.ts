import { recordedEvent } from '../../testing/recorded-event';
import type { JsonObject } from '../sentry-event/event-json';
import { normalizeEvent } from './normalize-event';

const ctx = { receivedAt: new Date('2026-11-27T10:00:00.000Z') };
const culpritOf = (event: JsonObject) => normalizeEvent(event, ctx).culprit;

/**
 * Sentry's culprit of every recorded event (`get_culprit`,
 * `src/sentry/culprit.py`): `location in function` for Go, Java, Python,
 * Ruby and PHP, `function(location)` for Node, the bare function for a
 * native (Rust) frame; none for messages without a stack trace, for thread
 * snapshots (Java's and Ruby's messages) and for Node's synthetic one.
 */
const RECORDED: Record<string, string> = {
  'go-0.11.0/001-exception.json': 'main in outer.func1',
  'go-0.20.0/001-exception.json': 'main in outer.func1',
  'java-6.18.1/001-exception.json': 'app.Main in innermost',
  'java-6.18.1/002-message.json': '',
  'node-7.38.0/005-exception.json': 'innermost(client)',
  'node-11.12.0/002-exception.json': 'innermost(client)',
  'node-11.12.0/004-message.json': '',
  'php-3.18.0/001-exception.json': '/client.php in innermost',
  'python-1.9.10/001-exception.json': '__main__ in innermost',
  'python-1.21.0/001-exception.json': '__main__ in innermost',
  'python-1.21.0/002-message.json': '',
  'ruby-5.3.0/001-exception.json': 'client.rb in innermost',
  'ruby-5.9.0/003-message.json': '',
  'rust-0.31.0/001-exception+session.json': 'sentry_rust_client::innermost',
};

describe("culprit, as Sentry's get_culprit writes it (recorded SDK payloads)", () => {
  it.each(Object.entries(RECORDED))('%s: %j', (file, culprit) => {
    expect(culpritOf(recordedEvent(file))).toBe(culprit);
  });

  it('writes a browser frame as function(path of its URL)', () => {
    const event = recordedEvent(
      'node-7.38.0/005-exception.json',
      { platform: 'javascript' },
      (frames) =>
        frames.map(({ module: _module, ...frame }) => ({
          ...frame,
          function: 'viewWrappedDebugError',
          filename: 'https://shop.example/vendor.js?v=3',
        })),
    );
    expect(culpritOf(event)).toBe('viewWrappedDebugError(/vendor.js)');
  });

  it('writes a .NET frame as module in function', () => {
    const event = recordedEvent(
      'java-6.18.1/001-exception.json',
      { platform: 'csharp' },
      (frames) =>
        frames.map((frame) => ({
          ...frame,
          module: 'myWebApp.Pages.IndexModel',
          function: 'OnGet',
          in_app: true,
        })),
    );
    expect(culpritOf(event)).toBe('myWebApp.Pages.IndexModel in OnGet');
  });

  it("follows a frame's own platform over the event's", () => {
    const event = recordedEvent(
      'rust-0.31.0/001-exception+session.json',
      { platform: 'python' },
      (frames) => frames.map((frame) => ({ ...frame, platform: 'cocoa' })),
    );
    expect(culpritOf(event)).toBe('sentry_rust_client::innermost');
  });

  it('falls back to the request URL when no frame names a location', () => {
    const request = { url: 'https://shop.example/checkout' };
    const event = recordedEvent(
      'php-3.18.0/001-exception.json',
      { request },
      (frames) =>
        frames.map(({ filename: _f, abs_path: _a, ...frame }) => frame),
    );
    expect(culpritOf(event)).toBe('https://shop.example/checkout');
    const message = recordedEvent('python-1.21.0/002-message.json', {
      request,
    });
    expect(culpritOf(message)).toBe('https://shop.example/checkout');
  });

  it('gives a synthetic exception no culprit, not even its URL', () => {
    const event = recordedEvent('node-11.12.0/004-message.json', {
      request: { url: 'https://shop.example/checkout' },
    });
    expect(culpritOf(event)).toBe('');
  });
});
