import { DomainError } from '@quitanda/kernel';

/** Kinvey's error names, as SDKs match them. */
export enum MarketplaceErrorCode {
  MissingConfiguration = 'MissingConfiguration',
  BadRequest = 'BadRequest',
  IncompleteRequestBody = 'IncompleteRequestBody',
  InvalidQuerySyntax = 'InvalidQuerySyntax',
  JSONParseError = 'JSONParseError',
  ParameterValueOutOfRange = 'ParameterValueOutOfRange',
  FeatureUnavailable = 'FeatureUnavailable',
  ResultSetSizeExceeded = 'ResultSetSizeExceeded',
  InvalidCredentials = 'InvalidCredentials',
  InsufficientCredentials = 'InsufficientCredentials',
  AppNotFound = 'AppNotFound',
  CollectionNotFound = 'CollectionNotFound',
  EntityNotFound = 'EntityNotFound',
  UserNotFound = 'UserNotFound',
  BlobNotFound = 'BlobNotFound',
  EndpointDoesNotExist = 'EndpointDoesNotExist',
  OrganizationNotFound = 'OrganizationNotFound',
  EnvironmentNotFound = 'EnvironmentNotFound',
  ServiceNotFound = 'ServiceNotFound',
  UserAlreadyExists = 'UserAlreadyExists',
  DuplicateEntity = 'DuplicateEntity',
  RequestEntityTooLarge = 'RequestEntityTooLarge',
  TooManyRequests = 'TooManyRequests',
  RequestTimeout = 'RequestTimeout',
  KinveyInternalErrorRetry = 'KinveyInternalErrorRetry',
  BLRuntimeError = 'BLRuntimeError',
  BLTimeoutError = 'BLTimeoutError',
}

const INSUFFICIENT =
  'The credentials used to authenticate this request are not authorized to run this operation. Please retry your request with appropriate credentials.';
const NOT_IN_THIS_VERSION =
  'Requested functionality is unavailable in this API version.';
const NEEDS_INFRASTRUCTURE =
  'it needs infrastructure (e-mail, identity providers) this server does not have';

/**
 * What each not-found error names, in plain words, and where: its `debug`
 * is the missing one's name or `_id`.
 */
const MISSING: Partial<
  Record<MarketplaceErrorCode, readonly [string, string]>
> = {
  [MarketplaceErrorCode.AppNotFound]: ['app', ''],
  [MarketplaceErrorCode.CollectionNotFound]: ['collection', ' in this app'],
  [MarketplaceErrorCode.EntityNotFound]: ['record', ' in this collection'],
  [MarketplaceErrorCode.UserNotFound]: ['user', ' in this app'],
  [MarketplaceErrorCode.BlobNotFound]: ['file', ' in this app'],
  [MarketplaceErrorCode.EndpointDoesNotExist]: [
    'custom endpoint',
    ' in this app',
  ],
  [MarketplaceErrorCode.OrganizationNotFound]: ['organization', ''],
  [MarketplaceErrorCode.EnvironmentNotFound]: ['environment', ''],
  [MarketplaceErrorCode.ServiceNotFound]: ['service', ''],
};

/**
 * A Kinvey error: `code` is its name, the message its `description`.
 * Every error the context raises is built by one of the factories below,
 * so each description is written once.
 */
export class MarketplaceError extends DomainError<MarketplaceErrorCode> {
  readonly context = 'marketplace';

  constructor(
    code: MarketplaceErrorCode,
    description: string,
    readonly debug = '',
    details: Readonly<Record<string, unknown>> = {},
  ) {
    super(code, description, details);
  }

  /**
   * Kinvey's descriptions of a missing thing read oddly (`This collection
   * not found for this app backend`): a person reads which one is missing;
   * any other error reads as its description, with its debug detail.
   */
  override get plainMessage(): string {
    const missing = MISSING[this.code];
    if (missing) {
      const [thing, where] = missing;
      return `No ${thing}${this.debug ? ` ${this.debug}` : ''}${where}.`;
    }
    return this.debug ? `${this.message} (${this.debug})` : this.message;
  }

  static badRequest(description: string, debug = ''): MarketplaceError {
    return new MarketplaceError(
      MarketplaceErrorCode.BadRequest,
      description,
      debug,
    );
  }

  /** What the query compiler refuses that is not a syntax error. */
  static invalidRequest(debug: string): MarketplaceError {
    return MarketplaceError.badRequest('The request is invalid.', debug);
  }

