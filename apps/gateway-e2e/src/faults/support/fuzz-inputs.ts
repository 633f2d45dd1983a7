import { gzipSync } from 'node:zlib';

import { fixtureBody, seededRandom } from '@quitanda/testing';
import type { SentryFixture } from '@quitanda/testing';

/** One request of the fuzz run; `index` and the seed are enough to rebuild it. */
export interface FuzzInput {
  readonly index: number;
  readonly label: string;
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: Buffer;
}

export interface Operation {
  readonly method: string;
  readonly path: string;
  readonly pathParams: readonly string[];
  readonly queryParams: readonly string[];
  /** A well-formed body built from the operation's schema, if it takes one. */
  readonly body?: unknown;
}

/** What the generator needs of the running gateway: ids and credentials. */
export interface FuzzWorld {
  readonly operations: readonly Operation[];
  readonly fixtures: readonly SentryFixture[];
  /** Valid values per path parameter name (and `id` per path prefix). */
  readonly ids: Readonly<Record<string, readonly string[]>>;
  /** Valid credential headers per path prefix. */
  auth(path: string): Record<string, string>;
}

type Rng = () => number;

/** Percent-encoding that takes lone surrogates too (as U+FFFD). */
function encode(value: string): string {
  return encodeURIComponent(
    value.replace(
      /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
      '\uFFFD',
    ),
  );
}

/** Raw escapes that are not UTF-8 (or are NUL) once decoded. */
const RAW_ESCAPES = ['%ff%fe', '%00', '%c3%28', '%e2%82', '%'];

function pick<T>(rng: Rng, values: readonly T[]): T {
  return values[Math.floor(rng() * values.length)] as T;
}

/** JSON text nested `depth` levels (built as text, so no recursion anywhere here). */
function deepText(rng: Rng, depth: number): string {
  const open = rng() < 0.5 ? '[' : '{"a":';
  const close = open === '[' ? ']' : '}';
  return open.repeat(depth) + '1' + close.repeat(depth);
}

const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'];

/** A hostile string: what an attacker types into any field. */
function hostileString(rng: Rng): string {
  switch (Math.floor(rng() * 10)) {
    case 0:
      return `a\u0000b`;
    case 1:
      return 'x'.repeat(Math.floor(rng() * 2_000_000));
    case 2:
      return '\ud800\udfff\udbff lone surrogates';
    case 3:
      return "' OR 1=1; DROP TABLE x; --";
    case 4:
      return '../../../../etc/passwd';
    case 5:
      return '%00%ff%zz';
    case 6:
      return pick(rng, PROTOTYPE_KEYS);
    case 7:
      return '\u202e\u0000\ufeff😀';
    case 8:
      return String(Number.MAX_SAFE_INTEGER) + '9'.repeat(30);
    default:
      return '';
  }
}

/** A hostile JSON value (as an object; deep ones are spliced in as text). */
function hostileValue(rng: Rng): unknown {
  switch (Math.floor(rng() * 9)) {
    case 0:
      return hostileString(rng);
    case 1:
      return { constructor: { prototype: { admin: true } }, prototype: {} };
    case 2:
      return Array.from({ length: 20_000 }, (_, i) => i);
    case 3:
      return pick(rng, [null, true, -1, 1e308, 0.5, [], {}]);
    case 4:
      return { $where: 'sleep(10)', $regex: '(a+)+$', $gt: '' };
    default:
      return hostileString(rng);
  }
}

/** `{"__proto__": ...}` survives only in JSON text, not in an object literal. */
function withPrototypeKey(text: string, rng: Rng): string {
  const key = pick(rng, PROTOTYPE_KEYS);
  return text.startsWith('{') && text.length > 2
    ? `{"${key}":{"polluted":true},${text.slice(1)}`
    : text;
}

