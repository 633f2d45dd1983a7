/**
 * The two ways a promise may outlive the code that made it. Node 20 ends
 * the process on a rejection nobody handles, so work left running in the
 * background, and the loser of a race against a deadline, must keep a
 * handler whatever happens to the caller.
 */

/**
 * Lets `work` run on its own: a failure goes to `onError` (which should
 * log it), never unhandled, and a throwing `onError` is swallowed too.
 */
export function inBackground(
  work: PromiseLike<unknown>,
  onError: (error: unknown) => void,
): void {
  work.then(undefined, (error: unknown) => {
    try {
      onError(error);
    } catch {
      // The report of a failure must not become a failure of its own.
    }
  });
}

/**
 * `work`'s outcome, or the error `onTimeout` makes once `ms` passed first.
 * The timer is cleared as soon as either settles, and `work` keeps a
 * handler, so its late failure is dropped instead of ending the process.
 */
export function within<T>(
  work: Promise<T>,
  ms: number,
  onTimeout: () => Error,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
