import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { finished } from 'node:stream/promises';

import type { TestingModule } from '@nestjs/testing';
import { verifyPassword } from '@quitanda/kernel';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import {
  TEST_OPTIONS,
  marketplaceTestModule,
  sqlOf,
} from '../../testing/marketplace-test-module';
import { CollectionsService } from '../app-collections/collections.service';
import { AppsService } from '../apps/apps.service';
import { SetPasswordCommand } from '../cli/marketplace-cli.commands';
import { RecordsRepository } from '../records/records.repository';
import { CredentialsRepository } from '../auth/credentials.repository';
import { MarketplaceCliModule } from '../marketplace.module';
import { FilesRepository } from '../files/files.repository';
import { UsersRepository } from '../users/users.repository';
import { KinveyImportService, NO_PASSWORD } from './kinvey-import.service';
import type { ImportCounts } from './kinvey-import.service';

const USERS = 300;
const PRODUCTS = 6000;
const OFFERS = 4000;

/** A Kinvey-style ObjectId: 24 hex characters. */
function oid(kind: number, n: number): string {
  return `${kind.toString(16).padStart(4, '0')}${n.toString(16).padStart(20, '0')}`;
}

function kmd(n: number) {
  const ect = new Date(Date.UTC(2021, 0, 1) + n * 60_000).toISOString();
  const lmt = new Date(Date.UTC(2022, 5, 1) + n * 60_000).toISOString();
  return { ect, lmt, authtoken: 'never-imported' };
}

/** Writes a JSON array one element at a time, as an exporter would. */
async function writeArray(path: string, items: Iterable<unknown>) {
  const out = createWriteStream(path);
  out.write('[\n');
  let first = true;
  for (const item of items) {
    if (!out.write(`${first ? '' : ',\n'}${JSON.stringify(item)}`))
      await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    first = false;
  }
  out.end('\n]\n');
  await finished(out);
}

