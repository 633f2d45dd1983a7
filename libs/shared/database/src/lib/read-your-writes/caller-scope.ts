import { AsyncLocalStorage } from 'node:async_hooks';

interface CallerScope {
  readonly request: object;
  readonly fallbackKey: () => string;
  fallback?: string;
}

const scopes = new AsyncLocalStorage<CallerScope>();
/** Keys the contexts gave requests once they knew who sends them. */
const identified = new WeakMap<object, string>();

/**
 * Runs `work` (the handling of `request`) as one caller's: the writes it
 * commits and the replica reads it makes are matched by that caller's key
 * (`identifyCaller`, else `fallbackKey()`, asked only when needed). The
 * gateway enters it only with a replica configured: outside a scope nothing
 * is remembered and reads are not held back.
 */
export function runAsCaller<T>(
  request: object,
  fallbackKey: () => string,
  work: () => T,
): T {
  return scopes.run({ request, fallbackKey }, work);
}

/**
 * Names who sends `request` (a context, once it has authenticated it):
 * every request of that caller then reads its own writes. Cheap, and
 * harmless outside a scope.
 */
export function identifyCaller(request: object, key: string): void {
  identified.set(request, key);
}

/** The key of the caller whose request runs here; none outside a scope. */
export function currentCaller(): string | undefined {
  const scope = scopes.getStore();
  if (!scope) return undefined;
  return (
    identified.get(scope.request) ?? (scope.fallback ??= scope.fallbackKey())
  );
}
