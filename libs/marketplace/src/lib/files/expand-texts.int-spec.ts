import { FixedClock } from '@quitanda/kernel';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';
import { Client } from 'pg';

import type { AppRecord } from '../apps/app.types';
import type { Principal } from '../auth/principal';
import type { KinveyDoc } from '../kinvey/kinvey-doc';
import type { MarketplaceModuleOptions } from '../common/marketplace.options';
import type { FileText, FilesRepository, StoredFile } from './files.repository';
import { FilesService } from './files.service';

const APP: AppRecord = {
  appKey: 'kid_expand',
  name: 'Expand',
  environmentName: 'Development',
  appSecretDigest: 'x',
  masterSecretDigest: 'y',
  appCredentialAccess: 'read-create',
  signingKey: 'signing-key-signing-key-signing-key',
  createdAt: new Date(0),
};
const MASTER: Principal = { kind: 'master', app: APP };

function file(id: string, isPublic: boolean): StoredFile {
  return {
    id,
    doc: { _id: id, _filename: `${id}.png`, _public: isPublic, _acl: {} },
    size: 4,
    storedBytes: 4,
    generation: 2,
    updatedAt: new Date(0),
  };
}

let FILES = [file('f1', true), file('f2', false), file('f "3', true)];

function asText(stored: StoredFile): FileText {
  return {
    id: stored.id,
    docText: JSON.stringify(stored.doc),
    generation: stored.generation,
    version: `${stored.generation}.${stored.updatedAt.getTime()}`,
    isPublic: stored.doc['_public'] === true,
  };
}
const ref = (id: string, type = 'KinveyFile') => ({ _type: type, _id: id });

function nested(depth: number, leaf: unknown): unknown {
  return depth === 0 ? leaf : { d: nested(depth - 1, leaf) };
}

/** Records with references everywhere the text path must read as `expand` does. */
const DOCS: KinveyDoc[] = [
  { _id: 'plain', name: 'no references', _acl: {}, _kmd: {} },
  { _id: 'top', image: ref('f1'), _acl: {}, _kmd: {} },
  {
    _id: 'lists',
    products: [
      { name: 'a', image: ref('f2') },
      { name: 'b', image: ref('f1', 'ServiceFile') },
      { name: 'c', image: ref('gone') },
    ],
    again: ref('f1'),
  },
  { _id: 'quoted id', image: ref('f "3'), 'key "with" quotes': ref('f2') },
  {
    _id: 'look-alike text',
    note: '{"_id": "f1", "_type": "KinveyFile"}',
    'x"_type': 'KinveyFile',
  },
  { _id: 'extra keys', image: { ...ref('f1'), caption: 'kept?' } },
  { _id: 'f1', _type: 'KinveyFile', name: 'a record shaped as a reference' },
  { _id: 'not a string id', image: { _type: 'KinveyFile', _id: 7 } },
  { _id: 'deep', shallow: nested(7, ref('f1')), deep: nested(8, ref('f2')) },
];

describe('FilesService.expandTexts: the JSON-text path of a listing', () => {
  const clock = new FixedClock(new Date('2026-11-25T00:00:00Z'));
  let database: TestDatabase;
  let client: Client;
  let service: FilesService;
  let texts: string[];

  beforeAll(async () => {
    database = await openTestDatabase();
    client = new Client({ connectionString: database.url });
    await client.connect();
    // As the listing reads them: PostgreSQL's own rendering of the stored jsonb.
    const { rows } = await client.query<{ text: string }>(
      'SELECT value::text AS text FROM jsonb_array_elements($1::jsonb)',
      [JSON.stringify(DOCS)],
    );
    texts = rows.map((row) => row.text);
    const repository = {
      findMany: async (_app: string, ids: readonly string[]) =>
        FILES.filter((f) => ids.includes(f.id)),
      findManyTexts: async (_app: string, ids: readonly string[]) =>
        FILES.filter((f) => ids.includes(f.id)).map(asText),
    } as unknown as FilesRepository;
    service = new FilesService(
      repository,
      clock,
      {} as MarketplaceModuleOptions,
    );
  });

  afterAll(async () => {
    await client?.end();
    await database?.close();
  });

  it('gives the same records as parsing and expanding each document', async () => {
    const text = await service.expandTexts(MASTER, texts, 'http://x', 3600);
    const expected = await service.expand(
      MASTER,
      texts.map((t) => JSON.parse(t) as KinveyDoc),
      'http://x',
      3600,
    );
    expect(JSON.parse(text)).toEqual(expected);
    // Expanded where expected, so the comparison is not between two no-ops.
    expect(text.match(/_downloadURL/g)?.length).toBeGreaterThanOrEqual(7);
  });

  it('writes records without references as PostgreSQL rendered them', async () => {
    const plain = texts.slice(0, 1);
    await expect(
      service.expandTexts(MASTER, plain, 'http://x', 3600),
    ).resolves.toBe(`[${plain[0]}]`);
  });

  it('shows a public file as it is now after a replacement, and private URLs as of now', async () => {
    const listing = [texts[2] as string];
    const before = JSON.parse(
      await service.expandTexts(MASTER, listing, 'http://x', 3600),
    ) as Array<{ products: Array<{ image: KinveyDoc }> }>;
    const replaced = file('f1', true);
    FILES = FILES.map((f) =>
      f.id === 'f1'
        ? {
            ...replaced,
            doc: { ...replaced.doc, _filename: 'new.png' },
            generation: 3,
            updatedAt: new Date(1),
          }
        : f,
    );
    clock.advance(60_000);
    const after = JSON.parse(
      await service.expandTexts(MASTER, listing, 'http://x', 3600),
    ) as Array<{ products: Array<{ image: KinveyDoc }> }>;
    const [publicBefore, publicAfter] = [before, after].map(
      (list) => list[0]?.products[1]?.image,
    );
    expect(publicBefore?.['_filename']).toBe('f1.png');
    expect(publicAfter?.['_filename']).toBe('new.png');
    expect(publicAfter?.['_downloadURL']).not.toEqual(
      publicBefore?.['_downloadURL'],
    );
    const [privateBefore, privateAfter] = [before, after].map(
      (list) => list[0]?.products[0]?.image,
    );
    expect(privateAfter?.['_expiresAt']).not.toEqual(
      privateBefore?.['_expiresAt'],
    );
  });
});
