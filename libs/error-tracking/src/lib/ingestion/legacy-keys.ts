import type { JsonObject } from '../sentry-event/event-json';

/**
 * The interface names older SDKs (raven-*) send for the modern keys, as
 * Relay's `legacy_alias` attributes read them. The modern key wins.
 */
const LEGACY_KEYS: Readonly<Record<string, string>> = {
  'sentry.interfaces.Exception': 'exception',
  'sentry.interfaces.Message': 'logentry',
  'sentry.interfaces.Stacktrace': 'stacktrace',
  'sentry.interfaces.Template': 'template',
  'sentry.interfaces.User': 'user',
  'sentry.interfaces.Http': 'request',
  'sentry.interfaces.Breadcrumbs': 'breadcrumbs',
  'sentry.interfaces.Contexts': 'contexts',
  'sentry.interfaces.Threads': 'threads',
  'sentry.interfaces.DebugMeta': 'debug_meta',
  'sentry.interfaces.Csp': 'csp',
  'sentry.interfaces.Hpkp': 'hpkp',
  'sentry.interfaces.ExpectCT': 'expectct',
  'sentry.interfaces.ExpectStaple': 'expectstaple',
};

const LEGACY_PREFIX = 'sentry.interfaces.';

/** The event with its legacy interface keys renamed (itself when it has none). */
export function renameLegacyKeys(raw: JsonObject): JsonObject {
  let renamed: JsonObject | undefined;
  for (const key in raw) {
    if (!key.startsWith(LEGACY_PREFIX)) continue;
    const modern =
      LEGACY_KEYS[key] ?? key.slice(LEGACY_PREFIX.length).toLowerCase();
    renamed ??= { ...raw };
    const value = renamed[key];
    delete renamed[key];
    if (renamed[modern] === undefined || renamed[modern] === null)
      renamed[modern] = value;
  }
  return renamed ?? raw;
}
