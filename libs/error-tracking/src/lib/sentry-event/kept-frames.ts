/** Frames a stack trace keeps (Sentry's limit); longer ones lose the middle. */
export const FRAMES_MAX = 250;

/**
 * The frames a stack trace keeps: both ends of a long one (the first calls
 * and the crash frame, the last), as Sentry trims. Whatever looks at frames
 * before normalisation (source maps) sees only these.
 */
export function keptFrames<T>(frames: readonly T[]): readonly T[] {
  if (frames.length <= FRAMES_MAX) return frames;
  const head = Math.floor(FRAMES_MAX / 2);
  return [
    ...frames.slice(0, head),
    ...frames.slice(frames.length - (FRAMES_MAX - head)),
  ];
}
