import UAParser from 'ua-parser-js';

import { isJsonObject } from '../sentry-event/event-json';

/** A name and, when the agent gives one, its version. */
export interface NamedVersion {
  readonly name: string;
  readonly version?: string;
}

/** What Relay reads from a User-Agent when the event lacks the context. */
export interface UserAgentContexts {
  readonly browser?: NamedVersion;
  readonly os?: NamedVersion;
  readonly device?: { readonly model: string; readonly family: string };
}

/** Distinct agents remembered: events of one app repeat a few of them. */
const CACHE_MAX = 1_000;
/** The characters ua-parser-js reads of an agent. */
const UA_MAX_LENGTH = 500;
const cache = new Map<string, UserAgentContexts>();

/**
 * The request's `User-Agent`, from Sentry's `headers` as an object or as
 * `[name, value]` pairs (names in any case).
 */
export function userAgentOf(request: unknown): string | undefined {
  const headers = isJsonObject(request) ? request['headers'] : undefined;
  const pairs: unknown[] = Array.isArray(headers)
    ? headers
    : isJsonObject(headers)
      ? Object.entries(headers)
      : [];
  for (const pair of pairs) {
    if (!Array.isArray(pair)) continue;
    const [name, value] = pair as unknown[];
    if (
      typeof name === 'string' &&
      name.toLowerCase() === 'user-agent' &&
      typeof value === 'string' &&
      value !== ''
    )
      return value;
  }
  return undefined;
}

/** Relay keeps major, minor and patch: `156.0.0.0` is `156.0.0`. */
function shortVersion(version: string | undefined): string | undefined {
  return version ? version.split('.').slice(0, 3).join('.') : undefined;
}

function named(
  name: string | undefined,
  version: string | undefined,
): NamedVersion | undefined {
  if (!name) return undefined;
  const short = shortVersion(version);
  return short ? { name, version: short } : { name };
}

function parse(userAgent: string): UserAgentContexts {
  const result = new UAParser(userAgent).getResult();
  const browser = named(result.browser.name, result.browser.version);
  const os = named(result.os.name, result.os.version);
  const model = result.device.model;
  return {
    ...(browser ? { browser } : {}),
    ...(os ? { os } : {}),
    // ua-parser-js names a model, not a family: the model is both.
    ...(model ? { device: { model, family: model } } : {}),
  };
}

/**
 * The browser, operating system and device a User-Agent names (each only
 * when recognised), as Relay derives them for an event that lacks those
 * contexts; parsed by ua-parser-js, so names are its own (`Chrome
 * Headless`, `Mobile Safari`, `Mac OS`).
 */
export function userAgentContexts(userAgent: string): UserAgentContexts {
  // ua-parser-js reads no further, so a longer one is the same agent.
  const key = userAgent.slice(0, UA_MAX_LENGTH);
  const known = cache.get(key);
  if (known) return known;
  const parsed = parse(key);
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(key, parsed);
  return parsed;
}
