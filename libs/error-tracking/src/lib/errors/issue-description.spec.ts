import { renderMarkdown } from '../web-ui/toolkit/markdown';
import type { ErrorRecord } from './error.types';
import { issueDescription } from './issue-description';
import { frameContext, stackFrames, toStackTraceEntry } from './stack-trace';

const error: ErrorRecord = {
  id: '5',
  projectId: 1,
  title: 'TypeError: [bad] value',
  type: 'TypeError',
  message: 'bad value',
  culprit: 'save (app)',
  status: 'unresolved',
  count: 12,
  userCount: 3,
  firstSeen: new Date('2026-11-20T08:00:00.000Z'),
  lastSeen: new Date('2026-11-22T09:30:15.000Z'),
  level: 'error',
  logger: null,
  platform: 'node',
  firstRelease: 'abc1234',
  lastRelease: 'def5678',
  lastEventId: '0'.repeat(32),
  issueIid: null,
  groupingVersion: 1,
};

const payload = {
  exception: {
    values: [
      { type: 'Cause', stacktrace: { frames: [{ function: 'ignored' }] } },
      {
        type: 'TypeError',
        stacktrace: {
          frames: [
            {
              function: 'main',
              filename: 'app.js',
              lineno: 3,
              context_line: 'main();',
            },
            {
              function: 'save',
              filename: 'app.js',
              lineno: 10,
              pre_context: ['a', 'b'],
              context_line: '  throw new TypeError(`x`) ```',
              post_context: ['c'],
            },
          ],
        },
      },
    ],
  },
};

describe('stack traces and issue descriptions', () => {
  it("takes the thrown exception's frames, oldest first, with numbered context", () => {
    const frames = stackFrames(payload);
    expect(frames.map((f) => f['function'])).toEqual(['main', 'save']);
    expect(frameContext(frames[1] ?? {})).toEqual([
      [8, 'a'],
      [9, 'b'],
      [10, '  throw new TypeError(`x`) ```'],
      [11, 'c'],
    ]);
    expect(toStackTraceEntry(frames[0] ?? {})).toEqual({
      filename: 'app.js',
      abs_path: null,
      function: 'main',
      lineNo: 3,
      colNo: 0,
      context: [[3, 'main();']],
      in_app: false,
      module: null,
      source_map: null,
    });
    expect(
      stackFrames({
        threads: { values: [{ stacktrace: { frames: [{ function: 't' }] } }] },
      }),
    ).toEqual([{ function: 't' }]);
  });

  it('shows a source-mapped frame with the minified frame it came from', () => {
    const minified = {
      function: 'o',
      filename: 'https://h/a.min.js',
      lineno: 3,
      colno: 61,
    };
    const mapped = {
      exception: {
        values: [
          {
            type: 'TypeError',
            stacktrace: {
              frames: [
                {
                  function: 'validateItem',
                  filename: 'src/validate.js',
                  lineno: 4,
                  colno: 11,
                  data: { symbolicated: true },
                },
              ],
            },
            raw_stacktrace: { frames: [minified] },
          },
        ],
      },
    };
    const [frame] = stackFrames(mapped);
    expect(toStackTraceEntry(frame ?? {}).source_map).toEqual({
      filename: 'https://h/a.min.js',
      function: 'o',
      lineNo: 3,
      colNo: 61,
    });
    expect(issueDescription(error, 'https://x/e/1', mapped)).toContain(
      'validateItem (src/validate.js:4) [source map: o (https://h/a.min.js:3:61)]',
    );
  });

  it('writes the error link, seen dates with releases, counts, and the stack trace crash frame first', () => {
    const text = issueDescription(
      error,
      'https://x/projects/1/error_tracking/5',
      payload,
    );
    expect(text).toContain(
      '**Error:** [TypeError\\: \\[bad\\] value](https://x/projects/1/error_tracking/5)',
    );
    expect(text).toContain(
      '- **First seen:** 2026-11-20 08:00:00 UTC (release `abc1234`)',
    );
    expect(text).toContain(
      '- **Last seen:** 2026-11-22 09:30:15 UTC (release `def5678`)',
    );
    expect(text).toContain('- **Events:** 12');
    expect(text).toContain('- **Users:** 3');
    // The context line holds ``` so the fence is longer.
    expect(text).toContain(
      '````\nsave (app.js:10)\n    throw new TypeError(`x`) ```\nmain (app.js:3)\n    main();\n````',
    );
    expect(issueDescription(error, 'u', undefined)).not.toContain(
      'Stack trace',
    );
  });

  it('keeps event-supplied text inert: releases, culprit and title never become headings, links or HTML', () => {
    const breakOut =
      'x`\n\n# Owned\n\n[click](https://evil.example) <b>b</b> `y';
    const hostile: ErrorRecord = {
      ...error,
      title: 'E: ](https://evil.example) [x](https://evil.example) <i>i</i>',
      // A transaction becomes the culprit of an event without frames.
      culprit: '`` ` ``\n# Culprit [c](https://evil.example)',
      firstRelease: breakOut,
      lastRelease: '```\n<script>alert(1)</script>\n```',
    };
    const source = issueDescription(hostile, 'https://x/e/5', undefined);
    const html = renderMarkdown(source).value;
    expect(html).not.toMatch(/<h\d/);
    expect(html).not.toContain('evil.example"');
    expect(html.match(/<a /g)).toHaveLength(1);
    expect(html).toContain('<a href="https://x/e/5"');
    expect(html).not.toMatch(/<(b|i|script)>/);
    // The values are still shown, as code.
    expect(html).toContain('# Owned');
    expect(html).toContain('# Culprit');
  });
});
