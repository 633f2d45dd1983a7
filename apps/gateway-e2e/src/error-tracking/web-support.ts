import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import request from 'supertest';

import type { ErrorTrackingGateway } from './error-tracking-support';

/** root's generated password, as the first boot wrote it to DATA_DIR. */
export async function rootPassword(gw: ErrorTrackingGateway): Promise<string> {
  const credentials = JSON.parse(
    await readFile(join(gw.dataDir, 'initial-credentials.json'), 'utf8'),
  ) as Record<string, Record<string, string>>;
  const password = credentials['error-tracking']?.['root_password'];
  if (!password)
    throw new Error('no root password in initial-credentials.json');
  return password;
}

/** The `_csrf` value of the first form on a page. */
export function csrfOf(page: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(page);
  if (!match?.[1]) throw new Error('no CSRF token on the page');
  return match[1];
}

/** A cookie-keeping browser-like client, signed in as `username`. */
export async function signedInAgent(
  gw: ErrorTrackingGateway,
  username: string,
  password: string,
): Promise<ReturnType<typeof request.agent>> {
  const agent = request.agent(gw.url);
  const form = await agent.get('/users/sign_in').expect(200);
  await agent
    .post('/users/sign_in')
    .type('form')
    .send({ _csrf: csrfOf(form.text), username, password, redirect_to: '/' })
    .expect(303)
    .expect('Location', '/');
  return agent;
}