  /** A reference field names no user, or no record, of the app. */
  static unknownReference(field: string, target: string): MarketplaceError {
    return MarketplaceError.badRequest(
      `${field} must be the _id of ${target} of this app.`,
      field,
    );
  }

  /** A client-chosen user `_id` that only an app may stand for. */
  static reservedUserId(): MarketplaceError {
    return MarketplaceError.badRequest(
      'The _id is reserved: it may not be an app key or start with kid_.',
      '_id',
    );
  }

  /** A user wrote a record naming another user in a caller-only reference. */
  static notOwnReference(field: string): MarketplaceError {
    return MarketplaceError.badRequest(
      `${field} must be the caller's own _id when a user writes.`,
      field,
    );
  }

  /** Delta sets of a collection that has them turned off. */
  static deltaSetDisabled(name: string): MarketplaceError {
    return new MarketplaceError(
      MarketplaceErrorCode.MissingConfiguration,
      'Delta set is not enabled for this collection.',
      name,
    );
  }

  static badUpload(debug: string): MarketplaceError {
    return MarketplaceError.badRequest(
      'The upload request is not valid.',
      debug,
    );
  }

  static notAnObject(): MarketplaceError {
    return MarketplaceError.badRequest('The body must be a JSON object.');
  }

  static idMismatch(): MarketplaceError {
    return MarketplaceError.badRequest(
      'The _id of the body differs from the URL.',
      '_id',
    );
  }

  static incompleteBody(description: string, debug: string): MarketplaceError {
    return new MarketplaceError(
      MarketplaceErrorCode.IncompleteRequestBody,
      description,
      debug,
    );
  }

  static invalidQuery(
    debug: string,
    description = 'The query is not valid. Please check its syntax.',
  ): MarketplaceError {
    return new MarketplaceError(
      MarketplaceErrorCode.InvalidQuerySyntax,
      description,
      debug,
    );
  }

  static outOfRange(description: string, debug: string): MarketplaceError {
    return new MarketplaceError(
      MarketplaceErrorCode.ParameterValueOutOfRange,
      description,
      debug,
    );
  }

  static featureUnavailable(
    debug: string,
    description = NOT_IN_THIS_VERSION,
  ): MarketplaceError {
    return new MarketplaceError(
      MarketplaceErrorCode.FeatureUnavailable,
      description,
      debug,
    );
  }

  /** Calls that need e-mail or identity providers, which this server lacks. */
  static needsInfrastructure(what: string): MarketplaceError {
    return MarketplaceError.featureUnavailable(
      NEEDS_INFRASTRUCTURE,
      `${what} is not available on this backend.`,
    );
  }

  /**
   * Account mail while `PUBLIC_BASE_URL` is unset: its links would have to
   * follow the request's Host header, which the caller chooses.
   */
  static accountMailNeedsBaseUrl(what: string): MarketplaceError {
    return MarketplaceError.featureUnavailable(
      'PUBLIC_BASE_URL is not set',
      `${what} is off on this backend until its operator sets PUBLIC_BASE_URL, the public address its mailed links use.`,
    );
  }

  static resultSetTooLarge(cap: number): MarketplaceError {
    return new MarketplaceError(
      MarketplaceErrorCode.ResultSetSizeExceeded,
      'Your query produced more than 10,000 results. Please rewrite your query to be more selective.',
      `more than ${cap} results; use limit and skip`,
    );
  }

  static invalidCredentials(
    debug = '',
    description = 'Invalid credentials. Please retry your request with correct credentials.',
  ): MarketplaceError {
    return new MarketplaceError(
      MarketplaceErrorCode.InvalidCredentials,
      description,
      debug,
    );
  }

  static insufficient(debug = ''): MarketplaceError {
    return new MarketplaceError(
      MarketplaceErrorCode.InsufficientCredentials,
      INSUFFICIENT,
      debug,
    );
  }

  static appNotFound(appKey: string): MarketplaceError {
    return new MarketplaceError(
      MarketplaceErrorCode.AppNotFound,
      'This app backend not found',
      appKey,
    );
  }

  static collectionNotFound(name: string): MarketplaceError {
    return new MarketplaceError(
      MarketplaceErrorCode.CollectionNotFound,
      'This collection not found for this app backend',
      name,
    );
  }

  static entityNotFound(id: string): MarketplaceError {
    return new MarketplaceError(
      MarketplaceErrorCode.EntityNotFound,
      'This entity not found in the collection',
      id,
    );
  }

