import { Client } from 'pg';

import {
  APP_AUTH,
  APP_KEY,
  MASTER_AUTH,
  kinveyError,
  startMarketplace,
} from './marketplace-support';
import type { MarketplaceTest } from './marketplace-support';

/** What an upload URL lets its holder do, and what file metadata may say. */
describe('file uploads (e2e)', () => {
  let t: MarketplaceTest;

  beforeAll(async () => {
    t = await startMarketplace();
  });

  afterAll(() => t?.gw.close());

  /** A new file's upload path (path and query of `_uploadURL`). */
  async function newUpload(
    extra: Record<string, unknown> = {},
  ): Promise<{ id: string; path: string }> {
    const file = await t.http
      .post(`/blob/${APP_KEY}`)
      .set('Authorization', APP_AUTH)
      .send({ _filename: 'a.txt', mimeType: 'text/plain', ...extra })
      .expect(201);
    const url = new URL(file.body._uploadURL);
    return { id: file.body._id, path: `${url.pathname}${url.search}` };
  }

  const putChunk = (path: string, range: string, bytes: string) =>
    t.http.put(path).set('Content-Range', range).send(Buffer.from(bytes));

  async function bytesOf(id: string): Promise<string> {
    const meta = await t.http
      .get(`/blob/${APP_KEY}/${id}`)
      .set('Authorization', APP_AUTH)
      .expect(200);
    const url = new URL(meta.body._downloadURL);
    return (await t.http.get(`${url.pathname}${url.search}`).expect(200)).text;
  }

  describe('an upload URL is spent once its upload is complete', () => {
    it('refuses a second whole-body PUT and keeps the bytes', async () => {
      const { id, path } = await newUpload({ size: 4 });
      await t.http.put(path).send(Buffer.from('1234')).expect(201);
      const again = await t.http
        .put(path)
        .send(Buffer.from('evil'))
        .expect(401);
      expect(again.body).toEqual(kinveyError('InsufficientCredentials'));
      await expect(bytesOf(id)).resolves.toBe('1234');
    });

    it('refuses a whole-body PUT after an upload of undeclared size', async () => {
      const { id, path } = await newUpload();
      await t.http.put(path).send(Buffer.from('first')).expect(201);
      await t.http.put(path).send(Buffer.from('second')).expect(401);
      await expect(bytesOf(id)).resolves.toBe('first');
    });

    it('takes chunks until complete, then answers probes and refuses chunks', async () => {
      const { id, path } = await newUpload({ size: 4 });
      await putChunk(path, 'bytes 0-1/4', '12').expect(308);
      await putChunk(path, 'bytes 2-3/4', '34').expect(201);
      await t.http.put(path).set('Content-Range', 'bytes */4').expect(200);
      await putChunk(path, 'bytes 2-3/4', 'xx').expect(401);
      await putChunk(path, 'bytes 0-3/4', 'evil').expect(401);
      await expect(bytesOf(id)).resolves.toBe('1234');
    });

    it('lets one of two concurrent whole-body PUTs win', async () => {
      const { id, path } = await newUpload({ size: 4 });
      const statuses = await Promise.all(
        ['aaaa', 'bbbb'].map(
          async (body) =>
            (await t.http.put(path).send(Buffer.from(body))).status,
        ),
      );
      expect(statuses.sort()).toEqual([201, 401]);
      await expect(bytesOf(id)).resolves.toMatch(/^(aaaa|bbbb)$/);
    });

    it('gives a replaced file a new upload URL and spends the old one', async () => {
      const { id, path } = await newUpload({ size: 4 });
      await t.http.put(path).send(Buffer.from('1234')).expect(201);
      const replaced = await t.http
        .put(`/blob/${APP_KEY}/${id}`)
        .set('Authorization', MASTER_AUTH)
        .send({ _filename: 'a.txt', mimeType: 'text/plain', size: 4 })
        .expect(201);
      await t.http.put(path).send(Buffer.from('evil')).expect(404);
      const url = new URL(replaced.body._uploadURL);
      await t.http
        .put(`${url.pathname}${url.search}`)
        .send(Buffer.from('5678'))
        .expect(201);
      await expect(bytesOf(id)).resolves.toBe('5678');
    });
  });

  describe('file metadata', () => {
    it.each([
      ['CR/LF', 'text/plain\r\nSet-Cookie: a=b'],
      ['a control character', 'text/plain\u001b[31m'],
      ['no subtype', 'text'],
      ['absurd length', `image/${'x'.repeat(300)}`],
    ])(
      'refuses a mimeType with %s (400) and stores nothing',
      async (_, mimeType) => {
        const id = `bad-mime-${Math.random().toString(36).slice(2)}`;
        const res = await t.http
          .post(`/blob/${APP_KEY}`)
          .set('Authorization', APP_AUTH)
          .send({ _id: id, _filename: 'a.txt', mimeType, size: 1 })
          .expect(400);
        expect(res.body).toEqual(kinveyError('BadRequest'));
        expect(res.body.debug).toBe('mimeType');
        await t.http
          .get(`/blob/${APP_KEY}/${id}`)
          .set('Authorization', APP_AUTH)
          .expect(404);
      },
    );

    it('refuses a bad mimeType on replacement and keeps the file as it was', async () => {
      const { id, path } = await newUpload({ size: 2 });
      await t.http.put(path).send(Buffer.from('ok')).expect(201);
      await t.http
        .put(`/blob/${APP_KEY}/${id}`)
        .set('Authorization', MASTER_AUTH)
        .send({ _filename: 'a.txt', mimeType: 'text/html\nX: y' })
        .expect(400);
      await expect(bytesOf(id)).resolves.toBe('ok');
    });

    it('sends a broken mimeType stored earlier as plain bytes, not a 500', async () => {
      const { id, path } = await newUpload({ size: 2 });
      await t.http.put(path).send(Buffer.from('ok')).expect(201);
      const db = new Client({ connectionString: t.gw.databaseUrl });
      await db.connect();
      try {
        await db.query(
          `UPDATE marketplace.files SET doc = jsonb_set(doc, '{mimeType}', to_jsonb($2::text)) WHERE id = $1`,
          [id, 'text/html\r\nX-Evil: 1'],
        );
      } finally {
        await db.end();
      }
      const meta = await t.http
        .get(`/blob/${APP_KEY}/${id}`)
        .set('Authorization', APP_AUTH)
        .expect(200);
      const url = new URL(meta.body._downloadURL);
      const res = await t.http.get(`${url.pathname}${url.search}`).expect(200);
      expect(res.headers['content-type']).toBe('application/octet-stream');
      expect(res.headers['content-disposition']).toMatch(/^attachment/);
      expect(res.headers['x-evil']).toBeUndefined();
    });

    it('takes media types with parameters, and the header when the body has none', async () => {
      const withCharset = await newUpload({
        mimeType: 'text/plain; charset="utf-8"',
      });
      expect(withCharset.id).toEqual(expect.any(String));
      const fromHeader = await t.http
        .post(`/blob/${APP_KEY}`)
        .set('Authorization', APP_AUTH)
        .set('X-Kinvey-Content-Type', 'image/png')
        .send({ _filename: 'a.png' })
        .expect(201);
      expect(fromHeader.body.mimeType).toBe('image/png');
    });
  });
});
