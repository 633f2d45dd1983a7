import {
  APP_AUTH,
  APP_KEY,
  startMarketplace,
  uploadFile,
} from './marketplace-support';
import type { MarketplaceTest } from './marketplace-support';

const FILES_ORIGIN = 'https://files.quitanda.test';

/** Downloads are inert in a browser whatever the uploader said they are. */
describe('file downloads (e2e)', () => {
  let t: MarketplaceTest;

  beforeAll(async () => {
    t = await startMarketplace({ FILES_PUBLIC_BASE_URL: FILES_ORIGIN });
  });

  afterAll(() => t?.gw.close());

  /** Uploads `bytes` as `mimeType` with the app secret; its download reply. */
  async function uploadAndDownload(
    filename: string,
    mimeType: string,
    bytes: Buffer,
  ) {
    const { downloadURL } = await uploadFile(
      t,
      { _filename: filename, mimeType },
      bytes,
    );
    const download = new URL(downloadURL);
    return t.http.get(`${download.pathname}${download.search}`).expect(200);
  }

  it.each([
    ['page.html', 'text/html'],
    ['page.htm', 'text/html; charset=utf-8'],
    ['image.svg', 'image/svg+xml'],
    ['page.xhtml', 'application/xhtml+xml'],
    ['data.xml', 'text/xml'],
    ['script.js', 'application/javascript'],
    ['blob.bin', 'application/x-unknown'],
    ['doc.pdf', 'application/pdf'],
  ])(
    'serves %s (%s) as an attachment in a sandbox, never sniffed',
    async (filename, mimeType) => {
      const res = await uploadAndDownload(
        filename,
        mimeType,
        Buffer.from('<script>alert(document.domain)</script>'),
      );
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="${filename}"`,
      );
      expect(res.headers['content-security-policy']).toMatch(/(^|; )sandbox/);
      expect(res.headers['content-security-policy']).toContain(
        "default-src 'none'",
      );
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    },
  );

  it.each([
    ['tomato.png', 'image/png'],
    ['tomato.jpg', 'image/jpeg'],
    ['notes.txt', 'text/plain; charset=utf-8'],
    ['clip.mp4', 'video/mp4'],
  ])(
    'shows %s (%s) inline, still in a sandbox and never sniffed',
    async (filename, mimeType) => {
      const res = await uploadAndDownload(
        filename,
        mimeType,
        Buffer.from('bytes'),
      );
      expect(res.headers['content-disposition']).toBeUndefined();
      expect(res.headers['content-type']).toBe(mimeType);
      expect(res.headers['content-security-policy']).toMatch(/(^|; )sandbox/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    },
  );

  it('hands out upload and download URLs on FILES_PUBLIC_BASE_URL, expanded references included', async () => {
    const file = await t.http
      .post(`/blob/${APP_KEY}`)
      .set('Authorization', APP_AUTH)
      .send({ _filename: 'a.png', mimeType: 'image/png', _public: true })
      .expect(201);
    expect(file.body._uploadURL).toMatch(
      new RegExp(`^${FILES_ORIGIN}/blob/${APP_KEY}/_upload/`),
    );
    const meta = await t.http
      .get(`/blob/${APP_KEY}/${file.body._id}`)
      .set('Authorization', APP_AUTH)
      .expect(200);
    expect(meta.body._downloadURL).toMatch(
      new RegExp(`^${FILES_ORIGIN}/blob/${APP_KEY}/_download/`),
    );
    const product = await t.http
      .post(`/appdata/${APP_KEY}/product`)
      .set('Authorization', APP_AUTH)
      .send({
        name: 'Alface',
        measurement: 'un',
        image: { _type: 'KinveyFile', _id: file.body._id },
      })
      .expect(201);
    expect(product.body.image._downloadURL).toMatch(
      new RegExp(`^${FILES_ORIGIN}/blob/`),
    );
  });
});
