import { Inject, Injectable } from '@nestjs/common';
import { isUniqueViolation } from '@quitanda/database';
import {
  CLOCK,
  DUMMY_PASSWORD_HASH,
  hashPassword,
  hashToken,
  randomToken,
  verifyPassword,
} from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { ErrorTrackingError } from '../common/error-tracking.errors';
import { TOKEN_PREFIX, isExpired } from './account.types';
import type { Caller, TokenRecord, UserRecord } from './account.types';
import { AccountsRepository } from './accounts.repository';
import { InitialCredentialsRetirement } from './initial-credentials-retirement';

export interface CreateUserInput {
  readonly username: string;
  readonly name: string;
  readonly email: string;
  readonly password?: string;
  readonly isAdmin?: boolean;
}

export interface CreateTokenInput {
  readonly name: string;
  readonly scopes: readonly string[];
  readonly expiresAt?: string | null;
}

/** A new token's record and its secret, shown once. */
export interface IssuedToken {
  readonly record: TokenRecord;
  readonly token: string;
}

export const MIN_PASSWORD_LENGTH = 8;
const USERNAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,254}$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** A fresh `glpat-` token: 24 random bytes, URL-safe. */
export function newAccessToken(): string {
  return `${TOKEN_PREFIX}${randomToken(24)}`;
}

function isDay(value: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}$/.test(value) &&
    !Number.isNaN(Date.parse(`${value}T00:00:00Z`))
  );
}

/** Users, their access tokens, and turning a token into a caller. */
@Injectable()
export class AccountsService {
  constructor(
    private readonly repository: AccountsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly initialCredentials: InitialCredentialsRetirement,
  ) {}

  /** 401 unless `secret` is a live token of an active user. */
  async authenticate(secret: string | undefined): Promise<Caller> {
    if (!secret || secret.length > 512) throw ErrorTrackingError.unauthorized();
    const found = await this.repository.findTokenByDigest(hashToken(secret));
    const now = this.clock.now();
    if (
      !found ||
      found.token.revoked ||
      isExpired(found.token, now) ||
      found.user.state !== 'active'
    )
      throw ErrorTrackingError.unauthorized();
    if (
      !found.token.lastUsedAt ||
      now.getTime() - found.token.lastUsedAt.getTime() > 600_000
    )
      await this.repository.touchToken(found.token.id, now);
    return found;
  }

  /**
   * The active user with this username and password, else undefined. An
   * unknown name costs one hash check too, so timing reveals nothing.
   */
  async checkPassword(
    username: string,
    password: string,
  ): Promise<UserRecord | undefined> {
    const found =
      username.length <= 255
        ? await this.repository.findCredentials(username)
        : undefined;
    const ok = await verifyPassword(
      password,
      found?.passwordHash ?? DUMMY_PASSWORD_HASH,
    );
    return ok && found?.passwordHash && found.user.state === 'active'
      ? found.user
      : undefined;
  }

  /** Sets the web UI password of an existing user (the CLI's users:set-password). */
  async setPassword(username: string, password: string): Promise<UserRecord> {
    if (password.length < MIN_PASSWORD_LENGTH)
      throw ErrorTrackingError.validation({
        password: [
          `is too short (minimum is ${MIN_PASSWORD_LENGTH} characters)`,
        ],
      });
    const user = await this.getUserByUsername(username);
    await this.repository.setPasswordHash(
      user.id,
      await hashPassword(password),
    );
    await this.initialCredentials.passwordReplaced(user);
    return user;
  }

  /**
   * A signed-in user replaces their own password (the web UI's form, which
   * an expired one leads to): the current one must be right and the new
   * one long enough, confirmed and different. Ends the user's sessions.
   */
  async changeOwnPassword(
    user: UserRecord,
    change: {
      readonly current: string;
      readonly password: string;
      readonly confirmation: string;
    },
  ): Promise<void> {
    const problems: Record<string, string[]> = {};
    if (!(await this.checkPassword(user.username, change.current)))
      problems['current_password'] = [
        'You must provide a valid current password',
      ];
    else if (change.password === change.current)
      problems['password'] = ['must differ from the current one'];
    if (change.password.length < MIN_PASSWORD_LENGTH)
      problems['password'] = [
        `is too short (minimum is ${MIN_PASSWORD_LENGTH} characters)`,
      ];
    else if (change.confirmation !== change.password)
      problems['password_confirmation'] = ["doesn't match Password"];
    if (Object.keys(problems).length > 0)
      throw ErrorTrackingError.validation(problems);
    await this.repository.setPasswordHash(
      user.id,
      await hashPassword(change.password),
    );
    await this.initialCredentials.passwordReplaced(user);
  }

