import { get, request } from 'node:http';
/**
 * What every fault scenario shares: its seed and size (both from the
 * environment, printed so that a failure can be replayed), the operator's
 * credentials the gateway starts with, and small helpers over `fetch`.
 */

/** FAULTS_SEED: the same seed replays the same run. */
export const SEED = Number(process.env['FAULTS_SEED'] ?? 20261125);

/** FAULTS_SCALE: 1 in CI; larger for the full-size run (`FAULTS_SCALE=10`). */
export const SCALE = Math.max(1, Number(process.env['FAULTS_SCALE'] ?? 1));

export const APP_KEY = 'kid_faultsApp000001';
export const APP_SECRET = 'faults-app-secret-0123456789';
export const MASTER_SECRET = 'faults-master-secret-0123456789';
export const ROOT_TOKEN = 'glpat-faults-root-token-0000000000';
export const WRITE_TOKEN = 'faults-events-write-token-0123';

export const MASTER_AUTH = `Basic ${Buffer.from(`${APP_KEY}:${MASTER_SECRET}`).toString('base64')}`;
export const APP_AUTH = `Basic ${Buffer.from(`${APP_KEY}:${APP_SECRET}`).toString('base64')}`;

/** The secrets an operator configures; none may ever reach a log line. */
export const SECRETS = [APP_SECRET, MASTER_SECRET, ROOT_TOKEN, WRITE_TOKEN];

/** Environment of every gateway the scenarios start (plus DATABASE_URL, DATA_DIR). */
export const GATEWAY_ENV: Record<string, string> = {
  MARKETPLACE_APP_KEY: APP_KEY,
  MARKETPLACE_APP_SECRET: APP_SECRET,
  MARKETPLACE_MASTER_SECRET: MASTER_SECRET,
  INITIAL_ROOT_TOKEN: ROOT_TOKEN,
  EVENTS_WRITE_TOKEN: WRITE_TOKEN,
  ERROR_TRACKING_RETENTION_INTERVAL_MINUTES: '0',
  MIGRATIONS: 'auto',
  DB_POOL_SIZE: '4',
};

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly ms: number;
}

/**
 * One request, timed; a network failure, or no answer within `timeoutMs`
 * (15 s: a hang fails the scenario quickly), is status 0, never thrown.
 */
export async function send(
  url: string,
  init: RequestInit & { json?: unknown; timeoutMs?: number } = {},
): Promise<Answer> {
  const started = performance.now();
  const headers = new Headers(init.headers);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(init.json);
  }
  try {
    const res = await fetch(url, {
      ...init,
      headers,
      body,
      signal: AbortSignal.timeout(init.timeoutMs ?? 15_000),
    });
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      text,
      ms: performance.now() - started,
    };
  } catch {
    return {
      status: 0,
      headers: new Headers(),
      text: '',
      ms: performance.now() - started,
    };
  }
}

/**
 * `GET /health/live` on a connection of its own: a pooled keep-alive
 * connection, reused late by this busy test process, may meet the
 * gateway's idle timeout on the way ("other side closed").
 */
export function probeLive(
  url: string,
): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = get(`${url}/health/live`, { agent: false }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          ms: performance.now() - started,
        }),
      );
    });
    req.setTimeout(15_000, () => req.destroy());
    req.on('error', () =>
      resolve({ status: 0, ms: performance.now() - started }),
    );
  });
}

/** Polls `check` until it holds or `ms` pass (conditions, never fixed sleeps). */
export async function waitFor(
  check: () => Promise<boolean>,
  ms: number,
  what: string,
): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < ms) {
    if (await check()) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}`);
}

/** A tracked error-tracking project and its public key. */
export async function trackedProject(
  url: string,
): Promise<{ id: number; publicKey: string }> {
  const headers = { 'private-token': ROOT_TOKEN };
  const project = await send(`${url}/api/v4/projects`, {
    method: 'POST',
    headers,
    json: { name: `faults-${Math.random().toString(36).slice(2, 10)}` },
  });
  const id = (JSON.parse(project.text) as { id: number }).id;
  await send(`${url}/api/v4/projects/${id}/error_tracking/settings`, {
    method: 'PUT',
    headers,
    json: { active: true, integrated: true },
  });
  const keys = await send(
    `${url}/api/v4/projects/${id}/error_tracking/client_keys`,
    { headers },
  );
  return {
    id,
    publicKey:
      (JSON.parse(keys.text) as Array<{ public_key: string }>)[0]?.public_key ??
      '',
  };
}

export function collectorUrl(
  url: string,
  project: { id: number; publicKey: string },
): string {
  return `${url}/api/v4/error_tracking/collector/api/${project.id}/store?sentry_key=${project.publicKey}`;
}

/** POSTs `body` on a connection of its own; its status (0: closed). */
export function postBody(
  url: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      new URL(path, url),
      {
        method: 'POST',
        agent: false,
        headers: { ...headers, 'content-length': String(body.length) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(body);
  });
}
