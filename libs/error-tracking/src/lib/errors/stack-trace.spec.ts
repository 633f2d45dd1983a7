import { eventStackTrace, stackFrames } from './stack-trace';

describe('stackFrames', () => {
  const frames = [{ function: 'main' }, { function: 'crash' }];

  it.each([
    [
      'the thrown exception',
      { exception: { values: [{ stacktrace: { frames } }] } },
    ],
    [
      "a message's top-level stack trace",
      { message: 'm', stacktrace: { frames } },
    ],
    [
      'the crashed thread',
      { threads: { values: [{ crashed: true, stacktrace: { frames } }] } },
    ],
  ])('shows %s', (_case, payload) => {
    expect(stackFrames(payload)).toEqual(frames);
  });

  it.each([
    [
      'a thrown exception',
      { exception: [{ type: 'E', stacktrace: { frames } }] },
      true,
    ],
    [
      "a message's attached stack (type-less)",
      { exception: [{ value: 'm', stacktrace: { frames } }] },
      false,
    ],
    ["a message's top-level stack trace", { stacktrace: { frames } }, false],
    [
      'a crashed thread snapshot',
      { threads: [{ crashed: true, stacktrace: { frames } }] },
      false,
    ],
  ])('marks the crash frame of %s: %s', (_case, payload, crashed) => {
    expect(eventStackTrace(payload).crashed).toBe(crashed);
  });
});