  async createUser(input: CreateUserInput): Promise<UserRecord> {
    const problems: Record<string, string[]> = {};
    if (!USERNAME.test(input.username))
      problems['username'] = [
        'can contain only letters, digits, "_", "-" and "."',
      ];
    if (!EMAIL.test(input.email)) problems['email'] = ['is invalid'];
    if (
      input.password !== undefined &&
      input.password.length < MIN_PASSWORD_LENGTH
    )
      problems['password'] = [
        `is too short (minimum is ${MIN_PASSWORD_LENGTH} characters)`,
      ];
    if (Object.keys(problems).length > 0)
      throw ErrorTrackingError.validation(problems);
    const passwordHash =
      input.password === undefined ? null : await hashPassword(input.password);
    try {
      return await this.repository.insertUser({
        username: input.username,
        name: input.name,
        email: input.email,
        isAdmin: input.isAdmin ?? false,
        passwordHash,
        createdAt: this.clock.now(),
      });
    } catch (error) {
      if (isUniqueViolation(error, 'users_username_lower_key'))
        throw ErrorTrackingError.conflict('Username has already been taken');
      if (isUniqueViolation(error, 'users_email_lower_key'))
        throw ErrorTrackingError.conflict('Email has already been taken');
      throw error;
    }
  }

  async getUser(id: number): Promise<UserRecord> {
    const user = await this.repository.findUser(id);
    if (!user) throw ErrorTrackingError.notFound('User');
    return user;
  }

  async getUserByUsername(username: string): Promise<UserRecord> {
    const user = await this.repository.findUserByUsername(username);
    if (!user)
      throw ErrorTrackingError.notFound('User', `No user named ${username}.`);
    return user;
  }

  listUsers(
    limit: number,
    offset: number,
  ): Promise<{ users: UserRecord[]; total: number }> {
    return this.repository.listUsers(limit, offset);
  }

  /** Validates a token request; returns the problems in GitLab's words. */
  tokenProblems(input: CreateTokenInput): string[] {
    const problems: string[] = [];
    if (input.scopes.length === 0) problems.push('scopes is empty');
    else if (input.scopes.some((s) => s !== 'api' && s !== 'read_api'))
      problems.push('scopes does not have a valid value');
    if (input.expiresAt) {
      if (!isDay(input.expiresAt)) problems.push('expires_at is invalid');
      else if (input.expiresAt <= this.clock.now().toISOString().slice(0, 10))
        problems.push('expires_at must be in the future');
    }
    return problems;
  }

  async createToken(
    userId: number,
    input: CreateTokenInput,
    secret = newAccessToken(),
  ): Promise<IssuedToken> {
    const problems = this.tokenProblems(input);
    if (problems.length > 0)
      throw ErrorTrackingError.invalidParameter(problems.join(', '));
    await this.getUser(userId);
    const record = await this.repository.insertToken({
      userId,
      name: input.name,
      digest: hashToken(secret),
      scopes: [...new Set(input.scopes)],
      expiresAt: input.expiresAt ?? null,
      createdAt: this.clock.now(),
    });
    if (!record)
      throw ErrorTrackingError.conflict('Token has already been taken');
    return { record, token: secret };
  }

  listTokens(userId: number): Promise<TokenRecord[]> {
    return this.repository.listTokens(userId);
  }

  /** Revokes a token of the caller (any token for an admin); 404 otherwise. */
  async revokeToken(caller: Caller, id: number): Promise<void> {
    const token = await this.repository.findToken(id);
    if (!token || (token.userId !== caller.user.id && !caller.user.isAdmin))
      throw ErrorTrackingError.notFound();
    await this.repository.revokeToken(id);
  }
}
