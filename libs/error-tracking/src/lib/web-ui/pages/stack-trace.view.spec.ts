import type { StackTraceEntry } from '../../errors/stack-trace';
import { stackTraceView } from './stack-trace.view';

function frame(fn: string, inApp: boolean, lineNo: number): StackTraceEntry {
  return {
    filename: `${fn}.js`,
    abs_path: null,
    function: fn,
    lineNo,
    colNo: 0,
    context: [
      [lineNo - 1, 'before();'],
      [lineNo, `  ${fn}('<x>');`],
      [lineNo + 1, 'after();'],
    ],
    in_app: inApp,
    module: null,
    source_map: null,
  };
}

describe('stackTraceView', () => {
  // The API's order: oldest first, crash frame last.
  const entries = [
    frame('main', false, 5),
    frame('run', true, 12),
    frame('crash', true, 40),
  ];
  const out = stackTraceView(entries, true).value;

  it('puts the crash frame first, open, and the others closed after it', () => {
    const order = [...out.matchAll(/<span class="frame-file">([^<]+)</g)].map(
      (m) => m[1],
    );
    expect(order).toEqual(['crash.js:40', 'run.js:12', 'main.js:5']);
    const details = [...out.matchAll(/<details\s+class="([^"]+)"\s*(open)?/g)];
    expect(details.map((m) => [m[1], m[2] ?? ''])).toEqual([
      ['frame in-app crash', 'open'],
      ['frame in-app', ''],
      ['frame', ''],
    ]);
  });

  it('numbers the context lines, marks the frame line and escapes the source', () => {
    const crash = out.slice(0, out.indexOf('run.js'));
    const numbers = [...crash.matchAll(/<span class="ln">(\d+)<\/span>/g)].map(
      (m) => Number(m[1]),
    );
    expect(numbers).toEqual([39, 40, 41]);
    expect(crash).toMatch(
      /class="current"[^>]*>\s*<span class="ln">40<\/span>/,
    );
    expect(crash).toContain('crash(&#39;&lt;x&gt;&#39;);');
  });

  it('marks a source-mapped frame and says where it was in the minified file', () => {
    const mapped = stackTraceView(
      [
        {
          ...frame('validateItem', true, 4),
          source_map: {
            filename: 'https://cdn.example/app.min.js',
            function: 'o',
            lineNo: 3,
            colNo: 61,
          },
        },
      ],
      true,
    ).value;
    expect(mapped).toContain(
      '<span class="frame-tag source-mapped">source map</span>',
    );
    expect(mapped).toMatch(
      /Resolved by source map from\s*<code>o<\/code> at\s*<code>https:\/\/cdn\.example\/app\.min\.js:3:61<\/code>/,
    );
    expect(out).not.toContain('source-mapped');
  });

  it('says so when the event has no stack trace', () => {
    expect(stackTraceView([], true).value).toContain('no stack trace');
  });

  it('marks no frame "crashed here" in a message\'s stack or a thread snapshot', () => {
    const snapshot = stackTraceView(entries, false).value;
    expect(snapshot).not.toContain('crashed here');
    expect(snapshot).toMatch(/<details\s+class="frame in-app"\s*open/);
    expect(out).toContain('crashed here');
  });
});
