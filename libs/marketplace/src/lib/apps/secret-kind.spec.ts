import { hashToken } from '@quitanda/kernel';

import type { AppRecord } from './app.types';
import { secretKind } from './apps.service';

describe('secretKind', () => {
  const app: AppRecord = {
    appKey: 'kid_secretKind',
    name: 'secrets',
    environmentName: 'Development',
    appSecretDigest: hashToken('the-app-secret'),
    masterSecretDigest: hashToken('the-master-secret'),
    appCredentialAccess: 'read',
    signingKey: 'signing-key',
    createdAt: new Date(0),
  };

  it('tells the master secret from the app secret', () => {
    expect(secretKind(app, 'the-master-secret')).toBe('master');
    expect(secretKind(app, 'the-app-secret')).toBe('app');
  });

  it('matches nothing else: near misses, empty, or a stored digest itself', () => {
    expect(secretKind(app, 'the-app-secret ')).toBeUndefined();
    expect(secretKind(app, 'The-master-secret')).toBeUndefined();
    expect(secretKind(app, '')).toBeUndefined();
    expect(secretKind(app, app.masterSecretDigest)).toBeUndefined();
  });
});
