import { stackFrames } from './stack-trace';

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
});