function mutateObject(rng: Rng, base: unknown): unknown {
  if (base === null || typeof base !== 'object' || Array.isArray(base))
    return rng() < 0.5 ? hostileValue(rng) : base;
  const copy: Record<string, unknown> = { ...(base as object) };
  const keys = Object.keys(copy);
  const rounds = 1 + Math.floor(rng() * 3);
  for (let i = 0; i < rounds; i++) {
    const key =
      keys.length > 0 && rng() < 0.8
        ? pick(rng, keys)
        : rng() < 0.5
          ? hostileString(rng).slice(0, 200)
          : `extra${i}`;
    copy[key] = hostileValue(rng);
  }
  return copy;
}

/** A body: the operation's well-formed one, mutated as text or bytes. */
function bodyFor(rng: Rng, base: unknown): Buffer {
  let text = JSON.stringify(mutateObject(rng, base ?? {}));
  const roll = rng();
  if (roll < 0.12)
    text = `{"deep":${deepText(rng, 100 + Math.floor(rng() * 20_000))}}`;
  else if (roll < 0.2) text = withPrototypeKey(text, rng);
  else if (roll < 0.25) text = text.slice(0, Math.floor(rng() * text.length));
  const bytes = Buffer.from(text, 'utf8');
  if (rng() < 0.08) {
    // Invalid UTF-8 in the middle of the body.
    const at = Math.floor(rng() * bytes.length);
    return Buffer.concat([
      bytes.subarray(0, at),
      Buffer.from([0xff, 0xfe, 0xc3]),
      bytes.subarray(at),
    ]);
  }
  return bytes;
}

function paramValue(rng: Rng, world: FuzzWorld, name: string, path: string) {
  if (rng() < 0.1) return `a${pick(rng, RAW_ESCAPES)}`;
  if (rng() < 0.3) return encode(hostileString(rng).slice(0, 2_000));
  const key =
    name === 'id' ? `id:${path.split('/').slice(0, 4).join('/')}` : name;
  const values = world.ids[key] ?? world.ids[name] ?? ['1'];
  return encode(pick(rng, values));
}

function queryValue(rng: Rng, name: string): string {
  if (rng() < 0.1) return `a${pick(rng, RAW_ESCAPES)}`;
  if (rng() < 0.5) return encode(hostileString(rng).slice(0, 4_000));
  if (name === 'query' || name === 'sort')
    return encode(JSON.stringify(hostileValue(rng)).slice(0, 4_000));
  return encode(pick(rng, ['-1', '0', '1e9', 'true', '[]', 'null']));
}

function hostileAuth(rng: Rng): Record<string, string> {
  return pick<Record<string, string>>(rng, [
    {
      authorization: `Basic ${Buffer.from('kid_x:\u0000').toString('base64')}`,
    },
    { authorization: `Kinvey ${'a'.repeat(8_000)}` },
    { authorization: 'Bearer \u00ff' },
    { 'private-token': 'glpat-%00' },
    { 'x-sentry-auth': 'Sentry sentry_key=%00, sentry_version=7' },
    {},
  ]);
}

function operationInput(rng: Rng, world: FuzzWorld, index: number): FuzzInput {
  const op = pick(rng, world.operations);
  let path = op.path;
  for (const name of op.pathParams) {
    // DELETE with a valid id would empty the world the other inputs use.
    const value =
      op.method === 'DELETE' && rng() < 0.9
        ? encode(hostileString(rng).slice(0, 100))
        : paramValue(rng, world, name, op.path);
    path = path.replace(`{${name}}`, value || 'x');
  }
  const query = op.queryParams
    .filter(() => rng() < 0.6)
    .map((name) => `${name}=${queryValue(rng, name)}`);
  const headers: Record<string, string> = {
    ...(rng() < 0.85 ? world.auth(path) : hostileAuth(rng)),
  };
  let body: Buffer | undefined;
  if (op.body !== undefined || rng() < 0.1) {
    body = bodyFor(rng, op.body);
    headers['content-type'] = pick(rng, [
      'application/json',
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; charset=utf-16',
    ]);
  }
  return {
    index,
    label: `${op.method} ${op.path}`,
    method: op.method,
    path: query.length > 0 ? `${path}?${query.join('&')}` : path,
    headers,
    body,
  };
}

