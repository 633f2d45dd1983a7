export type AppCredentialAccess = 'none' | 'read' | 'read-create';

export const APP_CREDENTIAL_ACCESS: readonly AppCredentialAccess[] = [
  'none',
  'read',
  'read-create',
];

export interface AppRecord {
  readonly appKey: string;
  readonly name: string;
  readonly environmentName: string;
  readonly appSecretDigest: string;
  readonly masterSecretDigest: string;
  readonly appCredentialAccess: AppCredentialAccess;
  readonly signingKey: string;
  /** A write to an undeclared collection declares it (default settings). */
  readonly createCollectionsOnWrite?: boolean;
  readonly createdAt: Date;
}

/** What creating an app hands back once: the secrets in clear. */
export interface AppCredentials {
  readonly appKey: string;
  readonly appSecret: string;
  readonly masterSecret: string;
  readonly name: string;
}
