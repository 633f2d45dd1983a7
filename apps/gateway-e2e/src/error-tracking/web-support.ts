import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import request from 'supertest';

import type { ErrorTrackingGateway } from './error-tracking-support';

/** root's generated password, as the first boot wrote it to DATA_DIR. */
export async function initialRootPassword(
  gw: ErrorTrackingGateway,
): Promise<string> {
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

const chosenRootPasswords = new WeakMap<
  ErrorTrackingGateway,
  Promise<string>
>();

/**
 * root's password once its first sign-in is over: the generated one only
 * gets a page asking for a new password, so this signs in with it once and
 * chooses one (the same for the whole gateway).
 */
export function rootPassword(gw: ErrorTrackingGateway): Promise<string> {
  let chosen = chosenRootPasswords.get(gw);
  if (!chosen) {
    chosen = chooseRootPassword(gw);
    chosenRootPasswords.set(gw, chosen);
  }
  return chosen;
}

async function chooseRootPassword(gw: ErrorTrackingGateway): Promise<string> {
  const generated = await initialRootPassword(gw);
  const password = `${generated}-chosen`;
  const agent = request.agent(gw.url);
  const form = await agent.get('/users/sign_in').expect(200);
  await agent
    .post('/users/sign_in')
    .type('form')
    .send({ _csrf: csrfOf(form.text), username: 'root', password: generated })
    .expect(303);
  const page = await agent.get('/-/profile/password/new').expect(200);
  await agent
    .post('/-/profile/password')
    .type('form')
    .send({
      _csrf: csrfOf(page.text),
      current_password: generated,
      password,
      password_confirmation: password,
    })
    .expect(303);
  return password;
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
