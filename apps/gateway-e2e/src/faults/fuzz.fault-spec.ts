import { Agent, request } from 'node:http';

import { loadSentryFixtures } from '@quitanda/testing';

import { fuzzInput } from './support/fuzz-inputs';
import type { FuzzInput, FuzzWorld } from './support/fuzz-inputs';
import { peakRssMb, startGatewayProcess } from './support/gateway-process';
import type { GatewayProcess } from './support/gateway-process';
import { operationsOf } from './support/openapi-operations';
import type { OpenApiDocument } from './support/openapi-operations';
import { startFaultCluster } from './support/fault-cluster';
import type { FaultCluster } from './support/fault-cluster';
import {
  APP_AUTH,
  APP_KEY,
  collectorUrl,
  GATEWAY_ENV,
  MASTER_AUTH,
  ROOT_TOKEN,
  SCALE,
  SECRETS,
  SEED,
  send,
  trackedProject,
  WRITE_TOKEN,
} from './support/scenario';

/** 400 inputs in CI; FAULTS_SCALE=10: 4,000. */
const INPUTS = 400 * SCALE;
const CONCURRENCY = 4;
/** FAULTS_REPLAY=<index>: send that one input only, and print it. */
const REPLAY = process.env['FAULTS_REPLAY'];
/** The contract's ceiling on the gateway's resident memory, under any load. */
const RSS_LIMIT_MB = 300;

interface Outcome {
  readonly input: FuzzInput;
  readonly status: number;
  readonly body: string;
  readonly error?: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function deliver(baseUrl: string, input: FuzzInput): Promise<Outcome> {
  const url = new URL(input.path, baseUrl);
  return new Promise((resolve) => {
    let req: ReturnType<typeof request>;
    try {
      req = request(
        url,
        {
          method: input.method,
          agent,
          timeout: 30_000,
          headers: {
            ...input.headers,
            ...(input.body
              ? { 'content-length': String(input.body.length) }
              : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              input,
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8').slice(0, 2_000),
            }),
          );
        },
      );
    } catch (error) {
      // Node refuses to send it (a header it cannot encode): not the gateway's.
      resolve({ input, status: -1, body: '', error: (error as Error).message });
      return;
    }
    req.on('timeout', () => req.destroy(new Error('no answer in 30 s')));
    req.on('error', (error) =>
      resolve({ input, status: 0, body: '', error: error.message }),
    );
    req.end(input.body);
  });
}

/**
 * Seeded fuzzing of every documented operation (path parameters, query
 * parameters, bodies, credentials), the web sign-in form and the collector
 * (mutated real SDK requests from fixtures/sentry): NUL, deep nesting, huge
 * strings, invalid UTF-8, prototype keys, decompression bombs. Never a 5xx,
 * never a hang; the gateway stays ready; no secret reaches its log (at
 * debug level); its memory stays under the contract's ceiling.
 */
