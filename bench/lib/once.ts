/**
 * `work()` started once per `key` (a seed per benchmark database): every
 * later call gets the same promise.
 */
export function onceFor<T>(
  done: Map<string, Promise<T>>,
  key: string,
  work: () => Promise<T>,
): Promise<T> {
  let promise = done.get(key);
  if (!promise) {
    promise = work();
    done.set(key, promise);
  }
  return promise;
}
