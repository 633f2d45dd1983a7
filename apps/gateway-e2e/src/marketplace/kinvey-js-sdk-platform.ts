import { init } from 'kinvey-js-sdk';

/**
 * kinvey-js-sdk 7 is the platform-free core: a platform package gives it
 * an HTTP adapter, a session store and a storage adapter. The HTML5 one of
 * its major was never published and kinvey-node-sdk stops at 3.x, so this
 * is that platform layer for Node, as small as the interfaces allow. The
 * SDK still builds every request itself; the adapter only moves the URL it
 * hard-codes (`https://baas.kinvey.com`) onto the gateway under test.
 */

interface SdkRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: unknown;
  readonly timeout?: number;
}

/** One request as it left the SDK: method and path with its query. */
export interface SentRequest {
  readonly method: string;
  readonly path: string;
}

type Entity = { _id?: string } & Record<string, unknown>;

const KINVEY_BAAS = 'https://baas.kinvey.com';

/** Node's fetch, for the requests the SDK builds. */
function httpAdapter(gatewayUrl: string, sent: SentRequest[]) {
  return {
    async send(request: SdkRequest) {
      const url = request.url.startsWith(KINVEY_BAAS)
        ? gatewayUrl + request.url.slice(KINVEY_BAAS.length)
        : request.url;
      const parsed = new URL(url);
      sent.push({
        method: request.method,
        path: `${parsed.pathname}${parsed.search}`,
      });
      const res = await fetch(url, {
        method: request.method,
        headers: request.headers,
        body: request.body as string | Buffer | undefined,
        signal: AbortSignal.timeout(request.timeout || 30_000),
      });
      const headers: Record<string, string> = {};
      res.headers.forEach((value, name) => (headers[name] = value));
      return { statusCode: res.status, headers, data: await res.text() };
    },
  };
}

/** Where a browser SDK keeps the active user: here, a map. */
function sessionStore() {
  const sessions = new Map<string, string>();
  return {
    get: async (key: string) => sessions.get(key) ?? null,
    async set(key: string, session: string) {
      sessions.set(key, session);
      return true;
    },
    remove: async (key: string) => sessions.delete(key),
  };
}

/** The offline cache of Cache and Sync stores: the HTML5 SDK's memory adapter. */
function memoryStorage() {
  const dbs = new Map<string, Map<string, Map<string, Entity>>>();
  const table = (db: string, collection: string) => {
    let tables = dbs.get(db);
    if (!tables) dbs.set(db, (tables = new Map()));
    let docs = tables.get(collection);
    if (!docs) tables.set(collection, (docs = new Map()));
    return docs;
  };
  const copy = <T>(value: T): T => structuredClone(value);
  return {
    find: async (db: string, coll: string) =>
      [...table(db, coll).values()].map(copy),
    count: async (db: string, coll: string) => table(db, coll).size,
    findById: async (db: string, coll: string, id: string) =>
      copy(table(db, coll).get(id)),
    async save(db: string, coll: string, docs: Entity[]) {
      for (const doc of docs) table(db, coll).set(doc._id as string, copy(doc));
      return docs;
    },
    removeById: async (db: string, coll: string, id: string) =>
      table(db, coll).delete(id) ? 1 : 0,
    async clear(db: string, coll: string) {
      table(db, coll).clear();
      return true;
    },
    async clearDatabase(db: string, exclude: string[] = []) {
      for (const [name, docs] of dbs.get(db) ?? new Map())
        if (!exclude.includes(name)) docs.clear();
      return true;
    },
  };
}

/**
 * Starts the SDK against the gateway for one app, as a Node app would with
 * only its app key and secret; `sent` lists every request it makes.
 */
export function initKinveySdk(
  gatewayUrl: string,
  app: { appKey: string; appSecret: string },
): { sent: SentRequest[] } {
  const sent: SentRequest[] = [];
  init({
    kinveyConfig: { appKey: app.appKey, appSecret: app.appSecret },
    httpAdapter: httpAdapter(gatewayUrl, sent),
    sessionStore: sessionStore(),
    storageAdapter: memoryStorage(),
    popup: undefined as never,
    pubnub: undefined,
  } as unknown as Parameters<typeof init>[0]);
  return { sent };
}