describe('seeded fuzz (fault)', () => {
  let cluster: FaultCluster;
  let gw: GatewayProcess;
  let world: FuzzWorld;
  const secrets = new Set(SECRETS);

  beforeAll(async () => {
    cluster = await startFaultCluster('fuzz');
    gw = await startGatewayProcess({
      ...GATEWAY_ENV,
      DATABASE_URL: cluster.databaseUrl,
      DATA_DIR: cluster.dataDir,
      LOG_LEVEL: 'debug',
    });
    world = await buildWorld(gw.url);
  });

  afterAll(async () => {
    gw?.kill('SIGKILL');
    await gw?.exited;
    agent.destroy();
    await cluster?.destroy();
  });

  /** The ids and credentials the inputs start from, made through the API. */
  async function buildWorld(url: string): Promise<FuzzWorld> {
    const project = await trackedProject(url);
    await cluster.pg.query(
      'fuzz',
      `INSERT INTO error_tracking.projects (id, name, path, created_at, tracking_active)
       VALUES (4242, 'fixtures', 'fixtures', now(), true)`,
    );
    await cluster.pg.query(
      'fuzz',
      `INSERT INTO error_tracking.client_keys (project_id, public_key, created_at)
       VALUES (4242, 'glet_00000000000000000000000000000000', now())`,
    );
    const json = async (answer: Promise<{ text: string }>) =>
      JSON.parse((await answer).text) as Record<string, unknown>;
    const root = { 'private-token': ROOT_TOKEN };
    const event = await json(
      send(`${url}/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${WRITE_TOKEN}` },
        json: { title: 'fuzz' },
      }),
    );
    const password = 'fuzz user password 0123';
    secrets.add(password);
    const user = await json(
      send(`${url}/user/${APP_KEY}`, {
        method: 'POST',
        headers: { authorization: APP_AUTH },
        json: { username: 'fuzzer', password },
      }),
    );
    const userToken = String(
      (user['_kmd'] as Record<string, unknown>)['authtoken'],
    );
    secrets.add(userToken);
    const product = await json(
      send(`${url}/appdata/${APP_KEY}/product`, {
        method: 'POST',
        headers: { authorization: MASTER_AUTH },
        json: { name: 'fuzz product', measurement: 'un' },
      }),
    );
    const issue = await json(
      send(`${url}/api/v4/projects/${project.id}/issues`, {
        method: 'POST',
        headers: root,
        json: { title: 'fuzz issue' },
      }),
    );
    await send(collectorUrl(url, project), {
      method: 'POST',
      json: { message: 'fuzz error' },
    });
    const errors = (
      JSON.parse(
        (
          await send(
            `${url}/api/v4/projects/${project.id}/error_tracking/errors`,
            {
              headers: root,
            },
          )
        ).text,
      ) as Array<{ id: number }>
    ).map((e) => String(e.id));
    const me = await json(send(`${url}/api/v4/user`, { headers: root }));
    // A second GitLab user with a personal access token, used on its own
    // endpoints: both its password and its token are secrets to look for.
    const gitlabPassword = 'fuzz gitlab password 0123';
    secrets.add(gitlabPassword);
    const gitlabUser = await json(
      send(`${url}/api/v4/users`, {
        method: 'POST',
        headers: root,
        json: {
          username: 'fuzzer',
          name: 'Fuzzer',
          email: 'fuzzer@example.com',
          password: gitlabPassword,
        },
      }),
    );
    const pat = String(
      (
        await json(
          send(
            `${url}/api/v4/users/${String(gitlabUser['id'])}/personal_access_tokens`,
            {
              method: 'POST',
              headers: root,
              json: { name: 'fuzz', scopes: ['api'] },
            },
          ),
        )
      )['token'],
    );
    if (!pat.startsWith('glpat-'))
      throw new Error(`no personal access token: ${pat}`);
    secrets.add(pat);
    const document = (await (
      await fetch(`${url}/openapi.json`)
    ).json()) as OpenApiDocument;
    const ids: Record<string, string[]> = {
      appKey: [APP_KEY],
      collection: ['product', 'assortment', 'availableAssortment', 'nope'],
      username: ['fuzzer'],
      projectId: [String(project.id), '4242'],
      user_id: [String(me['id'])],
      error_id: errors,
      iid: [String(issue['iid'])],
      key_id: ['1'],
      event_id: ['fc6d8c0c43fc4630ad850ee518f1b9d0'],
      'id:/appdata/{appKey}/{collection}': [String(product['_id'])],
      'id:/user/{appKey}/{id}': [String(user['_id'])],
      'id:/events/{id}': [String(event['id'])],
      'id:/api/v4/projects': [String(project.id)],
    };
    return {
      operations: operationsOf(document),
      fixtures: loadSentryFixtures(),
      ids,
      auth(path): Record<string, string> {
        if (/^\/(appdata|blob|rpc)\//.test(path))
          return { authorization: `Kinvey ${userToken}` };
        if (path.startsWith('/user/')) return { authorization: MASTER_AUTH };
        if (path.startsWith('/events'))
          return { authorization: `Bearer ${WRITE_TOKEN}` };
        if (path.includes('/collector/')) return {};
        if (/^\/api\/v4\/(user|personal_access_tokens)/.test(path))
          return { 'private-token': pat };
        return root;
      },
    };
  }

  it(`answers every input without a 5xx or a hang (seed ${SEED})`, async () => {
    const indexes =
      REPLAY !== undefined
        ? [Number(REPLAY)]
        : Array.from({ length: INPUTS }, (_, i) => i);
    const outcomes: Outcome[] = [];
    let position = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (position < indexes.length) {
          const index = indexes[position++] as number;
          const outcome = await deliver(gw.url, fuzzInput(SEED, index, world));
          outcomes.push(outcome);
          // Tokens the fuzzer made for itself are secrets too.
          for (const match of outcome.body.matchAll(
            /"(?:token|authtoken)":"([^"]+)"/g,
          ))
            if (match[1]) secrets.add(match[1]);
        }
      }),
    );
    if (REPLAY !== undefined) {
      const [only] = outcomes;
      console.log(
        `replay of input ${REPLAY} (seed ${SEED}): ${only?.input.method} ${only?.input.path.slice(0, 300)}\n` +
          `headers ${JSON.stringify(only?.input.headers)}\nbody ${only?.input.body?.subarray(0, 500).toString('utf8')}\n` +
          `-> ${only?.status} ${only?.body.slice(0, 500)} ${only?.error ?? ''}`,
      );
    }
    const failures = outcomes
      .filter((o) => o.status >= 500 || o.status === 0)
      .map((o) => ({
        index: o.input.index,
        input: o.input.label,
        status: o.status,
        replay: `FAULTS_SEED=${SEED} FAULTS_REPLAY=${o.input.index} npm run test:faults -- fuzz`,
        answer: o.error ?? o.body.slice(0, 200),
      }));
    const statuses = new Map<number, number>();
    for (const o of outcomes)
      statuses.set(o.status, (statuses.get(o.status) ?? 0) + 1);
    const rss = await peakRssMb(await gw.servingPid());
    console.log(
      `fuzz: seed ${SEED}, ${outcomes.length} inputs over ${world.operations.length} operations, ` +
        `the web form and ${world.fixtures.length} SDK fixtures; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}; ` +
        `gateway peak RSS ${Math.round(rss)} MB`,
    );
    if (failures.length > 0)
      console.log(
        gw.lines
          .filter((line) => Number(line['level']) >= 50)
          .map((line) => JSON.stringify(line).slice(0, 1_500))
          .join('\n'),
      );
    expect(failures).toEqual([]);
    expect(outcomes.filter((o) => o.status === -1).length).toBeLessThan(
      outcomes.length / 10,
    );
    expect((await send(`${gw.url}/health/ready`)).status).toBe(200);
    expect(rss).toBeLessThan(RSS_LIMIT_MB);
  });

  it('logged no secret (every line, at debug level)', () => {
    const log = gw.output();
    expect(log.length).toBeGreaterThan(0);
    const leaked = [...secrets].filter((secret) => log.includes(secret));
    console.log(
      `secrets: ${secrets.size} values checked in ${log.length} bytes of log`,
    );
    expect(leaked).toEqual([]);
  });
});
