import request from 'supertest';

import {
  ROOT_TOKEN,
  createTrackedProject,
  createUser,
  startErrorTrackingGateway,
  unique,
} from './error-tracking-support';
import type { ErrorTrackingGateway } from './error-tracking-support';
import { csrfOf, rootPassword, signedInAgent } from './web-support';

const CSP =
  "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

describe('error-tracking web UI over HTTP (e2e)', () => {
  let gw: ErrorTrackingGateway;
  let password: string;

  beforeAll(async () => {
    gw = await startErrorTrackingGateway();
    password = await rootPassword(gw);
  });

  afterAll(() => gw?.close());

  describe('signing in', () => {
    it('sends signed-out visitors to sign in and back where they were going', async () => {
      const agent = request.agent(gw.url);
      const target = '/projects/1/error_tracking?status=resolved';
      await agent
        .get(target)
        .expect(302)
        .expect(
          'Location',
          `/users/sign_in?redirect_to=${encodeURIComponent(target)}`,
        );
      await agent.get('/').expect(302).expect('Location', '/users/sign_in');
      const form = await agent
        .get(`/users/sign_in?redirect_to=${encodeURIComponent(target)}`)
        .expect(200)
        .expect('Content-Type', /text\/html/);
      expect(form.text).toContain(
        `name="redirect_to" value="${target.replace('&', '&amp;')}"`,
      );
      const signedIn = await agent
        .post('/users/sign_in')
        .type('form')
        .send({
          _csrf: csrfOf(form.text),
          username: 'ROOT',
          password,
          redirect_to: target,
        })
        .expect(303)
        .expect('Location', target);
      const cookie = String(signedIn.headers['set-cookie']);
      expect(cookie).toMatch(
        /_quitanda_session=[\w-]{40,}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+/,
      );
      expect(cookie).not.toContain('Secure');
      const home = await agent.get('/').expect(200);
      expect(home.text).toContain('@root');
    });

    it.each([
      '//evil.test/x',
      'https://evil.test/',
      '/..//evil.example',
      '/.//evil.example',
      '/%2e%2e//evil.example',
    ])('never redirects off-site after sign-in: %p', async (target) => {
      const user = await createUser(gw);
      const agent = request.agent(gw.url);
      const form = await agent
        .get(`/users/sign_in?redirect_to=${encodeURIComponent(target)}`)
        .expect(200);
      expect(form.text).toContain('name="redirect_to" value="/"');
      await agent
        .post('/users/sign_in')
        .type('form')
        .send({
          _csrf: csrfOf(form.text),
          username: user.username,
          password: 'correct horse battery',
          redirect_to: target,
        })
        .expect(303)
        .expect('Location', '/');
    });

    it('stores only a hash of the session id, and signing out deletes the session', async () => {
      const agent = await signedInAgent(gw, 'root', password);
      const home = await agent.get('/').expect(200);
      const before = await gw.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM error_tracking.web_sessions',
      );
      const out = await agent
        .post('/users/sign_out')
        .type('form')
        .send({ _csrf: csrfOf(home.text) })
        .expect(303)
        .expect('Location', '/users/sign_in');
      expect(String(out.headers['set-cookie'])).toContain('Max-Age=0');
      const after = await gw.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM error_tracking.web_sessions',
      );
      expect(after[0]?.n).toBe((before[0]?.n ?? 0) - 1);
      await agent.get('/').expect(302);
    });

    it('answers a wrong password and an unknown user alike, then throttles the username', async () => {
      const agent = request.agent(gw.url);
      const form = await agent.get('/users/sign_in').expect(200);
      const attempt = (username: string, pass: string) =>
        agent
          .post('/users/sign_in')
          .type('form')
          .send({ _csrf: csrfOf(form.text), username, password: pass });
      const wrong = await attempt('root', 'not the password').expect(401);
      const unknown = await attempt('nobody-here', 'not the password').expect(
        401,
      );
      expect(wrong.text).toContain('Invalid username or password.');
      expect(unknown.text).toContain('Invalid username or password.');
      expect(wrong.text).toContain('value="root"');
      await attempt('nobody-here', 'x').expect(401);
      await attempt('nobody-here', 'x').expect(401);
      const throttled = await attempt('nobody-here', 'x').expect(429);
      expect(throttled.text).toMatch(
        /Too many failed attempts for this username/,
      );
      expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
      // The correct password is refused too while the name is blocked.
      const user = await createUser(gw);
      await attempt(user.username, 'wrong').expect(401);
      await attempt(user.username, 'wrong').expect(401);
      await attempt(user.username, 'wrong').expect(401);
      await attempt(user.username, 'correct horse battery').expect(429);
    });
  });

  describe('CSRF', () => {
    it('refuses a form without a valid token with 403 and changes nothing', async () => {
      const agent = await signedInAgent(gw, 'root', password);
      const project = await createTrackedProject(gw);
      const base = `/projects/${project.id}/settings/monitor`;
      const forged = await agent
        .post(base)
        .type('form')
        .send({ active: 'false' })
        .expect(403)
        .expect('Content-Type', /text\/html/);
      expect(forged.text).toContain('The form could not be verified');
      await agent
        .post(base)
        .type('form')
        .send({ active: 'false', _csrf: 'forged-token' })
        .expect(403);
      // Another browser's valid token is not this session's.
      const other = await signedInAgent(gw, 'root', password);
      const otherPage = await other.get('/').expect(200);
      await agent
        .post(base)
        .type('form')
        .send({ active: 'false', _csrf: csrfOf(otherPage.text) })
        .expect(403);
      const settings = await gw.http
        .get(`/api/v4/projects/${project.id}/error_tracking/settings`)
        .set('PRIVATE-TOKEN', ROOT_TOKEN)
        .expect(200);
      expect(settings.body.active).toBe(true);
      // With the page's token the same form works.
      const page = await agent.get(base).expect(200);
      await agent
        .post(base)
        .type('form')
        .send({ active: 'false', _csrf: csrfOf(page.text) })
        .expect(303);
      const changed = await gw.http
        .get(`/api/v4/projects/${project.id}/error_tracking/settings`)
        .set('PRIVATE-TOKEN', ROOT_TOKEN)
        .expect(200);
      expect(changed.body.active).toBe(false);
    });
  });

  describe('access and errors', () => {
    it('shows a 404 page to a non-member and a member below the role', async () => {
      const project = await createTrackedProject(gw);
      const user = await createUser(gw);
      const agent = await signedInAgent(
        gw,
        user.username,
        'correct horse battery',
      );
      for (const path of [
        `/projects/${project.id}/error_tracking`,
        `/projects/${project.id}/settings/monitor`,
        `/projects/${project.id}/issues`,
        '/projects/999999/error_tracking',
      ]) {
        const res = await agent
          .get(path)
          .expect(404)
          .expect('Content-Type', /text\/html/);
        expect(res.text).toContain('Page not found');
        expect(res.headers['content-security-policy']).toBe(CSP);
      }
      const home = await agent.get('/').expect(200);
      expect(home.text).not.toContain(`/projects/${project.id}/`);
    });

    it('lets a reporter read but not triage or change settings (403 pages, no settings links)', async () => {
      const project = await createTrackedProject(gw);
      const user = await createUser(gw);
      await gw.http
        .post(`/api/v4/projects/${project.id}/members`)
        .set('PRIVATE-TOKEN', ROOT_TOKEN)
        .send({ user_id: user.id, access_level: 20 })
        .expect(201);
      const agent = await signedInAgent(
        gw,
        user.username,
        'correct horse battery',
      );
      const list = await agent
        .get(`/projects/${project.id}/error_tracking`)
        .expect(200);
      expect(list.text).not.toContain('/settings/monitor');
      const settings = await agent
        .get(`/projects/${project.id}/settings/monitor`)
        .expect(403)
        .expect('Content-Type', /text\/html/);
      expect(settings.text).toContain('Access denied');
      const home = await agent.get('/').expect(200);
      await agent
        .post(`/projects/${project.id}/settings/monitor`)
        .type('form')
        .send({ _csrf: csrfOf(home.text), active: 'false' })
        .expect(403);
    });

    it('offers to enable tracking on the projects page only to members who may (Maintainer and up)', async () => {
      const project = await gw.http
        .post('/api/v4/projects')
        .set('PRIVATE-TOKEN', ROOT_TOKEN)
        .send({ name: unique('untracked') })
        .expect(201);
      const settingsLink = `/projects/${project.body.id}/settings/monitor`;
      const homeOf = async (accessLevel: number) => {
        const user = await createUser(gw);
        await gw.http
          .post(`/api/v4/projects/${project.body.id}/members`)
          .set('PRIVATE-TOKEN', ROOT_TOKEN)
          .send({ user_id: user.id, access_level: accessLevel })
          .expect(201);
        const agent = await signedInAgent(
          gw,
          user.username,
          'correct horse battery',
        );
        return (await agent.get('/').expect(200)).text;
      };
      const developer = await homeOf(30);
      expect(developer).toContain(
        `/projects/${project.body.id}/error_tracking`,
      );
      expect(developer).not.toContain(settingsLink);
      expect(developer).toContain('Error tracking off');
      const maintainer = await homeOf(40);
      expect(maintainer).toContain(settingsLink);
      expect(maintainer).toContain('Enable error tracking');
    });

    it('answers unknown UI paths with an HTML 404, the API still with JSON', async () => {
      const agent = await signedInAgent(gw, 'root', password);
      await agent
        .get('/projects/1/nothing-here')
        .expect(404)
        .expect('Content-Type', /text\/html/);
      await gw.http
        .get('/api/v4/nothing')
        .expect(404)
        .expect('Content-Type', /json/);
    });
  });

  describe('error list', () => {
    it('filters by tab, search and environment, sorts, and pages with a cursor', async () => {
      const agent = await signedInAgent(gw, 'root', password);
      const project = await createTrackedProject(gw);
      const store = `/api/v4/error_tracking/collector/api/${project.id}/store?sentry_key=${project.publicKey}`;
      for (let i = 1; i <= 22; i++) {
        await gw.http
          .post(store)
          .set('Content-Type', 'application/json')
          .send({
            event_id: i.toString(16).padStart(32, '0'),
            timestamp: Date.now() / 1000 - i * 60,
            environment: i <= 2 ? 'staging' : 'production',
            fingerprint: [`group-${i}`],
            message: i === 7 ? 'needle in the haystack' : `hay number ${i}`,
          })
          .expect(200);
      }
      const base = `/projects/${project.id}/error_tracking`;
      const titles = (text: string) =>
        [...text.matchAll(/class="error-title" href="[^"]+">([^<]+)</g)].map(
          (m) => m[1],
        );
      const first = await agent.get(base).expect(200);
      expect(titles(first.text)).toHaveLength(20);
      expect(titles(first.text)[0]).toBe('hay number 1');
      expect(first.text).toMatch(/<option\s+value="staging"/);
      const next = /rel="next"\s+href="([^"]+)"/.exec(first.text)?.[1];
      const second = await agent
        .get(String(next).replace(/&amp;/g, '&'))
        .expect(200);
      expect(titles(second.text)).toEqual(['hay number 21', 'hay number 22']);
      expect(second.text).not.toContain('rel="next"');

      const search = await agent.get(`${base}?search=needle`).expect(200);
      expect(titles(search.text)).toEqual(['needle in the haystack']);
      const staging = await agent
        .get(`${base}?environment=staging`)
        .expect(200);
      expect(titles(staging.text).sort()).toEqual([
        'hay number 1',
        'hay number 2',
      ]);
      const oldestFirst = await agent
        .get(`${base}?sort=first_seen`)
        .expect(200);
      expect(titles(oldestFirst.text)[0]).toBe('hay number 1');

      // Resolve one through the page: it moves to the Resolved tab.
      const id = /error_tracking\/(\d+)">needle/.exec(search.text)?.[1];
      const detail = await agent.get(`${base}/${id}`).expect(200);
      await agent
        .post(`${base}/${id}/status`)
        .type('form')
        .send({ _csrf: csrfOf(detail.text), status: 'resolved' })
        .expect(303)
        .expect('Location', `${base}/${id}?notice=resolved`);
      const resolved = await agent.get(`${base}?status=resolved`).expect(200);
      expect(titles(resolved.text)).toEqual(['needle in the haystack']);
      const open = await agent.get(`${base}?search=needle`).expect(200);
      expect(titles(open.text)).toEqual([]);
      expect(open.text).toContain('No open errors');
    });
  });

  describe('headers and escaping', () => {
    it('sends a strict CSP, no framing, a referrer policy and no inline script or style', async () => {
      const agent = await signedInAgent(gw, 'root', password);
      const project = await createTrackedProject(gw);
      const pages = [
        await request(gw.url).get('/users/sign_in'),
        await agent.get('/'),
        await agent.get(`/projects/${project.id}/settings/monitor`),
      ];
      for (const res of pages) {
        expect(res.status).toBe(200);
        expect(res.headers['content-security-policy']).toBe(CSP);
        expect(res.headers['x-frame-options']).toBe('DENY');
        expect(res.headers['referrer-policy']).toBe('same-origin');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)/);
        expect(res.text).not.toMatch(/\sstyle=|<style|\son[a-z]+=/i);
      }
      const css = await agent.get('/assets/ui.css').expect(200);
      expect(css.headers['content-type']).toMatch(/text\/css/);
      const js = await agent.get('/assets/ui.js').expect(200);
      expect(js.headers['content-type']).toMatch(/javascript/);
    });

    it('shows an error message full of markup as text, in the list, the detail and the issue', async () => {
      const agent = await signedInAgent(gw, 'root', password);
      const project = await createTrackedProject(gw);
      const message =
        '<script>alert("pwned")</script><img src=x onerror=alert(1)>';
      await gw.http
        .post(
          `/api/v4/error_tracking/collector/api/${project.id}/store?sentry_key=${project.publicKey}`,
        )
        .set('Content-Type', 'application/json')
        .send({
          event_id: 'a'.repeat(32),
          exception: {
            values: [
              {
                type: 'Error',
                value: message,
                stacktrace: {
                  frames: [
                    {
                      filename: '<b>app.js</b>',
                      function: 'f',
                      lineno: 1,
                      context_line: '<script>x</script>',
                      in_app: true,
                    },
                  ],
                },
              },
            ],
          },
        })
        .expect(200);
      const list = await agent
        .get(`/projects/${project.id}/error_tracking`)
        .expect(200);
      expect(list.text).toContain(
        '&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;',
      );
      expect(list.text).not.toContain('<script>alert');
      expect(list.text).not.toContain('<img src=x');
      const id = /error_tracking\/(\d+)"/.exec(list.text)?.[1];
      const detail = await agent
        .get(`/projects/${project.id}/error_tracking/${id}`)
        .expect(200);
      expect(detail.text).toContain(
        '&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;',
      );
      expect(detail.text).toContain('&lt;b&gt;app.js&lt;/b&gt;');
      expect(detail.text).not.toMatch(/<script>(alert|x)/);
      const created = await agent
        .post(`/projects/${project.id}/error_tracking/${id}/issue`)
        .type('form')
        .send({ _csrf: csrfOf(detail.text) })
        .expect(303);
      const issue = await agent
        .get(String(created.headers['location']))
        .expect(200);
      expect(issue.text).toContain('<h3>Stack trace</h3>');
      expect(issue.text).not.toMatch(/<script>|<img src=x/);
    });

    it('escapes a project name full of markup', async () => {
      const agent = await signedInAgent(gw, 'root', password);
      const home = await agent.get('/').expect(200);
      const name = '<img src=x onerror=alert(1)> "quoted"';
      await agent
        .post('/projects')
        .type('form')
        .send({ _csrf: csrfOf(home.text), name })
        .expect(303);
      const after = await agent.get('/').expect(200);
      expect(after.text).toContain(
        '&lt;img src=x onerror=alert(1)&gt; &quot;quoted&quot;',
      );
      expect(after.text).not.toContain('<img src=x');
    });
  });
});

describe('error-tracking web UI behind a TLS-terminating proxy (e2e)', () => {
  let gw: ErrorTrackingGateway;

  beforeAll(async () => {
    gw = await startErrorTrackingGateway({ TRUST_PROXY: 'true' });
  });

  afterAll(() => gw?.close());

  it('marks the cookies Secure when the trusted proxy says HTTPS', async () => {
    const agent = request.agent(gw.url);
    const form = await agent
      .get('/users/sign_in')
      .set('X-Forwarded-Proto', 'https')
      .expect(200);
    expect(String(form.headers['set-cookie'])).toMatch(
      /_quitanda_csrf=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Secure/,
    );
    const signedIn = await agent
      .post('/users/sign_in')
      .set('X-Forwarded-Proto', 'https')
      .set('Cookie', String(form.headers['set-cookie']).split(';')[0] ?? '')
      .type('form')
      .send({
        _csrf: csrfOf(form.text),
        username: 'root',
        password: await rootPassword(gw),
      })
      .expect(303);
    expect(String(signedIn.headers['set-cookie'])).toMatch(
      /_quitanda_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+; Secure/,
    );
  });
});
