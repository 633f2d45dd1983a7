/** What the gateway passes to `MarketplaceModule.forRoot` (validated env). */
export interface MarketplaceModuleOptions {
  /** Absolute base for the file URLs handed out; else the request's. */
  readonly publicBaseUrl?: string;
  /** A separate origin for the file URLs, so uploads never share the web UI's. */
  readonly filesPublicBaseUrl?: string;
  readonly trustProxy: boolean;
  /** An app to ensure at boot (MARKETPLACE_APP_*). */
  readonly app?: ConfiguredApp;
  readonly tokenLifetimeDays: number;
  /** Largest file upload. */
  readonly maxUploadBytes: number;
  /** Largest JSON request body. */
  readonly maxBodyBytes: number;
  /** Failed logins of one username before it is refused for a while. */
  readonly loginMaxFailures: number;
  readonly loginLockSeconds: number;
  /** How long a session token's user is remembered (0 = every call reads it). */
  readonly sessionCacheSeconds: number;
  /** Collections an app may declare (default 100). */
  readonly maxCollections?: number;
  /** Largest JSON Schema of a collection, in bytes (default 64 KiB). */
  readonly maxSchemaBytes?: number;
  /** Account mail an address may get from an app in an hour (default 5). */
  readonly mailPerAddressPerHour?: number;
  /** Account mail an app may send in an hour (default 500). */
  readonly mailPerAppPerHour?: number;
  /**
   * Signups with app credentials from one client address, per app and
   * clock hour (default 30); master signups are not counted.
   */
  readonly signupsPerClientPerHour?: number;
  /** Seals users' TOTP secrets (MARKETPLACE_MFA_ENCRYPTION_KEY); MFA off without. */
  readonly mfaEncryptionKey?: string;
  /**
   * Seals the secrets of environments made through the management API
   * (MARKETPLACE_MANAGE_ENCRYPTION_KEY), which hands them out again;
   * environments are refused without it.
   */
  readonly manageEncryptionKey?: string;
  /** SMTP of users' account mail (SMTP_URL, ALERTS_FROM); off without. */
  readonly mail?: { readonly smtpUrl?: string; readonly from?: string };
}

export interface ConfiguredApp {
  readonly appKey: string;
  readonly appSecret: string;
  readonly masterSecret: string;
  readonly name?: string;
}
