import { existsSync } from 'node:fs';
import {
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  rm,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import request from 'supertest';

import { signedInAgent } from '../error-tracking/web-support';
import { basic } from '../marketplace/marketplace-support';
import { ROOT, runCli, serveEmbedded } from '../support/gateway-process';
import { startTestGateway } from '../support/test-gateway';
import type { TestGateway } from '../support/test-gateway';

// Each test runs the CLI from sources a few times (compiled on the fly).
jest.setTimeout(90_000);

describe('the operator CLI and the version (e2e)', () => {
  let gw: TestGateway;
  let env: Record<string, string>;
  let version: string;

  beforeAll(async () => {
    gw = await startTestGateway();
    env = { DATABASE_URL: gw.databaseUrl, DATA_DIR: gw.dataDir };
    ({ version } = JSON.parse(
      await readFile(join(ROOT, 'package.json'), 'utf8'),
    ));
  });

  afterAll(() => gw?.close());

  /** A marketplace app made by the CLI: its key and master secret. */
  async function createApp(name: string, definition?: string) {
    const created = await runCli(
      [
        'marketplace:apps:create',
        '--name',
        name,
        ...(definition ? ['--definition', definition] : []),
      ],
      env,
    );
    return JSON.parse(created.stdout) as {
      appKey: string;
      masterSecret: string;
    };
  }

  it('--version answers without opening (or creating) a database', async () => {
    const nowhere = join(tmpdir(), `quitanda-never-created-${process.pid}`);
    const run = await runCli(['--version'], { DATA_DIR: nowhere });
    expect(run).toEqual({
      code: 0,
      stderr: '',
      stdout: expect.stringMatching(
        new RegExp(
          `^quitanda ${version} \\(commit (unknown|[0-9a-f]{40})\\)\\n$`,
        ),
      ),
    });
    expect(existsSync(nowhere)).toBe(false);
  });

  it('--help prints the commands and exits 0', async () => {
    const run = await runCli(['--help'], env);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain('marketplace:apps:list');
  });

  it('prints an error once, to stderr, with a non-zero exit', async () => {
    const unknownOption = await runCli(
      ['marketplace:apps:list', '--bogus'],
      env,
    );
    expect(unknownOption).toMatchObject({ code: 1, stdout: '' });
    expect(unknownOption.stderr).toBe("error: unknown option '--bogus'\n");
    const failing = await runCli(['tokens:create', '--username', 'ghost'], env);
    expect(failing).toEqual({
      code: 1,
      stdout: '',
      stderr: 'No user named ghost.\n',
    });
  });

  it("says what is missing in plain words; the API keeps Kinvey's and GitLab's texts on the wire", async () => {
    const { appKey, masterSecret } = await createApp('Plain words');
    expect(
      await runCli(
        ['marketplace:collections:show', '--app', appKey, 'nosuch'],
        env,
      ),
    ).toEqual({
      code: 1,
      stdout: '',
      stderr: 'No collection nosuch in this app.\n',
    });
    expect(
      await runCli(
        ['marketplace:collections:list', '--app', 'kid_nosuchapp'],
        env,
      ),
    ).toEqual({ code: 1, stdout: '', stderr: 'No app kid_nosuchapp.\n' });

    const wire = await request(gw.url)
      .get(`/appdata/${appKey}/nosuch/_count`)
      .set('Authorization', basic(appKey, masterSecret));
    expect(wire.body).toMatchObject({
      error: 'CollectionNotFound',
      description: 'This collection not found for this app backend',
    });
    const { 'error-tracking': root } = JSON.parse(
      await readFile(join(gw.dataDir, 'initial-credentials.json'), 'utf8'),
    ) as { 'error-tracking': { root_token: string } };
    const gitlab = await request(gw.url)
      .post('/api/v4/users/999999/personal_access_tokens')
      .set('PRIVATE-TOKEN', root.root_token)
      .send({ name: 'ci', scopes: ['api'] });
    expect(gitlab.body).toEqual({ message: '404 User Not Found' });
  });

  it('takes a password from standard input, never from argv, and it signs in', async () => {
    const created = await runCli(
      [
        'users:create',
        '--username',
        'ops',
        '--email',
        'ops@example.com',
        '--password',
      ],
      env,
      'from standard input\n',
    );
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const inArgv = await runCli(
      ['users:set-password', '--username', 'ops', 'visible-in-ps'],
      env,
    );
    expect(inArgv.code).toBe(1);
    expect(inArgv.stderr).toContain('never from the command line');
    const set = await runCli(
      ['users:set-password', '--username', 'ops'],
      env,
      'a new password\n',
    );
    expect(set).toEqual({
      code: 0,
      stderr: '',
      stdout: 'Password of ops set.\n',
    });
    // signedInAgent expects the 303 of a successful sign-in.
    await signedInAgent(
      { ...gw, http: request(gw.url) } as never,
      'ops',
      'a new password',
    );
  });

  it('marketplace:import shows progress, reports rejections and is idempotent', async () => {
    const { appKey, masterSecret } = await createApp('Moving in', 'produce');
    const dir = await mkdtemp(join(tmpdir(), 'kinvey-export-'));
    try {
      await writeFile(
        join(dir, 'product.json'),
        JSON.stringify([
          {
            _id: '5f1e0c0ffee0000000000001',
            name: 'Caju',
            measurement: 'kg',
            _acl: { creator: 'kid_old' },
            _kmd: {
              ect: '2020-02-02T10:00:00.000Z',
              lmt: '2021-03-03T10:00:00.000Z',
            },
          },
          {
            _id: '5f1e0c0ffee0000000000002',
            name: 'Manga',
            measurement: 'box',
          },
        ]),
      );
      const first = await runCli(
        ['marketplace:import', '--app', appKey, dir],
        env,
      );
      expect(first.code).toBe(2);
      expect(first.stdout).toBe(
        'product.json\t1 imported\t0 already there\t1 rejected\n',
      );
      expect(first.stderr).toBe(
        'rejected product.json[1] _id 5f1e0c0ffee0000000000002: The request body has invalid values. (measurement must be un or kg)\n' +
          'product.json: 1 imported, 0 already there, 1 rejected\n',
      );
      const second = await runCli(
        ['marketplace:import', '--app', appKey, dir],
        env,
      );
      expect(second.stdout).toBe(
        'product.json\t0 imported\t1 already there\t1 rejected\n',
      );
      const record = await request(gw.url)
        .get(`/appdata/${appKey}/product/5f1e0c0ffee0000000000001`)
        .set('Authorization', basic(appKey, masterSecret));
      expect(record.status).toBe(200);
      expect(record.body._kmd).toEqual({
        ect: '2020-02-02T10:00:00.000Z',
        lmt: '2021-03-03T10:00:00.000Z',
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('serves GET /version and the quitanda_build_info metric', async () => {
    const res = await request(gw.url).get('/version').expect(200);
    expect(res.body).toEqual({
      version,
      commit: expect.stringMatching(/^(unknown|[0-9a-f]{40})$/),
    });
    const metrics = await request(gw.url).get('/metrics').expect(200);
    expect(metrics.text).toContain(
      `quitanda_build_info{version="${version}",commit="${res.body.commit}"} 1`,
    );
  });
});

describe('the operator CLI where DATA_DIR holds no database (e2e)', () => {
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'quitanda-cli-no-database-'));
  });

  afterAll(() => rm(work, { recursive: true, force: true }));

  const refusal = (dataDir: string) =>
    `No database in ${dataDir}: DATA_DIR is the folder of the embedded database, made by the gateway's first start ` +
    '(by default .data in the directory it starts from). Set DATA_DIR to that folder, or DATABASE_URL to use a PostgreSQL server.\n';

  it('refuses a command at once, naming the folder it looked in, and creates nothing', async () => {
    const missing = join(work, 'missing');
    expect(
      await runCli(['tokens:create', '--username', 'root'], {
        DATA_DIR: missing,
      }),
    ).toEqual({ code: 1, stdout: '', stderr: refusal(missing) });
    expect(existsSync(missing)).toBe(false);

    const empty = join(work, 'empty');
    await mkdir(empty);
    expect(
      await runCli(['marketplace:apps:list'], { DATA_DIR: empty }),
    ).toEqual({ code: 1, stdout: '', stderr: refusal(empty) });
    expect(await readdir(empty)).toEqual([]);
  });

  it('answers --help and an unknown command without opening or creating a database', async () => {
    const missing = join(work, 'help');
    const run = await runCli(['--help'], { DATA_DIR: missing });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain('tokens:create');
    expect(await runCli(['toknes:create'], { DATA_DIR: missing })).toEqual({
      code: 1,
      stdout: '',
      stderr:
        "error: unknown command 'toknes:create'\n(Did you mean tokens:create?)\n",
    });
    expect(existsSync(missing)).toBe(false);
  });

  it('names a database with no Quitanda tables and how to point at the right one', async () => {
    const stray = join(work, 'stray');
    const embedded = await serveEmbedded(stray);
    try {
      const run = await runCli(['tokens:create', '--username', 'root'], {
        DATA_DIR: stray,
      });
      expect(run).toMatchObject({ code: 1, stdout: '' });
      expect(run.stderr).toMatch(
        new RegExp(
          `^relation "error_tracking\\.\\w+" does not exist \\(the embedded database in ${stray} has no Quitanda tables: ` +
            'if it is not the gateway.s, set DATA_DIR to the gateway.s folder or DATABASE_URL to its server; ' +
            'a new database is set up by `npm run migrate`\\)\\n$',
        ),
      );
    } finally {
      await embedded.close();
    }
  });
});