  /**
   * A missing thing of the management API (kinvey-cli tells a name from
   * an id by an error whose code ends in `NotFound`).
   */
  static managedNotFound(
    code:
      | MarketplaceErrorCode.AppNotFound
      | MarketplaceErrorCode.OrganizationNotFound
      | MarketplaceErrorCode.EnvironmentNotFound
      | MarketplaceErrorCode.ServiceNotFound,
    id: string,
  ): MarketplaceError {
    const thing = MISSING[code]?.[0] ?? 'entity';
    return new MarketplaceError(code, `This ${thing} was not found.`, id);
  }

  static userNotFound(id: string): MarketplaceError {
    return new MarketplaceError(
      MarketplaceErrorCode.UserNotFound,
      'This user does not exist for this app backend.',
      id,
    );
  }

  static blobNotFound(id: string): MarketplaceError {
    return new MarketplaceError(
      MarketplaceErrorCode.BlobNotFound,
      'This blob not found for this app backend.',
      id,
    );
  }

  /**
   * A custom endpoint (`/rpc/{appKey}/custom/{name}`) the app does not
   * have, in Kinvey's words: apps show this text to their users.
   */
  static endpointNotFound(name: string): MarketplaceError {
    return new MarketplaceError(
      MarketplaceErrorCode.EndpointDoesNotExist,
      'The custom endpoint you tried to access does not exist. Please configure custom Business Logic endpoints through the Kinvey Console.',
      name,
    );
  }

  static authenticatorNotFound(id: string): MarketplaceError {
    return new MarketplaceError(
      MarketplaceErrorCode.EntityNotFound,
      'Could not find the specified authenticator.',
      id,
    );
  }

  /** A wrong, stale or already used second-factor code (Kinvey's wording). */
  static invalidMfaCode(): MarketplaceError {
    return MarketplaceError.badRequest(
      'Your request body contained invalid or incorrectly formatted data.',
      'code',
    );
  }

  /** A Flex service failed, answered nothing usable, or is unreachable. */
  static blRuntime(debug: string): MarketplaceError {
    return new MarketplaceError(
      MarketplaceErrorCode.BLRuntimeError,
      'The Business Logic script has a runtime error. See debug message for details.',
      debug,
    );
  }

  static blTimeout(debug: string): MarketplaceError {
    return new MarketplaceError(
      MarketplaceErrorCode.BLTimeoutError,
      'The Business Logic script did not complete in time. See debug message for details.',
      debug,
    );
  }

  static usernameTaken(): MarketplaceError {
    return new MarketplaceError(
      MarketplaceErrorCode.UserAlreadyExists,
      'This username is already taken. Please retry your request with a different username',
    );
  }

  static duplicate(description: string, debug = ''): MarketplaceError {
    return new MarketplaceError(
      MarketplaceErrorCode.DuplicateEntity,
      description,
      debug,
    );
  }

  static duplicateId(id: string): MarketplaceError {
    return MarketplaceError.duplicate(
      'An entity with this _id already exists.',
      id,
    );
  }

  static tooLarge(debug: string): MarketplaceError {
    return new MarketplaceError(
      MarketplaceErrorCode.RequestEntityTooLarge,
      'The file is larger than this backend accepts.',
      debug,
    );
  }

  /** App-credential signups from one client address past the hour's limit. */
  static tooManySignups(windowEnd: Date, now: Date): MarketplaceError {
    return new MarketplaceError(
      MarketplaceErrorCode.TooManyRequests,
      'Too many signups from this address. Please retry later.',
      `retry after ${windowEnd.toISOString()}`,
      {
        retryAfterSeconds: Math.max(
          1,
          Math.ceil((windowEnd.getTime() - now.getTime()) / 1000),
        ),
      },
    );
  }

  /** The app's mail of the last hour reached its limit (to one address or all). */
  static tooMuchMail(): MarketplaceError {
    return new MarketplaceError(
      MarketplaceErrorCode.TooManyRequests,
      'This app sent as much e-mail as it may in an hour. Please retry later.',
      'MARKETPLACE_MAIL_PER_ADDRESS_PER_HOUR or MARKETPLACE_MAIL_PER_APP_PER_HOUR',
      { retryAfterSeconds: 3600 },
    );
  }

  static tooManyLogins(lockedUntil: Date, now = new Date()): MarketplaceError {
    return new MarketplaceError(
      MarketplaceErrorCode.TooManyRequests,
      'Too many failed logins for this username. Please retry later.',
      `retry after ${lockedUntil.toISOString()}`,
      {
        retryAfterSeconds: Math.max(
          1,
          Math.ceil((lockedUntil.getTime() - now.getTime()) / 1000),
        ),
      },
    );
  }
}
