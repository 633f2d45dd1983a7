import { html } from '../../html/html';
import type { SafeHtml } from '../../html/html';
import { isJsonObject } from '../../sentry-event/event-json';
import type { JsonObject } from '../../sentry-event/event-json';
import { entriesOf, eventSection, keyValues } from './event-values.view';

/** What a page shows in place of a credential. */
export const MASKED = '[Filtered]';

/** Request headers whose values are credentials, never shown. */
const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-sentry-auth',
  'private-token',
  'x-api-key',
  'x-auth-token',
  'x-csrf-token',
]);

/** Field names whose values are credentials (Sentry's default scrubbing). */
const SECRET_FIELD =
  /pass(word|wd)?|secret|token|api_?key|auth|session|csrf|credential/i;

/** A body or query with credential fields' values masked, at any depth. */
export function maskedFields(value: unknown, depth = 0): unknown {
  if (depth > 20) return MASKED;
  if (Array.isArray(value)) return value.map((v) => maskedFields(v, depth + 1));
  if (!isJsonObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      key,
      SECRET_FIELD.test(key) ? MASKED : maskedFields(v, depth + 1),
    ]),
  );
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** Pairs of an object or of a `[[key, value], ...]` list (both are sent). */
function pairsOf(value: unknown): Array<[string, unknown]> {
  if (Array.isArray(value))
    return value
      .filter(
        (pair): pair is [string, unknown] =>
          Array.isArray(pair) && typeof pair[0] === 'string',
      )
      .map(([key, v]) => [key, v]);
  return entriesOf(value);
}

/** Request headers with the credentials' values masked. */
export function maskedHeaders(value: unknown): Array<[string, unknown]> {
  return pairsOf(value).map(([key, v]) =>
    SECRET_HEADERS.has(key.toLowerCase()) ? [key, MASKED] : [key, v],
  );
}

/**
 * The SDK's tags and the ones derived from fields (level, logger,
 * environment, release) where the SDK did not set them, by key.
 */
export function eventTagList(payload: JsonObject): Array<[string, string]> {
  const tags = new Map<string, string>();
  for (const [key, value] of pairsOf(payload['tags']))
    if (typeof value === 'string') tags.set(key, value);
  for (const key of ['level', 'logger', 'environment', 'release'])
    if (!tags.has(key) && text(payload[key]))
      tags.set(key, payload[key] as string);
  return [...tags].sort(([a], [b]) => a.localeCompare(b));
}

function tagsView(payload: JsonObject): SafeHtml {
  const tags = eventTagList(payload);
  return eventSection(
    'event-tags-heading',
    'Event tags',
    tags.length === 0
      ? html`<p class="muted">No tags.</p>`
      : html`<ul class="tags" aria-label="Event tags">
          ${tags.map(
            ([key, value]) =>
              html`<li class="tag">
                <span class="tag-key">${key}</span
                ><span class="tag-value">${value}</span>
              </li>`,
          )}
        </ul>`,
  );
}

const CONTEXT_ORDER = ['os', 'runtime', 'device', 'browser', 'app', 'trace'];
const CONTEXT_TITLE: Record<string, string> = {
  os: 'Operating system',
  runtime: 'Runtime',
  device: 'Device',
  browser: 'Browser',
  app: 'App',
  trace: 'Trace',
};

function contextsView(payload: JsonObject): SafeHtml {
  const contexts = entriesOf(payload['contexts']).sort(
    ([a], [b]) =>
      (CONTEXT_ORDER.indexOf(a) + 1 || 99) -
        (CONTEXT_ORDER.indexOf(b) + 1 || 99) || a.localeCompare(b),
  );
  if (contexts.length === 0) return html``;
  return eventSection(
    'event-contexts-heading',
    'Contexts',
    html`<div class="contexts">
      ${contexts.map(([key, value]) => {
        const title = CONTEXT_TITLE[key] ?? key;
        const fields = isJsonObject(value)
          ? entriesOf(value).filter(([k]) => k !== 'type')
          : [['value', value] as [string, unknown]];
        return html`<div class="context-block">
          <h3>${title}</h3>
          ${keyValues(fields, `${title} context`)}
        </div>`;
      })}
    </div>`,
  );
}

const USER_FIELDS: ReadonlyArray<[string, string]> = [
  ['id', 'ID'],
  ['username', 'Username'],
  ['email', 'E-mail'],
  ['ip_address', 'IP address'],
];

