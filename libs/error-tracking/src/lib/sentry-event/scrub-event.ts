import { isJsonObject } from './event-json';
import type { JsonObject } from './event-json';
import {
  FILTERED,
  isSensitiveKey,
  scrubEntry,
  scrubText,
  scrubTextParts,
  scrubValue,
} from './sensitive-data';

/** Request headers that are credentials whatever their value says. */
const CREDENTIAL_HEADERS = /^(?:set-)?cookie$/i;
/** Left as sent, as Relay does: the browser, which no secret is. */
const USER_AGENT = /^user-agent$/i;
/** The user's fields that identify the user, kept as sent (Sentry does). */
const USER_IDENTITY = new Set(['id', 'username', 'email', 'ip_address']);

function scrubHeader(name: string, value: unknown): unknown {
  if (CREDENTIAL_HEADERS.test(name) && value !== null && value !== undefined)
    return FILTERED;
  if (USER_AGENT.test(name)) return value;
  return scrubEntry(name, value);
}

/** Headers sent as an object or as `[name, value]` pairs. */
function scrubHeaders(headers: unknown): unknown {
  if (Array.isArray(headers))
    return headers.map((pair: unknown) =>
      Array.isArray(pair) && pair.length === 2 && typeof pair[0] === 'string'
        ? [pair[0], scrubHeader(pair[0], pair[1])]
        : scrubValue(pair),
    );
  if (!isJsonObject(headers)) return scrubValue(headers);
  return Object.fromEntries(
    Object.entries(headers).map(([name, v]) => [name, scrubHeader(name, v)]),
  );
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * A query string as text: a parameter whose name is sensitive, or whose
 * value holds anything `scrubText` would change, keeps only its name.
 */
function scrubQueryText(query: string): string {
  return query
    .split('&')
    .map((part) => {
      const equals = part.indexOf('=');
      if (equals < 0) return part;
      const name = part.slice(0, equals);
      const value = decoded(part.slice(equals + 1));
      return isSensitiveKey(decoded(name)) || scrubText(value) !== value
        ? `${name}=${FILTERED}`
        : part;
    })
    .join('&');
}

function scrubQuery(query: unknown): unknown {
  return typeof query === 'string' ? scrubQueryText(query) : scrubValue(query);
}

/** A URL's password and its query's secrets; its path stays readable. */
function scrubUrl(url: unknown): unknown {
  if (typeof url !== 'string') return scrubValue(url);
  const question = url.indexOf('?');
  if (question < 0) return scrubTextParts(url);
  const base = scrubTextParts(url.slice(0, question));
  return `${base}?${scrubQueryText(url.slice(question + 1))}`;
}

function scrubRequest(request: JsonObject): JsonObject {
  const scrubbed: JsonObject = { ...request };
  for (const [key, value] of Object.entries(request)) {
    if (value === undefined || value === null) continue;
    if (key === 'headers') scrubbed[key] = scrubHeaders(value);
    else if (key === 'cookies') scrubbed[key] = FILTERED;
    else if (key === 'query_string') scrubbed[key] = scrubQuery(value);
    else if (key === 'url') scrubbed[key] = scrubUrl(value);
    else if (key !== 'method') scrubbed[key] = scrubEntry(key, value);
  }
  return scrubbed;
}

function scrubUser(user: JsonObject): JsonObject {
  return Object.fromEntries(
    Object.entries(user).map(([key, v]) => [
      key,
      USER_IDENTITY.has(key) ? v : scrubEntry(key, v),
    ]),
  );
}

function scrubFrame(frame: unknown): unknown {
  if (!isJsonObject(frame) || frame['vars'] === undefined) return frame;
  return { ...frame, vars: scrubValue(frame['vars']) };
}

function scrubStacktrace(stacktrace: unknown): unknown {
  if (!isJsonObject(stacktrace) || !Array.isArray(stacktrace['frames']))
    return stacktrace;
  return { ...stacktrace, frames: stacktrace['frames'].map(scrubFrame) };
}

/** Exceptions or threads, as a list or as `{ values }`: their frames' vars. */
function scrubStackHolders(holders: unknown): unknown {
  const scrubOne = (holder: unknown): unknown => {
    if (!isJsonObject(holder)) return holder;
    const scrubbed = { ...holder };
    for (const key of ['stacktrace', 'raw_stacktrace'])
      if (holder[key] !== undefined)
        scrubbed[key] = scrubStacktrace(holder[key]);
    return scrubbed;
  };
  if (Array.isArray(holders)) return holders.map(scrubOne);
  if (!isJsonObject(holders)) return holders;
  if (Array.isArray(holders['values']))
    return { ...holders, values: holders['values'].map(scrubOne) };
  return scrubOne(holders);
}

function scrubBreadcrumbs(breadcrumbs: unknown): unknown {
  const scrubOne = (crumb: unknown): unknown =>
    isJsonObject(crumb) && crumb['data'] !== undefined
      ? { ...crumb, data: scrubValue(crumb['data']) }
      : crumb;
  if (Array.isArray(breadcrumbs)) return breadcrumbs.map(scrubOne);
  if (isJsonObject(breadcrumbs) && Array.isArray(breadcrumbs['values']))
    return { ...breadcrumbs, values: breadcrumbs['values'].map(scrubOne) };
  return breadcrumbs;
}

function scrubLogentry(logentry: unknown): unknown {
  if (!isJsonObject(logentry) || logentry['params'] === undefined)
    return logentry;
  return { ...logentry, params: scrubValue(logentry['params']) };
}

/**
 * An event's payload as Sentry stores it with its default data scrubbers:
 * in the request (credential headers and cookies whole; sensitive keys of
 * the body, query, environment; a URL's password), extra data, contexts,
 * the user's fields besides id, username, e-mail and IP address,
 * breadcrumbs' data, message parameters and frames' variables, values
 * under password-, secret-, token- or key-like names, texts naming a
 * credential, bearer tokens, card numbers and key material become
 * `[Filtered]`. Titles, messages, exception values, file names and tags
 * are not touched (Relay leaves them too), so grouping is the same.
 * Returns a copy sharing what it does not change; scrubbing twice is
 * scrubbing once.
 */
export function scrubEventPayload(payload: JsonObject): JsonObject {
  const scrubbed: JsonObject = { ...payload };
  const request = payload['request'];
  if (isJsonObject(request)) scrubbed['request'] = scrubRequest(request);
  const user = payload['user'];
  if (isJsonObject(user)) scrubbed['user'] = scrubUser(user);
  for (const key of ['extra', 'contexts'])
    if (payload[key] !== undefined) scrubbed[key] = scrubValue(payload[key]);
  for (const key of ['exception', 'threads'])
    if (payload[key] !== undefined)
      scrubbed[key] = scrubStackHolders(payload[key]);
  if (payload['stacktrace'] !== undefined)
    scrubbed['stacktrace'] = scrubStacktrace(payload['stacktrace']);
  if (payload['breadcrumbs'] !== undefined)
    scrubbed['breadcrumbs'] = scrubBreadcrumbs(payload['breadcrumbs']);
  if (payload['logentry'] !== undefined)
    scrubbed['logentry'] = scrubLogentry(payload['logentry']);
  return scrubbed;
}
