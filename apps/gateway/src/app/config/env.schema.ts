import { plainToInstance, Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';
import type { ValidationError } from 'class-validator';
import {
  DEFAULT_DB_TIMEOUT_MS,
  DEFAULT_POOL_SIZE,
} from '@quitanda/database/defaults';
import { DEFAULT_BODY_BUDGET_BYTES } from '@quitanda/http/defaults';
import {
  DEFAULT_ALERTS_POLL_SECONDS,
  DEFAULT_MAX_ARTIFACT_BYTES,
  DEFAULT_MAX_BODY_BYTES as DEFAULT_ERROR_TRACKING_MAX_BODY_BYTES,
  DEFAULT_MAX_ENVELOPE_BYTES,
  DEFAULT_MAX_ENVELOPE_ITEMS,
  DEFAULT_MAX_EVENT_BYTES,
  DEFAULT_MAX_ATTACHMENT_BYTES,
  DEFAULT_MAX_PROJECT_ATTACHMENT_BYTES,
  DEFAULT_RATE_LIMIT_PER_MINUTE,
  DEFAULT_RETENTION_DAYS,
  DEFAULT_RETENTION_INTERVAL_MINUTES,
  DEFAULT_RETRY_DELAYS_SECONDS,
  DEFAULT_SPOOL_MAX_BYTES,
} from '@quitanda/error-tracking/defaults';
import {
  DEFAULT_LOGIN_LOCK_SECONDS,
  DEFAULT_LOGIN_MAX_FAILURES,
  DEFAULT_MAX_BODY_BYTES as DEFAULT_MARKETPLACE_MAX_BODY_BYTES,
  DEFAULT_MAX_COLLECTIONS,
  DEFAULT_MAX_SCHEMA_BYTES,
  DEFAULT_MAIL_PER_ADDRESS_PER_HOUR,
  DEFAULT_MAIL_PER_APP_PER_HOUR,
  DEFAULT_SIGNUPS_PER_CLIENT_PER_HOUR,
  DEFAULT_MAX_UPLOAD_BYTES,
  DEFAULT_SESSION_CACHE_SECONDS,
  DEFAULT_TOKEN_LIFETIME_DAYS,
} from '@quitanda/marketplace/defaults';

export const CONTEXT_NAMES = [
  'marketplace',
  'events',
  'error-tracking',
] as const;
export type ContextName = (typeof CONTEXT_NAMES)[number];

export const LOG_LEVELS = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
  'silent',
] as const;

export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;

/** An integer within [min, max], reported as one problem whatever rule fails. */
function IntRange(min: number, max: number): PropertyDecorator {
  const message = `must be an integer from ${min} to ${max}`;
  const decorators = [
    IsInt({ message }),
    Min(min, { message }),
    Max(max, { message }),
  ];
  return (target, key) =>
    decorators.forEach((decorate) => decorate(target, key));
}

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim())
    ? Number(value)
    : value;

const toBool = ({ value }: { value: unknown }) => {
  if (typeof value !== 'string') return value;
  const normalised = value.trim().toLowerCase();
  if (['true', '1', 'yes'].includes(normalised)) return true;
  if (['false', '0', 'no'].includes(normalised)) return false;
  return value;
};

const toList = ({ value }: { value: unknown }) =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
    : value;

/** Variables whose values must never appear in an error message. */
const SECRET_VARIABLES = new Set([
  'DATABASE_URL',
  'DATABASE_READ_URL',
  'INITIAL_ROOT_TOKEN',
  'EVENTS_WRITE_TOKEN',
  'METRICS_TOKEN',
  'MARKETPLACE_APP_SECRET',
  'MARKETPLACE_MASTER_SECRET',
  'SMTP_URL',
  'ALERTS_ENCRYPTION_KEY',
  'MARKETPLACE_MFA_ENCRYPTION_KEY',
  'MARKETPLACE_MANAGE_ENCRYPTION_KEY',
]);

/**
 * Every environment variable the gateway reads, with its rules. The only
 * place in the codebase that knows about `process.env`.
 */
export class EnvironmentVariables {
  @Transform(toInt)
  @IntRange(0, 65535)
  PORT = 3000;