function userView(payload: JsonObject): SafeHtml {
  const user = payload['user'];
  if (!isJsonObject(user)) return html``;
  const known = new Set(USER_FIELDS.map(([key]) => key));
  return eventSection(
    'event-user-heading',
    'User',
    keyValues(
      [
        ...USER_FIELDS.map(([key, label]): [string, unknown] => [
          label,
          user[key],
        ]),
        ...entriesOf(user).filter(([key]) => !known.has(key)),
      ],
      'User',
    ),
  );
}

/** A query string (text or pairs) with credential parameters masked. */
export function queryView(query: unknown): unknown {
  if (typeof query === 'string') {
    if (query === '') return undefined;
    const params = new URLSearchParams(query);
    for (const key of [...params.keys()])
      if (SECRET_FIELD.test(key) || key === 'sentry_key')
        params.set(key, MASKED);
    return decodeURIComponent(params.toString().replace(/\+/g, ' '));
  }
  const pairs = pairsOf(query);
  return pairs.length > 0 ? maskedFields(Object.fromEntries(pairs)) : undefined;
}

function requestView(payload: JsonObject): SafeHtml {
  const request = payload['request'];
  if (!isJsonObject(request)) return html``;
  const headers = maskedHeaders(request['headers']);
  const query = request['query_string'];
  const fields: Array<[string, unknown]> = [
    ['Method', request['method']],
    ['URL', request['url']],
    ['Query', queryView(query)],
    [
      'Cookies',
      request['cookies'] !== undefined && request['cookies'] !== null
        ? MASKED
        : undefined,
    ],
    ['Body', maskedFields(request['data'] ?? undefined)],
    ['Environment', request['env'] ?? undefined],
  ];
  return eventSection(
    'event-request-heading',
    'Request',
    html`${keyValues(fields, 'Request')}
    ${
      headers.length > 0
        ? html`<h3 class="subheading">Headers</h3>
            ${keyValues(headers, 'Request headers')}`
        : null
    }`,
  );
}

function extraView(payload: JsonObject): SafeHtml {
  const extra = entriesOf(payload['extra']);
  if (extra.length === 0) return html``;
  return eventSection(
    'event-extra-heading',
    'Additional data',
    keyValues(extra, 'Additional data'),
  );
}

function sdkView(payload: JsonObject): SafeHtml {
  const sdk = payload['sdk'];
  if (!isJsonObject(sdk)) return html``;
  const integrations = Array.isArray(sdk['integrations'])
    ? sdk['integrations'].filter((i): i is string => typeof i === 'string')
    : [];
  const packages = Array.isArray(sdk['packages'])
    ? sdk['packages']
        .filter(isJsonObject)
        .map(
          (p) =>
            `${text(p['name']) ?? '?'}${text(p['version']) ? ` ${text(p['version'])}` : ''}`,
        )
    : [];
  return eventSection(
    'event-sdk-heading',
    'SDK',
    keyValues(
      [
        ['Name', sdk['name']],
        ['Version', sdk['version']],
        [
          'Integrations',
          integrations.length > 0 ? integrations.join(', ') : undefined,
        ],
        ['Packages', packages.length > 0 ? packages.join(', ') : undefined],
      ],
      'SDK',
    ),
  );
}

/** The event's own fields: where and in what it happened. */
function fieldsView(payload: JsonObject): SafeHtml {
  return eventSection(
    'event-fields-heading',
    'Event',
    keyValues(
      [
        ['Release', text(payload['release']) ?? undefined],
        ['Environment', text(payload['environment']) ?? undefined],
        ['Dist', text(payload['dist']) ?? undefined],
        ['Server name', text(payload['server_name']) ?? undefined],
        ['Transaction', text(payload['transaction']) ?? undefined],
        ['Platform', text(payload['platform']) ?? undefined],
        ['Level', text(payload['level']) ?? undefined],
        ['Logger', text(payload['logger']) ?? undefined],
      ],
      'Event fields',
    ),
  );
}

/**
 * Everything of an event besides its exceptions and breadcrumbs: fields,
 * tags, contexts, user, request (credentials masked), extra data, SDK.
 */
export function eventDetailsView(payload: JsonObject): SafeHtml {
  return html`${fieldsView(payload)} ${tagsView(payload)}
  ${contextsView(payload)} ${userView(payload)} ${requestView(payload)}
  ${extraView(payload)} ${sdkView(payload)}`;
}