describe('importing a Kinvey export (marketplace:import)', () => {
  let database: TestDatabase;
  let module: TestingModule;
  let dir: string;
  let appKey: string;
  const photo = randomBytes(300_000);

  beforeAll(async () => {
    database = await openTestDatabase();
    // The import and set-password commands, wired as the CLI wires them.
    module = await marketplaceTestModule(database.url, {
      imports: [MarketplaceCliModule.forRoot(TEST_OPTIONS)],
    });
    appKey = (
      await module
        .get(AppsService)
        .create({ name: 'Feira', definition: 'produce' })
    ).appKey;
    dir = await mkdtemp(join(tmpdir(), 'kinvey-export-'));

    function* users() {
      for (let n = 0; n < USERS; n++)
        yield {
          _id: oid(1, n),
          username: `produtor${n}`,
          first_name: `Nome ${n}`,
          phone1: '81999990000',
          city: 'Recife',
          _acl: { creator: oid(1, n) },
          _kmd: kmd(n),
        };
      yield { _id: oid(1, 90_000), first_name: 'no username', _kmd: kmd(1) };
      yield { _id: oid(1, 90_001), username: 'bad-phone', phone1: 'call me' };
      // An old Kinvey app's key: the creator its master-written records name.
      yield { _id: 'kid_OldKinveyApp01', username: 'squatter' };
    }
    await writeArray(join(dir, 'user.json'), users());

    await mkdir(join(dir, '_blob'));
    await writeFile(join(dir, '_blob', oid(2, 1)), photo);
    await writeArray(join(dir, '_blob.json'), [
      {
        _id: oid(2, 1),
        _filename: 'caju.jpg',
        mimeType: 'image/jpeg',
        size: photo.length,
        _public: true,
        _acl: { creator: oid(1, 0) },
        _kmd: kmd(2),
        _downloadURL: 'https://storage.googleapis.com/old-kinvey/caju.jpg',
      },
      { _id: oid(2, 2), _filename: 'lost.jpg', _kmd: kmd(3) },
    ]);

    function* products() {
      for (let n = 0; n < PRODUCTS; n++)
        yield {
          _id: oid(3, n),
          name: `Produto ${n}`,
          measurement: n % 2 ? 'kg' : 'un',
          ...(n === 0
            ? {
                image: {
                  _type: 'KinveyFile',
                  _id: oid(2, 1),
                  _downloadURL: 'https://storage.googleapis.com/x',
                },
              }
            : {}),
          _acl: { creator: oid(1, n % USERS), gr: true },
          _kmd: kmd(n),
        };
      yield { _id: oid(3, 90_000), measurement: 'kg', _kmd: kmd(1) };
      yield { _id: oid(3, 90_001), name: 'Produto 7', measurement: 'kg' };
      yield {
        _id: oid(3, 90_002),
        name: 'Sem arquivo',
        measurement: 'un',
        image: { _type: 'KinveyFile', _id: oid(2, 99) },
      };
      yield 'not an object';
    }
    await writeArray(join(dir, 'product.json'), products());

    function* offers() {
      for (let n = 0; n < OFFERS; n++)
        yield {
          _id: oid(4, n),
          id_producer: oid(1, n % USERS),
          products: [
            {
              name: `Produto ${n}`,
              measurement: 'kg',
              quantity: 10,
              price: '4,50',
            },
          ],
          canceled: false,
          _acl: { creator: oid(1, n % USERS), r: [oid(1, 1)] },
          _kmd: kmd(n),
        };
      yield {
        _id: oid(4, 90_000),
        id_producer: oid(1, 99_999),
        products: [
          { name: 'Produto 1', measurement: 'un', quantity: '1', price: '1' },
        ],
      };
    }
    await writeArray(join(dir, 'availableAssortment.json'), offers());
  }, 60_000);

  afterAll(async () => {
    await module?.close();
    await database?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function runImport() {
    const rejected: string[] = [];
    const batches: Array<[string, ImportCounts]> = [];
    const report = await module
      .get(KinveyImportService)
      .importDirectory(appKey, dir, {
        progress: (file, counts) => batches.push([file, { ...counts }]),
        rejected: (file, index, id, reason) =>
          rejected.push(`${file}[${index}] ${String(id)}: ${reason}`),
      });
    return { report, rejected, batches };
  }

  /** What the import may change: every row of the app, as text. */
  async function state(): Promise<string> {
    const rows = await sqlOf(module).rows<{ s: string }>(
      `SELECT string_agg(x, E'\\n' ORDER BY x) AS s FROM (
         SELECT r::text AS x FROM marketplace.records r WHERE app_key = $1
         UNION ALL SELECT u::text FROM marketplace.users u WHERE app_key = $1
         UNION ALL SELECT f::text FROM marketplace.files f WHERE app_key = $1
         UNION ALL SELECT md5(c.data) || c."offset" FROM marketplace.file_chunks c WHERE app_key = $1) t`,
      [appKey],
    );
    return rows[0]?.s ?? '';
  }

  it('imports 10,000+ records with their ids, _acl, timestamps and files, reporting every rejection', async () => {
    const { report, rejected, batches } = await runImport();
    expect(report).toEqual({
      'user.json': { imported: USERS, unchanged: 0, rejected: 3 },
      '_blob.json': { imported: 1, unchanged: 0, rejected: 1 },
      'product.json': { imported: PRODUCTS, unchanged: 0, rejected: 4 },
      'availableAssortment.json': {
        imported: OFFERS,
        unchanged: 0,
        rejected: 1,
      },
    });
    // Progress after every batch of at most 1,000.
    expect(batches.filter(([file]) => file === 'product.json')).toHaveLength(7);
    expect(rejected).toEqual([
      expect.stringMatching(
        /^user\.json\[300\] 000100000000000000015f90: .*username is required/,
      ),
      expect.stringMatching(
        /^user\.json\[301\] .*phone1 must contain digits only/,
      ),
      expect.stringMatching(
        /^user\.json\[302\] kid_OldKinveyApp01: .*reserved/,
      ),
      `_blob.json[1] ${oid(2, 2)}: no bytes in _blob/${oid(2, 2)}`,
      expect.stringMatching(/^product\.json\[6000\] .*name is required/),
      expect.stringMatching(
        /^product\.json\[6001\] .*A product with this name already exists/,
      ),
      expect.stringMatching(
        /^product\.json\[6002\] .*references files that do not exist.*000200000000000000000063/,
      ),
      'product.json[6003] undefined: not a JSON object',
      expect.stringMatching(
        /^availableAssortment\.json\[4000\] .*is not a user of this app/,
      ),
    ]);

    const records = module.get(RecordsRepository);
    const product = await records.find({
      appKey,
      collection: 'product',
      id: oid(3, 0),
    });
    expect(product).toEqual({
      _id: oid(3, 0),
      name: 'Produto 0',
      measurement: 'un',
      image: { _type: 'KinveyFile', _id: oid(2, 1) },
      _acl: { creator: oid(1, 0), gr: true },
      _kmd: { ect: kmd(0).ect, lmt: kmd(0).lmt },
    });
    const offer = await records.find({
      appKey,
      collection: 'availableAssortment',
      id: oid(4, 3999),
    });
    expect(offer).toMatchObject({
      id_producer: oid(1, 3999 % USERS),
      // Normalised as the API does: numbers of text fields become text.
      products: [{ name: 'Produto 3999', quantity: '10', price: '4,50' }],
      canceled: 'false',
      _acl: { creator: oid(1, 3999 % USERS), r: [oid(1, 1)] },
      _kmd: { ect: kmd(3999).ect, lmt: kmd(3999).lmt },
    });

    const user = await module.get(UsersRepository).findById(appKey, oid(1, 7));
    expect(user).toMatchObject({
      username: 'produtor7',
      passwordHash: NO_PASSWORD,
      doc: {
        _id: oid(1, 7),
        username: 'produtor7',
        first_name: 'Nome 7',
        city: 'Recife',
        _acl: { creator: oid(1, 7) },
        _kmd: { ect: kmd(7).ect, lmt: kmd(7).lmt },
      },
    });
    expect(user?.doc['_kmd']).not.toHaveProperty('authtoken');

    const files = module.get(FilesRepository);
    const file = await files.find(appKey, oid(2, 1));
    expect(file).toMatchObject({
      size: photo.length,
      storedBytes: photo.length,
    });
    expect(file?.doc).not.toHaveProperty('_downloadURL');
    const bytes = await files.read(appKey, oid(2, 1), 0, photo.length - 1);
    expect(Buffer.compare(bytes, photo)).toBe(0);
  }, 180_000);

  it('changes nothing when run again', async () => {
    await runImport();
    const before = await state();
    const { report, rejected } = await runImport();
    expect(report).toEqual({
      'user.json': { imported: 0, unchanged: USERS, rejected: 3 },
      '_blob.json': { imported: 0, unchanged: 1, rejected: 1 },
      'product.json': { imported: 0, unchanged: PRODUCTS, rejected: 4 },
      'availableAssortment.json': {
        imported: 0,
        unchanged: OFFERS,
        rejected: 1,
      },
    });
    expect(rejected).toHaveLength(9);
    expect(await state()).toBe(before);
  }, 180_000);

  it('gives an imported user a password from standard input (marketplace:set-password)', async () => {
    await runImport();
    const input = new PassThrough();
    input.end('nova senha forte\n');
    jest.spyOn(process, 'stdin', 'get').mockReturnValue(input as never);
    jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      await module
        .get(SetPasswordCommand)
        .run([], { app: appKey, username: 'produtor9' });
    } finally {
      jest.restoreAllMocks();
    }
    const user = await module
      .get(CredentialsRepository)
      .findByUsername(appKey, 'produtor9');
    expect(
      await verifyPassword('nova senha forte', String(user?.passwordHash)),
    ).toBe(true);
    await expect(
      module
        .get(SetPasswordCommand)
        .run(['in-argv'], { app: appKey, username: 'produtor9' }),
    ).rejects.toThrow(/never from the command line/);
  });

  it('declares the collections it finds in an app without them, and keeps those declared', async () => {
    const quiet = { progress: () => undefined, rejected: () => undefined };
    const apps = module.get(AppsService);
    const bare = (await apps.create({ name: 'Bare', definition: null })).appKey;
    const moving = await mkdtemp(join(tmpdir(), 'kinvey-export-'));
    try {
      await writeFile(
        join(moving, 'notes.json'),
        JSON.stringify([
          { _id: 'n1', text: 'hi' },
          { _id: 'n2', text: 3 },
        ]),
      );
      const report = await module
        .get(KinveyImportService)
        .importDirectory(bare, moving, quiet);
      expect(report).toEqual({
        'notes.json': { imported: 2, unchanged: 0, rejected: 0 },
      });
      const collections = module.get(CollectionsService);
      await expect(collections.list(bare)).resolves.toEqual([
        { name: 'notes', settings: {} },
      ]);
      // A declared collection keeps its rules: the import follows them.
      await collections.update(bare, 'notes', {
        schema: { properties: { text: { type: 'string', pattern: '^h' } } },
      });
      await writeFile(
        join(moving, 'notes.json'),
        JSON.stringify([
          { _id: 'n3', text: 'hello' },
          { _id: 'n4', text: 'bye' },
        ]),
      );
      const again = await module
        .get(KinveyImportService)
        .importDirectory(bare, moving, quiet);
      expect(again['notes.json']).toEqual({
        imported: 1,
        unchanged: 0,
        rejected: 1,
      });
    } finally {
      await rm(moving, { recursive: true, force: true });
    }
  });
});
