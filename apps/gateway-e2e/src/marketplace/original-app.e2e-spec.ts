import {
  APP_AUTH,
  APP_KEY,
  APP_SECRET,
  MASTER_AUTH,
  kinveyError,
  startMarketplace,
} from './marketplace-support';
import type { MarketplaceTest } from './marketplace-support';

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001', 'hex');

/** The produce marketplace app's own calls, with its exact request shapes. */
describe('the original marketplace app against Quitanda (e2e)', () => {
  let t: MarketplaceTest;
  let producer: { id: string; auth: string };
  let other: { id: string; auth: string };

  beforeAll(async () => {
    t = await startMarketplace();
    producer = await t.signup('maria@example.com', {
      name: 'Maria',
      phone1: '11999990000',
      cep: '01001000',
      recordtype: 'cpf',
    });
    other = await t.signup('joao@example.com', { name: 'João' });
  });

  afterAll(() => t?.gw.close());

  it('pings with the app secret as the whole Authorization value', async () => {
    const res = await t.http
      .get(`/appdata/${APP_KEY}`)
      .set('Authorization', APP_SECRET)
      .expect(200);
    expect(res.body).toEqual({
      version: expect.any(String),
      kinvey: 'hello Quitanda e2e',
      appName: 'Quitanda e2e',
      environmentName: 'Development',
    });
    expect(res.headers['x-kinvey-request-id']).toEqual(expect.any(String));
    expect(res.headers['x-kinvey-api-version']).toEqual(expect.any(String));
    expect(res.headers['x-kinvey-request-start']).toMatch(ISO_MS);
  });

  it('signs up (password echoed once, session included), logs in, reads _me and logs out', async () => {
    const signup = await t.http
      .post(`/user/${APP_KEY}`)
      .set('Authorization', APP_AUTH)
      .send({
        username: 'ana@example.com',
        password: 'secret-password',
        name: 'Ana',
        phone1: '11988887777',
        address: 'Rua A, 1',
        cep: '01002000',
      })
      .expect(201);
    expect(signup.body).toMatchObject({
      username: 'ana@example.com',
      password: 'secret-password',
      name: 'Ana',
      verifieduser: false,
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      _kmd: {
        ect: expect.stringMatching(ISO_MS),
        lmt: expect.stringMatching(ISO_MS),
        authtoken: expect.any(String),
      },
    });
    expect(signup.body._acl).toEqual({ creator: signup.body._id });

    const login = await t.http
      .post(`/user/${APP_KEY}/login`)
      .set('Authorization', APP_AUTH)
      .send({ username: 'ana@example.com', password: 'secret-password' })
      .expect(200);
    expect(login.body.password).toBeUndefined();
    expect(login.body).toMatchObject({
      _id: signup.body._id,
      email: 'ana@example.com',
      _kmd: {
        authtoken: expect.any(String),
        llt: expect.stringMatching(ISO_MS),
      },
    });
    const session = `Kinvey ${login.body._kmd.authtoken}`;

    const me = await t.http
      .get(`/user/${APP_KEY}/_me`)
      .set('Authorization', session)
      .expect(200);
    expect(me.body).toMatchObject({
      _id: signup.body._id,
      name: 'Ana',
      _kmd: expect.any(Object),
    });
    expect(me.body.password).toBeUndefined();

    await t.http
      .post(`/user/${APP_KEY}/_logout`)
      .set('Authorization', session)
      .expect(204);
    const after = await t.http
      .get(`/user/${APP_KEY}/_me`)
      .set('Authorization', session)
      .expect(401);
    expect(after.body).toEqual(kinveyError('InvalidCredentials'));
    // The signup session still works: logout ends one token only.
    await t.http
      .get(`/user/${APP_KEY}/_me`)
      .set('Authorization', `Kinvey ${signup.body._kmd.authtoken}`)
      .expect(200);
  });

  it('creates a product with an image, lists it expanded, and serves the same bytes', async () => {
    const file = await t.http
      .post(`/blob/${APP_KEY}`)
      .set('Authorization', APP_AUTH)
      .set('X-Kinvey-Content-Type', 'image/png')
      .send({
        _filename: 'tomato.png',
        mimeType: 'image/png',
        size: PNG.length,
        _public: true,
      })
      .expect(201);
    expect(file.body).toMatchObject({
      _id: expect.any(String),
      _filename: 'tomato.png',
      _uploadURL: expect.stringMatching(/^http/),
      _requiredHeaders: {},
      _expiresAt: expect.stringMatching(ISO_MS),
    });
    const upload = new URL(file.body._uploadURL);
    await t.http
      .put(`${upload.pathname}${upload.search}`)
      .set('Content-Type', 'image/png')
      .send(PNG)
      .expect(201);

    const product = await t.http
      .post(`/appdata/${APP_KEY}/product`)
      .set('Authorization', APP_AUTH)
      .send({
        name: 'Tomate',
        measurement: 'kg',
        image: { _type: 'KinveyFile', _id: file.body._id },
      })
      .expect(201);
    expect(product.body).toMatchObject({
      name: 'Tomate',
      measurement: 'kg',
      _acl: { creator: APP_KEY },
      image: {
        _type: 'KinveyFile',
        _id: file.body._id,
        _downloadURL: expect.any(String),
      },
    });

    const list = await t.http
      .get(`/appdata/${APP_KEY}/product`)
      .set('Authorization', APP_AUTH)
      .expect(200);
    const listed = list.body.find(
      (p: { _id: string }) => p._id === product.body._id,
    );
    expect(listed.image).toMatchObject({
      _id: file.body._id,
      _type: 'KinveyFile',
      _filename: 'tomato.png',
      _public: true,
      mimeType: 'image/png',
      size: PNG.length,
      _acl: { creator: APP_KEY },
      _kmd: expect.any(Object),
    });
    const download = new URL(listed.image._downloadURL);
    const bytes = await t.http
      .get(`${download.pathname}${download.search}`)
      .buffer(true)
      .parse((res, done) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => done(null, Buffer.concat(parts)));
      })
      .expect(200);
    expect(Buffer.compare(bytes.body as Buffer, PNG)).toBe(0);
    expect(bytes.headers['content-type']).toBe('image/png');
    expect(bytes.headers['etag']).toEqual(expect.any(String));
    expect(bytes.headers['cache-control']).toEqual(expect.any(String));
    expect(bytes.headers['x-content-type-options']).toBe('nosniff');

    // The SDK sends the record back as read: the expanded image is stored reduced.
    const { _kmd: _k, ...asRead } = listed;
    await t.http
      .put(`/appdata/${APP_KEY}/product/${product.body._id}`)
      .set('Authorization', MASTER_AUTH)
      .send({ ...asRead, measurement: 'un' })
      .expect(200);
    const again = await t.http
      .get(`/appdata/${APP_KEY}/product/${product.body._id}`)
      .set('Authorization', producer.auth)
      .expect(200);
    expect(again.body.measurement).toBe('un');
    expect(again.body.image._downloadURL).toEqual(expect.any(String));
  });

  it('refuses a duplicate product name ignoring case and spaces; of two concurrent creates one wins', async () => {
    await t.http
      .post(`/appdata/${APP_KEY}/product`)
      .set('Authorization', APP_AUTH)
      .send({ name: 'Alface', measurement: 'un' })
      .expect(201);
    const dup = await t.http
      .post(`/appdata/${APP_KEY}/product`)
      .set('Authorization', APP_AUTH)
      .send({ name: '  ALFACE ', measurement: 'un' })
      .expect(409);
    expect(dup.body).toEqual(kinveyError('DuplicateEntity'));

    const both = await Promise.all(
      ['Cenoura', ' cenoura'].map((name) =>
        t.http
          .post(`/appdata/${APP_KEY}/product`)
          .set('Authorization', APP_AUTH)
          .send({ name, measurement: 'kg' }),
      ),
    );
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
  });

  it('stores combined-layout assortments and reads them with fields=available,canceled and fields=required,canceled', async () => {
    const created = await t.http
      .post(`/appdata/${APP_KEY}/assortment`)
      .set('Authorization', APP_AUTH)
      .send({
        id_producer: producer.id,
        canceled: false,
        available: [
          {
            name: 'Tomate',
            measurement: 'kg',
            quantity: '10',
            price: '3,50',
            image: { _downloadURL: 'http://x/y.png' },
          },
        ],
        required: [{ name: 'Alface', measurement: 'un', quantity: 4 }],
      })
      .expect(201);
    expect(created.body.canceled).toBe('false');
    expect(created.body.required[0].quantity).toBe('4');
    expect(created.body.available[0].price).toBe('3,50');

    const query = encodeURIComponent(
      JSON.stringify({ id_producer: producer.id }),
    );
    const available = await t.http
      .get(
        `/appdata/${APP_KEY}/assortment?query=${query}&fields=available,canceled`,
      )
      .set('Authorization', APP_AUTH)
      .expect(200);
    expect(available.body).toEqual([
      {
        _id: created.body._id,
        _acl: created.body._acl,
        available: created.body.available,
        canceled: 'false',
      },
    ]);
    const required = await t.http
      .get(
        `/appdata/${APP_KEY}/assortment/?query=${query}&fields=required,canceled&_=123`,
      )
      .set('Authorization', APP_AUTH)
      .expect(200);
    expect(required.body).toEqual([
      {
        _id: created.body._id,
        _acl: created.body._acl,
        required: created.body.required,
        canceled: 'false',
      },
    ]);
  });

  it("stores split-layout records and matches needs to other producers' offers", async () => {
    await t.http
      .post(`/appdata/${APP_KEY}/availableAssortment`)
      .set('Authorization', APP_AUTH)
      .send({
        id_producer: other.id,
        canceled: 'false',
        products: [
          { name: 'tomate ', measurement: 'kg', quantity: '20', price: '3.00' },
          { name: 'Alface', measurement: 'un', quantity: '2', price: '1.5' },
        ],
      })
      .expect(201);
    const needs = await t.http
      .post(`/appdata/${APP_KEY}/requiredAssortment`)
      .set('Authorization', APP_AUTH)
      .send({
        id_producer: producer.id,
        canceled: 'false',
        products: [{ name: 'Tomate', measurement: 'kg', quantity: '5' }],
      })
      .expect(201);
    expect(needs.body.products).toEqual([
      { name: 'Tomate', measurement: 'kg', quantity: '5' },
    ]);

    const match = await t.http
      .post(`/rpc/${APP_KEY}/custom/match`)
      .set('Authorization', producer.auth)
      .send({ id_producer: producer.id })
      .expect(200);
    // Needs in record order: the combined record's Alface, then the split record's Tomate.
    expect(
      match.body.matches.map((m: { item: { name: string } }) => m.item.name),
    ).toEqual(['Alface', 'Tomate']);
    expect(match.body.matches[1].offers).toEqual([
      expect.objectContaining({
        id_producer: other.id,
        collection: 'availableAssortment',
        price: '3.00',
        price_value: 3,
        quantity: '20',
        covers: true,
      }),
    ]);
    expect(match.body.matches[0].offers[0]).toMatchObject({
      name: 'Alface',
      covers: false,
      price_value: 1.5,
    });

    const asApp = await t.http
      .post(`/rpc/${APP_KEY}/custom/match`)
      .set('Authorization', APP_AUTH)
      .send({ required: [] })
      .expect(401);
    expect(asApp.body).toEqual(kinveyError('InsufficientCredentials'));
  });
});
