import {
  APP_AUTH,
  APP_KEY,
  MASTER_AUTH,
  kinveyError,
  startMarketplace,
  uploadFile,
} from './marketplace-support';
import type { MarketplaceTest } from './marketplace-support';

/** The user lifecycle any Kinvey app relies on, beyond the produce app's. */
describe('marketplace user lifecycle (e2e)', () => {
  let t: MarketplaceTest;

  beforeAll(async () => {
    t = await startMarketplace();
  });

  afterAll(() => t?.gw.close());

  const me = (auth: string) =>
    t.http.get(`/user/${APP_KEY}/_me`).set('Authorization', auth);

  describe('log out everywhere: DELETE /user/{appKey}/{id}/tokens', () => {
    it('revokes every token of the user when the user asks', async () => {
      const user = await t.signup('everywhere@example.com');
      const second = await t
        .login('everywhere@example.com', 'correct horse battery')
        .expect(200);
      const secondAuth = `Kinvey ${second.body._kmd.authtoken as string}`;
      // Both sessions are live (and cached) before the call.
      await me(user.auth).expect(200);
      await me(secondAuth).expect(200);

      await t.http
        .delete(`/user/${APP_KEY}/${user.id}/tokens`)
        .set('Authorization', user.auth)
        .expect(204);

      const afterOwn = await me(user.auth).expect(401);
      expect(afterOwn.body).toEqual(kinveyError('InvalidCredentials'));
      await me(secondAuth).expect(401);
      // The password still works: a new session can start.
      const third = await t
        .login('everywhere@example.com', 'correct horse battery')
        .expect(200);
      await me(`Kinvey ${third.body._kmd.authtoken as string}`).expect(200);
    });

    it('lets master revoke them, and refuses other users and app credentials', async () => {
      const user = await t.signup('revoked-by-master@example.com');
      const stranger = await t.signup('stranger@example.com');
      const denied = await t.http
        .delete(`/user/${APP_KEY}/${user.id}/tokens`)
        .set('Authorization', stranger.auth)
        .expect(401);
      expect(denied.body).toEqual(kinveyError('InsufficientCredentials'));
      await t.http
        .delete(`/user/${APP_KEY}/${user.id}/tokens`)
        .set('Authorization', APP_AUTH)
        .expect(401);
      await me(user.auth).expect(200);

      await t.http
        .delete(`/user/${APP_KEY}/${user.id}/tokens`)
        .set('Authorization', MASTER_AUTH)
        .expect(204);
      await me(user.auth).expect(401);
      await me(stranger.auth).expect(200);
    });

    it('answers UserNotFound for an unknown user', async () => {
      const res = await t.http
        .delete(`/user/${APP_KEY}/no-such-user/tokens`)
        .set('Authorization', MASTER_AUTH)
        .expect(404);
      expect(res.body).toEqual(kinveyError('UserNotFound'));
    });
  });

  describe('implicit users', () => {
    it('signs up a user with no body: generated username and password, returned once', async () => {
      const res = await t.http
        .post(`/user/${APP_KEY}`)
        .set('Authorization', APP_AUTH)
        .expect(201);
      const { username, password } = res.body as {
        username: string;
        password: string;
      };
      expect(username).toEqual(expect.any(String));
      expect(username.length).toBeGreaterThan(0);
      expect(password.length).toBeGreaterThanOrEqual(8);
      expect(res.body._kmd.authtoken).toEqual(expect.any(String));
      await me(`Kinvey ${res.body._kmd.authtoken as string}`).expect(200);
      const again = await t.login(username, password).expect(200);
      expect(again.body._id).toBe(res.body._id);
      expect(again.body.password).toBeUndefined();
      const read = await t.http
        .get(`/user/${APP_KEY}/${res.body._id as string}`)
        .set('Authorization', MASTER_AUTH)
        .expect(200);
      expect(read.body.password).toBeUndefined();
    });

    it('keeps the other fields of a body without username and password', async () => {
      const first = await t.http
        .post(`/user/${APP_KEY}`)
        .set('Authorization', APP_AUTH)
        .send({ name: 'Anon', username: null, password: '' })
        .expect(201);
      const second = await t.http
        .post(`/user/${APP_KEY}`)
        .set('Authorization', APP_AUTH)
        .send({ name: 'Anon' })
        .expect(201);
      expect(first.body.name).toBe('Anon');
      expect(second.body.name).toBe('Anon');
      expect(first.body.username).not.toBe(second.body.username);
      expect(first.body.password).not.toBe(second.body.password);
      await t.login(second.body.username, second.body.password).expect(200);
    });
  });

  it('answers an unknown custom endpoint with Kinvey’s missing-endpoint error', async () => {
    const user = await t.signup('endpoint@example.com');
    const res = await t.http
      .post(`/rpc/${APP_KEY}/custom/no-such-endpoint`)
      .set('Authorization', user.auth)
      .send({})
      .expect(404);
    expect(res.body).toEqual(kinveyError('EndpointDoesNotExist'));
    expect(res.body.debug).toContain('no-such-endpoint');
    // Credentials are checked first, as for every other call.
    const anonymous = await t.http
      .post(`/rpc/${APP_KEY}/custom/no-such-endpoint`)
      .send({})
      .expect(401);
    expect(anonymous.body).toEqual(kinveyError('InvalidCredentials'));
  });

  it('stores a file’s _acl as the creator set it plus creator, nothing invented', async () => {
    const user = await t.signup('files@example.com');
    const created = await t.http
      .post(`/blob/${APP_KEY}`)
      .set('Authorization', user.auth)
      .send({ _filename: 'a.txt', mimeType: 'text/plain', size: 1 })
      .expect(201);
    expect(created.body._acl).toEqual({ creator: user.id });
    const granted = await t.http
      .post(`/blob/${APP_KEY}`)
      .set('Authorization', user.auth)
      .send({
        _filename: 'b.txt',
        mimeType: 'text/plain',
        size: 1,
        _acl: { r: ['someone'] },
      })
      .expect(201);
    expect(granted.body._acl).toEqual({ creator: user.id, r: ['someone'] });
    const uploaded = await uploadFile(
      t,
      { _filename: 'c.txt', mimeType: 'text/plain' },
      Buffer.from('c'),
    );
    const read = await t.http
      .get(`/blob/${APP_KEY}/${uploaded.id}`)
      .set('Authorization', user.auth)
      .expect(200);
    expect(read.body._acl).toEqual({ creator: APP_KEY });
  });
});