function mutateEvent(rng: Rng, event: Record<string, unknown>): string {
  const copy = mutateObject(rng, event) as Record<string, unknown>;
  let text = JSON.stringify(copy);
  const roll = rng();
  if (roll < 0.25)
    text = `${text.slice(0, -1)},"extra":{"deep":${deepText(rng, 100 + Math.floor(rng() * 20_000))}}}`;
  else if (roll < 0.35) text = withPrototypeKey(text, rng);
  else if (roll < 0.45) text = text.replace(/"([^"]{3})/g, '"$1\\u0000');
  return text;
}

let gzipBomb: Buffer | undefined;

/** A decompression bomb: 120 MB of zeros (past every limit) in ~120 KB of gzip. */
function bomb(): Buffer {
  gzipBomb ??= gzipSync(Buffer.alloc(120 * 1024 * 1024), { level: 9 });
  return gzipBomb;
}

/** A captured SDK request (fixtures/sentry), its event mutated. */
function collectorInput(rng: Rng, world: FuzzWorld, index: number): FuzzInput {
  const fixture = pick(rng, world.fixtures);
  const headers = { ...fixture.replay.headers };
  delete headers['content-length'];
  delete headers['Content-Length'];
  const original = fixtureBody(fixture);
  const encoding = fixture.body.content_encoding;
  let text = fixture.body.text;
  if (fixture.endpoint === 'store') {
    text = mutateEvent(rng, JSON.parse(text) as Record<string, unknown>);
  } else {
    // Envelope: mutate each JSON line's item, keep the framing (lengths dropped).
    text = text
      .split('\n')
      .map((line, i) => {
        if (i === 0 || !line.startsWith('{') || rng() < 0.5) return line;
        try {
          const value = JSON.parse(line) as Record<string, unknown>;
          return 'length' in value
            ? JSON.stringify({ ...value, length: undefined })
            : mutateEvent(rng, value);
        } catch {
          return line;
        }
      })
      .join('\n');
  }
  let body: Buffer = Buffer.from(text, 'utf8');
  if (rng() < 0.05) {
    body = bomb();
    headers['content-encoding'] = 'gzip';
  } else if (encoding && encoding !== 'identity' && rng() < 0.5) {
    body = gzipSync(body);
    headers['content-encoding'] = 'gzip';
  } else {
    delete headers['content-encoding'];
    delete headers['Content-Encoding'];
  }
  if (rng() < 0.05)
    body = original.subarray(0, Math.floor(rng() * original.length));
  const path =
    rng() < 0.1
      ? fixture.replay.url.replace(
          /sentry_key=[^&]*/,
          `sentry_key=${encode(hostileString(rng).slice(0, 200))}`,
        )
      : fixture.replay.url;
  return {
    index,
    label: `collector ${fixture.file}`,
    method: 'POST',
    path,
    headers,
    body,
  };
}

/** The web UI's sign-in form (not in the OpenAPI document). */
function webInput(rng: Rng, index: number): FuzzInput {
  const field = () => encode(hostileString(rng).slice(0, 5_000));
  return {
    index,
    label: 'POST /users/sign_in (form)',
    method: 'POST',
    path:
      rng() < 0.2 ? `/users/sign_in?redirect_to=${field()}` : '/users/sign_in',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: Buffer.from(
      `username=${field()}&password=${field()}&authenticity_token=${field()}`,
    ),
  };
}

/** Input `index` of the run seeded `seed`: the same pair always builds the same request. */
export function fuzzInput(
  seed: number,
  index: number,
  world: FuzzWorld,
): FuzzInput {
  const rng = seededRandom(seed * 7_919 + index);
  const roll = rng();
  if (roll < 0.3) return collectorInput(rng, world, index);
  if (roll < 0.35) return webInput(rng, index);
  return operationInput(rng, world, index);
}