  @IsString()
  @MinLength(1)
  HOST = '0.0.0.0';

  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'must be a postgres:// URL' })
  DATABASE_URL?: string;

  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'must be a postgres:// URL' })
  DATABASE_READ_URL?: string;

  @IsString()
  @MinLength(1)
  DATA_DIR = './.data';

  @IsOptional()
  @Matches(/^https?:\/\/[^\s?#]+$/, {
    message: 'must be an absolute http(s) URL without query or fragment',
  })
  PUBLIC_BASE_URL?: string;

  /** A separate origin for file URLs, so uploads never share the web UI's. */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s?#]+$/, {
    message: 'must be an absolute http(s) URL without query or fragment',
  })
  FILES_PUBLIC_BASE_URL?: string;

  @Transform(toBool)
  @IsBoolean({ message: 'must be true or false' })
  TRUST_PROXY = false;

  @Transform(toList)
  @IsIn(CONTEXT_NAMES, {
    each: true,
    message: `must list some of ${CONTEXT_NAMES.join(', ')}`,
  })
  @MinLength(1, { each: true })
  CONTEXTS: string[] = [...CONTEXT_NAMES];

  @IsIn(['auto', 'off'], { message: 'must be auto or off' })
  MIGRATIONS: 'auto' | 'off' = 'auto';

  @IsOptional()
  @IsString()
  @MinLength(20, { message: 'must be at least 20 characters' })
  @MaxLength(255)
  INITIAL_ROOT_TOKEN?: string;

  @IsOptional()
  @Matches(/^kid_[A-Za-z0-9]{4,64}$/, {
    message: 'must look like kid_<letters and digits>',
  })
  MARKETPLACE_APP_KEY?: string;

  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'must be at least 16 characters' })
  MARKETPLACE_APP_SECRET?: string;

  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'must be at least 16 characters' })
  MARKETPLACE_MASTER_SECRET?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  MARKETPLACE_APP_NAME?: string;

  @IsIn(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: (typeof LOG_LEVELS)[number] = 'info';

  /** `auto`: readable lines on a terminal, JSON lines anywhere else. */
  @IsIn(LOG_FORMATS, { message: 'must be auto, json or pretty' })
  LOG_FORMAT: (typeof LOG_FORMATS)[number] = 'auto';

  /** Gateway processes on one port: a number, or `auto` (one per core). */
  @Matches(/^(auto|[1-9]\d{0,2})$/, {
    message: 'must be auto or a number of processes from 1 to 999',
  })
  WORKERS = '1';

  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'must be at least 16 characters' })
  EVENTS_WRITE_TOKEN?: string;

  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'must be at least 16 characters' })
  @MaxLength(255)
  METRICS_TOKEN?: string;

  @Transform(toInt)
  @IntRange(1, 3650)
  ERROR_TRACKING_RETENTION_DAYS = DEFAULT_RETENTION_DAYS;

  @Transform(toInt)
  @IntRange(0, 60)
  ERROR_TRACKING_RETENTION_INTERVAL_MINUTES =
    DEFAULT_RETENTION_INTERVAL_MINUTES;

  @Transform(toInt)
  @IntRange(0, 100_000_000)
  ERROR_TRACKING_RATE_LIMIT_PER_MINUTE = DEFAULT_RATE_LIMIT_PER_MINUTE;

  @Transform(toInt)
  @IntRange(1_024, 1_073_741_824)
  ERROR_TRACKING_MAX_BODY_BYTES = DEFAULT_ERROR_TRACKING_MAX_BODY_BYTES;

  @Transform(toInt)
  @IntRange(1_024, 1_073_741_824)
  ERROR_TRACKING_MAX_ENVELOPE_BYTES = DEFAULT_MAX_ENVELOPE_BYTES;

  @Transform(toInt)
  @IntRange(1, 1_000_000)
  ERROR_TRACKING_MAX_ENVELOPE_ITEMS = DEFAULT_MAX_ENVELOPE_ITEMS;

  @Transform(toInt)
  @IntRange(1_024, 104_857_600)
  ERROR_TRACKING_MAX_EVENT_BYTES = DEFAULT_MAX_EVENT_BYTES;

  @Transform(toInt)
  @IntRange(0, 1_073_741_824)
  ERROR_TRACKING_MAX_ATTACHMENT_BYTES = DEFAULT_MAX_ATTACHMENT_BYTES;

  @Transform(toInt)
  @IntRange(0, 1_099_511_627_776)
  ERROR_TRACKING_MAX_PROJECT_ATTACHMENT_BYTES =
    DEFAULT_MAX_PROJECT_ATTACHMENT_BYTES;

  @Transform(toInt)
  @IntRange(1_024, 1_073_741_824)
  ERROR_TRACKING_MAX_ARTIFACT_BYTES = DEFAULT_MAX_ARTIFACT_BYTES;

  @Transform(toInt)
  @IntRange(1_024, 1_099_511_627_776)
  ERROR_TRACKING_SPOOL_MAX_BYTES = DEFAULT_SPOOL_MAX_BYTES;

  @Transform(toInt)
  @IntRange(5, 525_600)
  ERROR_TRACKING_SESSION_MINUTES = 10_080;

  @Transform(toInt)
  @IntRange(1, 1_000)
  ERROR_TRACKING_SIGN_IN_MAX_FAILURES = 10;

  @Transform(toInt)
  @IntRange(1, 86_400)
  ERROR_TRACKING_SIGN_IN_LOCK_SECONDS = 900;

  @IsOptional()
  @Matches(/^smtps?:\/\/\S+$/, {
    message: 'must be an smtp:// or smtps:// URL',
  })
  SMTP_URL?: string;

  @IsOptional()
  @IsString()
  @MinLength(3)
  @MaxLength(320)
  @Matches(/^[^\r\n]*@[^\r\n]*$/, { message: 'must be an e-mail address' })
  ALERTS_FROM?: string;

  @Transform(toBool)
  @IsBoolean({ message: 'must be true or false' })
  ALERTS_ALLOW_LOCAL_TARGETS = false;

  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string'
      ? value.split(',').map((item) => toInt({ value: item.trim() }))
      : value,
  )
  @IsInt({ each: true, message: 'must be a comma-separated list of seconds' })
  @Min(1, { each: true, message: 'must be a comma-separated list of seconds' })
  @Max(86_400, {
    each: true,
    message: 'must be a comma-separated list of seconds',
  })
  @ArrayMinSize(1, { message: 'must be a comma-separated list of seconds' })
  @ArrayMaxSize(10, { message: 'must list at most 10 delays' })
  ALERTS_RETRY_DELAYS_SECONDS: number[] = [...DEFAULT_RETRY_DELAYS_SECONDS];

  @Transform(toInt)
  @IntRange(0, 3_600)
  ALERTS_POLL_SECONDS = DEFAULT_ALERTS_POLL_SECONDS;

  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'must be at least 32 characters' })
  ALERTS_ENCRYPTION_KEY?: string;

  @Transform(toInt)
  @IntRange(1, 3650)
  MARKETPLACE_TOKEN_LIFETIME_DAYS = DEFAULT_TOKEN_LIFETIME_DAYS;

  @Transform(toInt)
  @IntRange(1, 1_073_741_824)
  MARKETPLACE_MAX_UPLOAD_BYTES = DEFAULT_MAX_UPLOAD_BYTES;

  @Transform(toInt)
  @IntRange(1_024, 104_857_600)
  MARKETPLACE_MAX_BODY_BYTES = DEFAULT_MARKETPLACE_MAX_BODY_BYTES;

  @Transform(toInt)
  @IntRange(1, 1_000)
  MARKETPLACE_LOGIN_MAX_FAILURES = DEFAULT_LOGIN_MAX_FAILURES;

  @Transform(toInt)
  @IntRange(1, 86_400)
  MARKETPLACE_LOGIN_LOCK_SECONDS = DEFAULT_LOGIN_LOCK_SECONDS;

  @Transform(toInt)
  @IntRange(0, 300)
  MARKETPLACE_SESSION_CACHE_SECONDS = DEFAULT_SESSION_CACHE_SECONDS;

  /** Collections one app may declare. */
  @Transform(toInt)
  @IntRange(1, 10_000)
  MARKETPLACE_MAX_COLLECTIONS = DEFAULT_MAX_COLLECTIONS;

  /** Largest JSON Schema of a collection, in bytes. */
  @Transform(toInt)
  @IntRange(1024, 1024 * 1024)
  MARKETPLACE_MAX_SCHEMA_BYTES = DEFAULT_MAX_SCHEMA_BYTES;

  /** Account mail one address may get from an app in an hour. */
  @Transform(toInt)
  @IntRange(1, 1_000)
  MARKETPLACE_MAIL_PER_ADDRESS_PER_HOUR = DEFAULT_MAIL_PER_ADDRESS_PER_HOUR;

  /** Account mail one app may send in an hour. */
  @Transform(toInt)
  @IntRange(1, 1_000_000)
  MARKETPLACE_MAIL_PER_APP_PER_HOUR = DEFAULT_MAIL_PER_APP_PER_HOUR;

  /** Signups with app credentials from one client address, per app and hour. */
  @Transform(toInt)
  @IntRange(1, 1_000_000)
  MARKETPLACE_SIGNUPS_PER_CLIENT_PER_HOUR = DEFAULT_SIGNUPS_PER_CLIENT_PER_HOUR;

  /** Seals users' TOTP secrets; without it MFA answers FeatureUnavailable. */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'must be at least 32 characters' })
  MARKETPLACE_MFA_ENCRYPTION_KEY?: string;

  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'must be at least 32 characters' })
  MARKETPLACE_MANAGE_ENCRYPTION_KEY?: string;

  @Transform(toInt)
  @IntRange(1, 200)
  DB_POOL_SIZE = DEFAULT_POOL_SIZE;

  @Transform(toInt)
  @IntRange(100, 600_000)
  DB_TIMEOUT_MS = DEFAULT_DB_TIMEOUT_MS;

  @Transform(toBool)
  @IsBoolean({ message: 'must be true or false' })
  DB_PREPARED_STATEMENTS = true;

  @Transform(toInt)
  @IntRange(0, 300_000)
  SHUTDOWN_TIMEOUT_MS = 15_000;

  @Transform(toInt)
  @IntRange(100, 600_000)
  HTTP_HEADERS_TIMEOUT_MS = 15_000;

  @Transform(toInt)
  @IntRange(100, 3_600_000)
  HTTP_REQUEST_TIMEOUT_MS = 60_000;

  /**
   * nginx's `keepalive_timeout`: longer than clients pool an idle
   * connection, whose reuse would race the close (docs/decisions.md).
   */
  @Transform(toInt)
  @IntRange(100, 600_000)
  HTTP_KEEP_ALIVE_TIMEOUT_MS = 75_000;

  @Transform(toInt)
  @IntRange(1, 1_000_000)
  HTTP_MAX_CONNECTIONS = 2_048;

  /** Kestrel's default floor for a request body's average rate; 0: none. */
  @Transform(toInt)
  @IntRange(0, 1_073_741_824)
  HTTP_MIN_BODY_BYTES_PER_SECOND = 240;

  @Transform(toInt)
  @IntRange(100, 3_600_000)
  HTTP_BODY_RATE_GRACE_MS = 5_000;

  /** Request body bytes held in memory at once, all requests together. */
  @Transform(toInt)
  @IntRange(1_048_576, 4_294_967_296)
  HTTP_BODY_BUDGET_BYTES = DEFAULT_BODY_BUDGET_BYTES;
}

