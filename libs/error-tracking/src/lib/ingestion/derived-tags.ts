import { isJsonObject } from '../sentry-event/event-json';
import type { JsonObject } from '../sentry-event/event-json';
import { TAG_MAX } from './limits';
import { truncate } from './normalize-event';
import { userAgentContexts, userAgentOf } from './user-agent-contexts';
import type { UserAgentContexts } from './user-agent-contexts';
import { wellFormedJson } from './well-formed-json';

/**
 * Tags counted per event: the derived ones first, then the SDK's in the
 * order sent. An SDK can send any number; more than this are stored in the
 * payload but neither counted nor searchable.
 */
export const EVENT_TAGS_MAX = 100;

/** A query string or fragment is not part of Sentry's `url` tag. */
function urlWithoutQuery(url: string): string {
  const cut = url.search(/[?#]/);
  return cut === -1 ? url : url.slice(0, cut);
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  return undefined;
}

function field(object: unknown, key: string): string | undefined {
  return isJsonObject(object) ? text(object[key]) : undefined;
}

/**
 * Sentry's `user` tag: the first of id, e-mail, username and address,
 * prefixed by which it is (`id:42`, `email:ana@example.com`).
 */
function userTag(user: unknown): string | undefined {
  for (const [key, prefix] of [
    ['id', 'id'],
    ['email', 'email'],
    ['username', 'username'],
    ['ip_address', 'ip'],
  ] as const) {
    const value = field(user, key);
    if (value !== undefined) return `${prefix}:${value}`;
  }
  return undefined;
}

/** `name version`, or the name alone: Sentry's `browser`, `os`, `runtime`. */
function nameAndVersion(context: unknown): string | undefined {
  const name = field(context, 'name');
  if (name === undefined) return undefined;
  const version = field(context, 'version');
  return version === undefined ? name : `${name} ${version}`;
}

/** The thrown exception's mechanism: Sentry tags `handled` and `mechanism` from it. */
function thrownMechanism(payload: JsonObject): JsonObject | undefined {
  const exception = payload['exception'];
  const values = isJsonObject(exception) ? exception['values'] : undefined;
  if (!Array.isArray(values) || values.length === 0) return undefined;
  const thrown: unknown = values[values.length - 1];
  const mechanism = isJsonObject(thrown) ? thrown['mechanism'] : undefined;
  return isJsonObject(mechanism) ? mechanism : undefined;
}

/**
 * The browser, device and (for JavaScript, where it is the client's) OS
 * contexts the event lacks, from its request's User-Agent, as Relay adds
 * them (`normalize_user_agent_info_generic`); the event's own win.
 */
function withUserAgentContexts(
  payload: JsonObject,
  contexts: unknown,
): (name: string) => unknown {
  const own = (name: string): unknown =>
    isJsonObject(contexts) ? contexts[name] : undefined;
  const osFromAgent = payload['platform'] === 'javascript';
  const lacking =
    own('browser') === undefined ||
    own('device') === undefined ||
    (osFromAgent && own('os') === undefined);
  const userAgent = lacking ? userAgentOf(payload['request']) : undefined;
  if (userAgent === undefined) return own;
  const derived: UserAgentContexts = userAgentContexts(userAgent);
  const fromAgent: Record<string, unknown> = {
    browser: derived.browser,
    device: derived.device,
    os: osFromAgent ? derived.os : undefined,
  };
  return (name) => own(name) ?? fromAgent[name];
}

/**
 * The tags Sentry derives from an event's fields and contexts (its
 * `set_tag` of event fields and the interfaces' and contexts' own tags), as
 * `[key, value]` pairs in a fixed order; a field the event lacks gives no
 * tag.
 */
export function derivedTags(payload: JsonObject): Array<[string, string]> {
  const context = withUserAgentContexts(payload, payload['contexts']);
  const mechanism = thrownMechanism(payload);
  const handled = mechanism?.['handled'];
  const request = payload['request'];
  const url = field(request, 'url');
  const candidates: Array<[string, string | undefined]> = [
    ['level', field(payload, 'level')],
    ['environment', field(payload, 'environment')],
    ['release', field(payload, 'release')],
    ['dist', field(payload, 'dist')],
    ['server_name', field(payload, 'server_name')],
    ['transaction', field(payload, 'transaction')],
    ['url', url === undefined ? undefined : urlWithoutQuery(url)],
    [
      'handled',
      typeof handled === 'boolean' ? (handled ? 'yes' : 'no') : undefined,
    ],
    ['mechanism', field(mechanism, 'type')],
    ['user', userTag(payload['user'])],
    ['browser', nameAndVersion(context('browser'))],
    ['browser.name', field(context('browser'), 'name')],
    ['os', nameAndVersion(context('os'))],
    ['os.name', field(context('os'), 'name')],
    ['device', field(context('device'), 'model')],
    ['device.family', field(context('device'), 'family')],
    ['runtime', nameAndVersion(context('runtime'))],
    ['runtime.name', field(context('runtime'), 'name')],
  ];
  const tags: Array<[string, string]> = [];
  for (const [key, value] of candidates)
    if (value !== undefined) tags.push([key, truncate(value, TAG_MAX)]);
  return tags;
}

/**
 * An event's searchable tags: the derived ones, which win over an SDK tag
 * of the same key (Sentry's `set_tag` replaces it), then the SDK's own,
 * at most EVENT_TAGS_MAX. The e-mail of the event's user is kept under
 * `user.email`, the key Sentry's search names it by.
 */
export function eventTags(
  payload: JsonObject,
  sdkTags: Readonly<Record<string, string>>,
): Record<string, string> {
  const tags: Record<string, string> = {};
  let n = 0;
  const email = field(payload['user'], 'email');
  const pairs: Array<[string, string]> = [
    ...derivedTags(payload),
    ...(email === undefined
      ? []
      : [['user.email', truncate(email, TAG_MAX)] as [string, string]]),
  ];
  for (const [key, value] of pairs) {
    tags[key] = value;
    n++;
  }
  for (const [key, value] of Object.entries(sdkTags)) {
    if (n >= EVENT_TAGS_MAX) break;
    if (Object.hasOwn(tags, key)) continue;
    tags[key] = value;
    n++;
  }
  return tags;
}

/** A prepared event's tags as JSON, derived again for one spooled without them. */
export function tagsJsonOf(event: {
  readonly payloadJson: string;
  readonly tagsJson?: string;
}): string {
  if (event.tagsJson !== undefined) return event.tagsJson;
  const payload: unknown = JSON.parse(event.payloadJson);
  if (!isJsonObject(payload)) return '{}';
  const sent = payload['tags'];
  const sdkTags: Record<string, string> = {};
  if (isJsonObject(sent))
    for (const [key, value] of Object.entries(sent))
      if (typeof value === 'string') sdkTags[key] = value;
  return wellFormedJson(eventTags(payload, sdkTags));
}
