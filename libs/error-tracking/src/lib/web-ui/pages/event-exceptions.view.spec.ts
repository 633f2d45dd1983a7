import { exceptionsView } from './event-exceptions.view';

function frame(fn: string, inApp: boolean) {
  return { function: fn, filename: `${fn}.js`, lineno: 1, in_app: inApp };
}

function fileOrder(out: string): string[] {
  return [...out.matchAll(/<span class="frame-file">([^<]+)</g)].map(
    (m) => m[1] as string,
  );
}

describe('exceptionsView', () => {
  it('shows the in-app frames most recent first, and every frame behind "Show all frames"', () => {
    const out = exceptionsView({
      exception: {
        values: [
          {
            type: 'Error',
            value: 'x',
            stacktrace: {
              frames: [
                frame('main', false),
                frame('run', true),
                frame('lib', false),
              ],
            },
          },
        ],
      },
    }).value;
    const [shown, all] = out.split('Show all frames (3)');
    expect(fileOrder(shown ?? '')).toEqual(['run.js:1']);
    expect(fileOrder(all ?? '')).toEqual(['lib.js:1', 'run.js:1', 'main.js:1']);
    // The crash frame is the most recent one, not the first in-app one.
    expect(shown).not.toContain('crashed here');
    expect(all).toContain('crashed here');
  });

  it('marks an in-app crash frame once, in the frames shown', () => {
    const out = exceptionsView({
      exception: [
        {
          type: 'Error',
          stacktrace: { frames: [frame('main', false), frame('crash', true)] },
        },
      ],
    }).value;
    const crashes = [
      ...out.matchAll(/<details\s+class="frame in-app crash"\s*(open)?/g),
    ];
    expect(crashes.map((m) => m[1])).toEqual(['open']);
    expect(out.indexOf('crashed here')).toBeLessThan(
      out.indexOf('Show all frames'),
    );
    expect(out.match(/crashed here/g)).toHaveLength(1);
  });

  it('shows every frame at once when none, or all, are in app', () => {
    for (const inApp of [false, true]) {
      const out = exceptionsView({
        exception: [
          {
            type: 'Error',
            stacktrace: { frames: [frame('a', inApp), frame('b', inApp)] },
          },
        ],
      }).value;
      expect(out).not.toContain('Show all frames');
      expect(fileOrder(out)).toEqual(['b.js:1', 'a.js:1']);
    }
  });

  it("falls back to a message's stack trace when there is no exception, and to nothing", () => {
    const out = exceptionsView({
      message: 'hello',
      stacktrace: { frames: [frame('log', true)] },
    }).value;
    expect(out).toContain('>Stack trace</h2>');
    expect(out).not.toContain('crashed here');
    expect(exceptionsView({ message: 'hello' }).value).toBe('');
  });
});
