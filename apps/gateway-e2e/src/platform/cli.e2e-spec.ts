import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import request from 'supertest';

import { signedInAgent } from '../error-tracking/web-support';
import { basic } from '../marketplace/marketplace-support';
import { ROOT, runCli } from '../support/gateway-process';
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
      stderr: '404 User Not Found\n',
    });
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
    const created = await runCli(
      [
        'marketplace:apps:create',
        '--name',
        'Moving in',
        '--definition',
        'produce',
      ],
      env,
    );
    const { appKey, masterSecret } = JSON.parse(created.stdout) as {
      appKey: string;
      masterSecret: string;
    };
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
