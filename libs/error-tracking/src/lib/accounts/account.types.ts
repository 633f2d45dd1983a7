/** A user as the services hand it around. */
export interface UserRecord {
  readonly id: number;
  readonly username: string;
  readonly name: string;
  readonly email: string;
  readonly isAdmin: boolean;
  readonly state: string;
  /** From then on the web UI asks for a new password first; null: never. */
  readonly passwordExpiresAt: Date | null;
  readonly createdAt: Date;
}

export interface TokenRecord {
  readonly id: number;
  readonly userId: number;
  readonly name: string;
  readonly scopes: string[];
  /** `YYYY-MM-DD` or null (never). */
  readonly expiresAt: string | null;
  readonly revoked: boolean;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
}

/** Who is calling the REST API, and with what token. */
export interface Caller {
  readonly user: UserRecord;
  readonly token: TokenRecord;
}

export const TOKEN_SCOPES = ['api', 'read_api'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** `glpat-` + 32 URL-safe random characters (192 bits). */
export const TOKEN_PREFIX = 'glpat-';

/** Whether a token has expired at `now` (it stops at the start of its day, UTC). */
export function isExpired(token: TokenRecord, now: Date): boolean {
  return (
    token.expiresAt !== null &&
    now.getTime() >= Date.parse(`${token.expiresAt}T00:00:00.000Z`)
  );
}