export class ConfigurationError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(
      `Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.name = 'ConfigurationError';
  }
}

function describe(
  error: ValidationError,
  env: Record<string, string | undefined>,
): string[] {
  const name = error.property;
  const shown = SECRET_VARIABLES.has(name)
    ? '(value hidden)'
    : JSON.stringify(env[name]);
  const messages = new Set(
    Object.values(error.constraints ?? {}).map((constraint) =>
      constraint.startsWith(`${name} `)
        ? constraint.slice(name.length + 1)
        : constraint,
    ),
  );
  return [`${name} ${[...messages].join('; ')}; got ${shown}`];
}

/**
 * Validates the environment; throws `ConfigurationError` naming every bad
 * variable. Empty values count as unset.
 */
export function validateEnvironment(
  env: Record<string, string | undefined>,
): EnvironmentVariables {
  const known = Object.keys(new EnvironmentVariables());
  const optional = [
    'DATABASE_URL',
    'DATABASE_READ_URL',
    'PUBLIC_BASE_URL',
    'FILES_PUBLIC_BASE_URL',
    'INITIAL_ROOT_TOKEN',
    'MARKETPLACE_APP_KEY',
    'MARKETPLACE_APP_SECRET',
    'MARKETPLACE_MASTER_SECRET',
    'MARKETPLACE_APP_NAME',
    'EVENTS_WRITE_TOKEN',
    'METRICS_TOKEN',
    'SMTP_URL',
    'ALERTS_FROM',
    'ALERTS_ENCRYPTION_KEY',
    'MARKETPLACE_MFA_ENCRYPTION_KEY',
    'MARKETPLACE_MANAGE_ENCRYPTION_KEY',
  ];
  const present: Record<string, string> = {};
  for (const name of [...known, ...optional]) {
    const value = env[name];
    if (value !== undefined && value !== '') present[name] = value;
  }
  const variables = plainToInstance(EnvironmentVariables, present);
  const errors = validateSync(variables, { forbidUnknownValues: false });
  const problems = errors.flatMap((error) => describe(error, env));
  const marketplace = [
    'MARKETPLACE_APP_KEY',
    'MARKETPLACE_APP_SECRET',
    'MARKETPLACE_MASTER_SECRET',
  ].filter((name) => present[name] !== undefined);
  if (marketplace.length > 0 && marketplace.length < 3) {
    problems.push(
      'MARKETPLACE_APP_KEY, MARKETPLACE_APP_SECRET and MARKETPLACE_MASTER_SECRET must be set together',
    );
  }
  if (present['DATABASE_READ_URL'] && !present['DATABASE_URL']) {
    problems.push(
      'DATABASE_READ_URL needs DATABASE_URL (a replica of that server; the embedded database has none)',
    );
  }
  if (
    (present['SMTP_URL'] === undefined) !==
    (present['ALERTS_FROM'] === undefined)
  ) {
    problems.push('SMTP_URL and ALERTS_FROM must be set together');
  }
  if (variables.HTTP_HEADERS_TIMEOUT_MS > variables.HTTP_REQUEST_TIMEOUT_MS) {
    problems.push(
      'HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS (the headers are part of the request)',
    );
  }
  if (Array.isArray(variables.CONTEXTS) && variables.CONTEXTS.length === 0) {
    problems.push('CONTEXTS must name at least one context');
  }
  if (problems.length > 0) throw new ConfigurationError(problems);
  return variables;
}
