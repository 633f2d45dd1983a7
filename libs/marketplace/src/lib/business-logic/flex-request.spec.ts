import type { Request } from 'express';

import { masterOf, testApp, testUser } from '../../testing/principals';
import type { FlexService } from './business-logic.types';
import { flexHeaders } from './flex-request';

const service: FlexService = {
  name: 'produce',
  url: 'http://flex.test',
  timeoutMs: 1000,
  sharedSecret: 'shared-secret-0123456789',
  callbackMasterSecret: 'handed-master',
  callbackAppSecret: 'handed-app',
};

const request = (headers: Record<string, string>) =>
  ({ headers, id: 'req-1' }) as unknown as Request;

describe('flexHeaders', () => {
  it("hands the service its own secrets in the app's place, and where to call back", () => {
    const headers = flexHeaders(
      service,
      masterOf(testApp()),
      request({ authorization: 'Basic a2lkX3Rlc3Q6bWFzdGVy' }),
      'https://quitanda.test',
    );
    expect(headers['x-auth-key']).toBe(service.sharedSecret);
    expect(JSON.parse(headers['x-kinvey-app-metadata'] ?? '')).toEqual({
      _id: 'kid_test',
      appsecret: 'handed-app',
      mastersecret: 'handed-master',
      baasUrl: 'https://quitanda.test',
      blFlags: {},
    });
    expect(headers['x-kinvey-request-id']).toBe('req-1');
    // A Basic header carries the app's own secret or a password: never handed on.
    expect(
      JSON.parse(headers['x-kinvey-original-request-headers'] ?? ''),
    ).toEqual({});
    expect(headers['x-kinvey-user-id']).toBeUndefined();
  });

  it("hands on a user's session token, id and printable username with the Kinvey headers", () => {
    const principal = {
      kind: 'user' as const,
      app: testApp(),
      user: testUser('u1', { username: 'grower' }),
    };
    const headers = flexHeaders(
      service,
      principal,
      request({
        authorization: 'Kinvey session-token',
        'x-kinvey-api-version': '5',
        cookie: 'not=handed',
      }),
      'https://quitanda.test',
    );
    expect(
      JSON.parse(headers['x-kinvey-original-request-headers'] ?? ''),
    ).toEqual({
      authorization: 'Kinvey session-token',
      'x-kinvey-api-version': '5',
    });
    expect(headers).toMatchObject({
      'x-kinvey-user-id': 'u1',
      'x-kinvey-username': 'grower',
    });
    const unprintable = flexHeaders(
      service,
      { ...principal, user: testUser('u2', { username: 'joão' }) },
      request({}),
      'https://quitanda.test',
    );
    expect(unprintable['x-kinvey-username']).toBeUndefined();
    expect(unprintable['x-kinvey-user-id']).toBe('u2');
  });
});
