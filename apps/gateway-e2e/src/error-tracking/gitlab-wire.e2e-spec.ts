import {
  ROOT_TOKEN,
  createTrackedProject,
  startErrorTrackingGateway,
  unique,
} from './error-tracking-support';
import type { ErrorTrackingGateway } from './error-tracking-support';

const root = { 'PRIVATE-TOKEN': ROOT_TOKEN };

/** `{rel: url}` of a `Link` header. */
function links(header: unknown): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of String(header ?? '').matchAll(
    /<([^>]+)>;\s*rel="([^"]+)"/g,
  ))
    found[match[2] as string] = match[1] as string;
  return found;
}

/**
 * What real GitLab clients depend on beyond the entities: the exact JSON
 * content type, absolute links, `?private_token=` and keyset pagination.
 * The clients themselves run in python-gitlab.e2e-spec and gitbeaker.e2e-spec.
 */
describe('GitLab API wire conformance (e2e)', () => {
  let gw: ErrorTrackingGateway;

  beforeAll(async () => {
    gw = await startErrorTrackingGateway({
      PUBLIC_BASE_URL: 'https://errors.example.com/base',
    });
    for (let i = 0; i < 5; i += 1)
      await gw.http
        .post('/api/v4/projects')
        .set(root)
        .send({ name: unique('wire') })
        .expect(201);
  });

  afterAll(() => gw?.close());

  it('answers Content-Type: application/json exactly, on success and on error', async () => {
    const responses = [
      await gw.http.get('/api/v4/user').set(root).expect(200),
      await gw.http.get('/api/v4/projects').set(root).expect(200),
      await gw.http
        .post('/api/v4/projects')
        .set(root)
        .send({ name: unique('wire') })
        .expect(201),
      await gw.http.get('/api/v4/user').expect(401),
      await gw.http.get('/api/v4/projects/999999').set(root).expect(404),
      await gw.http.get('/api/v4/projects?page=x').set(root).expect(400),
      await gw.http.get('/api/v4/no/such/route').set(root).expect(404),
    ];
    for (const res of responses)
      expect(res.headers['content-type']).toBe('application/json');
    const token = await gw.http
      .post('/api/v4/users/1/personal_access_tokens')
      .set(root)
      .send({ name: 'wire', scopes: ['read_api'] })
      .expect(201);
    expect(token.headers['content-type']).toBe('application/json');
    const revoked = await gw.http
      .delete(`/api/v4/personal_access_tokens/${token.body.id}`)
      .set(root)
      .expect(204);
    expect(revoked.headers['content-type']).toBeUndefined();
  });

  it('writes absolute Link URLs from PUBLIC_BASE_URL, and empty X-Prev/X-Next-Page at the ends', async () => {
    const first = await gw.http
      .get('/api/v4/projects?per_page=2&simple=true')
      .set(root)
      .expect(200);
    expect(first.headers['x-prev-page']).toBe('');
    expect(first.headers['x-next-page']).toBe('2');
    const rels = links(first.headers['link']);
    expect(rels['next']).toBe(
      'https://errors.example.com/base/api/v4/projects?simple=true&page=2&per_page=2',
    );
    expect(rels['first']).toMatch(
      /^https:\/\/errors\.example\.com\/base\/api\/v4\/projects\?/,
    );
    const lastPage = Number(first.headers['x-total-pages']);
    const last = await gw.http
      .get(`/api/v4/projects?per_page=2&page=${lastPage}`)
      .set(root)
      .expect(200);
    expect(last.headers['x-next-page']).toBe('');
    expect(links(last.headers['link'])['next']).toBeUndefined();
  });

  it('derives links from the request (a trusted proxy its forwarded host) without PUBLIC_BASE_URL', async () => {
    const plain = await startErrorTrackingGateway();
    const trusting = await startErrorTrackingGateway({ TRUST_PROXY: 'true' });
    try {
      for (const [server, expected] of [
        [plain, 'http://internal:8080/api/v4/projects?'],
        [trusting, 'https://public.example.org/api/v4/projects?'],
      ] as const) {
        await createTrackedProject(server);
        await createTrackedProject(server);
        const res = await server.http
          .get('/api/v4/projects?per_page=1')
          .set(root)
          .set('Host', 'internal:8080')
          .set('X-Forwarded-Proto', 'https')
          .set('X-Forwarded-Host', 'public.example.org')
          .expect(200);
        expect(links(res.headers['link'])['next']).toBe(
          `${expected}page=2&per_page=1`,
        );
      }
    } finally {
      await plain.close();
      await trusting.close();
    }
  });

  it('accepts the token as ?private_token= and never echoes it into a link', async () => {
    const res = await gw.http
      .get(`/api/v4/projects?per_page=1&private_token=${ROOT_TOKEN}`)
      .expect(200);
    expect(res.body).toHaveLength(1);
    expect(String(res.headers['link'])).not.toContain('private_token');
    expect(String(res.headers['link'])).not.toContain(ROOT_TOKEN);
    await gw.http
      .get('/api/v4/user?private_token=glpat-wrong')
      .expect(401, { message: '401 Unauthorized' });
    await gw.http
      .get(`/api/v4/user?private_token=${ROOT_TOKEN}&private_token=x`)
      .expect(401);
    await gw.http
      .post(`/api/v4/projects?private_token=${ROOT_TOKEN}`)
      .send({ name: unique('by-query') })
      .expect(201);
  });

  it('pages projects by keyset on id, both ways, with only a next link', async () => {
    const all = (
      await gw.http.get('/api/v4/projects?per_page=100').set(root).expect(200)
    ).body.map((p: { id: number }) => p.id) as number[];
    expect(all.length).toBeGreaterThan(4);
    for (const sort of ['asc', 'desc'] as const) {
      const seen: number[] = [];
      let url: string | undefined =
        `/api/v4/projects?pagination=keyset&order_by=id&sort=${sort}&per_page=2`;
      while (url) {
        const res = await gw.http.get(url).set(root).expect(200);
        expect(res.headers['x-total']).toBeUndefined();
        seen.push(...res.body.map((p: { id: number }) => p.id));
        const rels = links(res.headers['link']);
        expect(Object.keys(rels).filter((rel) => rel !== 'next')).toEqual([]);
        url = rels['next']?.replace('https://errors.example.com/base', '');
        if (url)
          expect(url).toMatch(sort === 'asc' ? /id_after=/ : /id_before=/);
      }
      expect(seen).toEqual(
        [...all].sort((a, b) => (sort === 'asc' ? a - b : b - a)),
      );
    }
    await gw.http
      .get('/api/v4/projects?pagination=keyset&order_by=created_at')
      .set(root)
      .expect(405, {
        error:
          'Keyset pagination is not yet available for this type of request',
      });
  });

  it('orders offset pages by order_by and sort', async () => {
    const asc = await gw.http
      .get('/api/v4/projects?order_by=id&sort=asc&per_page=100')
      .set(root)
      .expect(200);
    const ids = asc.body.map((p: { id: number }) => p.id) as number[];
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    // By name both ways (the database's collation decides the order).
    const [up, down] = await Promise.all(
      ['asc', 'desc'].map((sort) =>
        gw.http
          .get(`/api/v4/projects?order_by=name&sort=${sort}&per_page=100`)
          .set(root)
          .expect(200),
      ),
    );
    const names = (res: typeof up) =>
      (res?.body as Array<{ name: string }>).map((p) => p.name);
    expect(names(down)).toEqual(names(up).reverse());
    expect(names(up)).not.toEqual(
      (asc.body as Array<{ name: string }>).map((p) => p.name),
    );
    await gw.http
      .get('/api/v4/projects?order_by=bogus')
      .set(root)
      .expect(400, { error: 'order_by does not have a valid value' });
  });
});
