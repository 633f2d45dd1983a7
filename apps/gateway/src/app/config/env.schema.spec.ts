import { availableParallelism } from 'node:os';

import { ConfigurationError, validateEnvironment } from './env.schema';
import { loadConfig } from './gateway-config';

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    validateEnvironment(env);
  } catch (error) {
    if (error instanceof ConfigurationError) return error.problems;
    throw error;
  }
  return [];
}

describe('environment validation', () => {
  it('applies the documented defaults to an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: undefined,
      trustProxy: false,
      migrations: 'auto',
      logLevel: 'info',
    });
    expect([...config.contexts]).toEqual([
      'marketplace',
      'events',
      'error-tracking',
    ]);
    expect(config.dataDir).toMatch(/\.data$/);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).port).toBe(3000);
  });

  it('parses typed values', () => {
    const config = loadConfig({
      PORT: '8080',
      TRUST_PROXY: 'true',
      CONTEXTS: 'events, error-tracking',
      PUBLIC_BASE_URL: 'https://q.example.com/base/',
      FILES_PUBLIC_BASE_URL: 'https://files.example.net/',
      DATABASE_URL: 'postgres://u:p@db:5432/app',
    });
    expect(config.port).toBe(8080);
    expect(config.trustProxy).toBe(true);
    expect([...config.contexts]).toEqual(['events', 'error-tracking']);
    expect(config.publicBaseUrl).toBe('https://q.example.com/base');
    expect(config.marketplace.filesPublicBaseUrl).toBe(
      'https://files.example.net',
    );
    expect(loadConfig({}).marketplace.filesPublicBaseUrl).toBeUndefined();
    expect(problemsOf({ FILES_PUBLIC_BASE_URL: 'files.example.net' })).toEqual([
      'FILES_PUBLIC_BASE_URL must be an absolute http(s) URL without query or fragment; got "files.example.net"',
    ]);
  });

  it('parses the alert settings, hiding secrets in its messages', () => {
    expect(loadConfig({}).alerts).toEqual({
      smtpUrl: undefined,
      from: undefined,
      allowLocalTargets: false,
      retryDelaysSeconds: [60, 300, 1_800, 7_200, 21_600],
      pollSeconds: 10,
      encryptionKey: undefined,
    });
    expect(
      loadConfig({
        SMTP_URL: 'smtps://alerts:pw@mail.example.com:465',
        ALERTS_FROM: 'Quitanda <alerts@example.com>',
        ALERTS_ALLOW_LOCAL_TARGETS: 'true',
        ALERTS_RETRY_DELAYS_SECONDS: '1, 2,3',
        ALERTS_POLL_SECONDS: '1',
        ALERTS_ENCRYPTION_KEY: 'k'.repeat(32),
      }).alerts,
    ).toEqual({
      smtpUrl: 'smtps://alerts:pw@mail.example.com:465',
      from: 'Quitanda <alerts@example.com>',
      allowLocalTargets: true,
      retryDelaysSeconds: [1, 2, 3],
      pollSeconds: 1,
      encryptionKey: 'k'.repeat(32),
    });
    const problems = problemsOf({
      SMTP_URL: 'http://user:hunter2@mail',
      ALERTS_RETRY_DELAYS_SECONDS: '60,soon',
      ALERTS_POLL_SECONDS: '-1',
      ALERTS_ENCRYPTION_KEY: 'short-secret',
    }).join('\n');
    expect(problems).toMatch(
      /^SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL; got \(value hidden\)/m,
    );
    expect(problems).toMatch(
      /^ALERTS_RETRY_DELAYS_SECONDS must be a comma-separated list of seconds/m,
    );
    expect(problems).toMatch(/^ALERTS_POLL_SECONDS must be an integer/m);
    expect(problems).toMatch(
      /^ALERTS_ENCRYPTION_KEY must be at least 32 characters; got \(value hidden\)/m,
    );
    expect(problems).toMatch(
      /^SMTP_URL and ALERTS_FROM must be set together$/m,
    );
    expect(problems).not.toContain('hunter2');
    expect(problems).not.toContain('short-secret');
  });

  it('parses and bounds the error-tracking knobs', () => {
    expect(loadConfig({}).errorTracking).toEqual({
      retentionDays: 90,
      retentionIntervalMinutes: 60,
      rateLimitPerMinute: 6_000,
      maxBodyBytes: 100 * 1024 * 1024,
      maxEnvelopeBytes: 100 * 1024 * 1024,
      maxEnvelopeItems: 1_000,
      maxEventBytes: 1024 * 1024,
      maxAttachmentBytes: 20 * 1024 * 1024,
      maxProjectAttachmentBytes: 1024 * 1024 * 1024,
      maxArtifactBytes: 50 * 1024 * 1024,
      spoolMaxBytes: 1024 * 1024 * 1024,
      sessionMinutes: 10_080,
      signInMaxFailures: 10,
      signInLockSeconds: 900,
    });
    expect(
      loadConfig({
        ERROR_TRACKING_RETENTION_DAYS: '30',
        ERROR_TRACKING_RETENTION_INTERVAL_MINUTES: '0',
        ERROR_TRACKING_RATE_LIMIT_PER_MINUTE: '120',
        ERROR_TRACKING_MAX_BODY_BYTES: '65536',
        ERROR_TRACKING_MAX_ENVELOPE_BYTES: '131072',
        ERROR_TRACKING_MAX_ENVELOPE_ITEMS: '50',
        ERROR_TRACKING_MAX_EVENT_BYTES: '4096',
        ERROR_TRACKING_MAX_ATTACHMENT_BYTES: '0',
        ERROR_TRACKING_MAX_PROJECT_ATTACHMENT_BYTES: '8192',
        ERROR_TRACKING_MAX_ARTIFACT_BYTES: '2048',
        ERROR_TRACKING_SPOOL_MAX_BYTES: '16384',
        ERROR_TRACKING_SESSION_MINUTES: '60',
        ERROR_TRACKING_SIGN_IN_MAX_FAILURES: '3',
        ERROR_TRACKING_SIGN_IN_LOCK_SECONDS: '30',
      }).errorTracking,
    ).toEqual({
      retentionDays: 30,
      retentionIntervalMinutes: 0,
      rateLimitPerMinute: 120,
      maxBodyBytes: 65_536,
      maxEnvelopeBytes: 131_072,
      maxEnvelopeItems: 50,
      maxEventBytes: 4_096,
      maxAttachmentBytes: 0,
      maxProjectAttachmentBytes: 8_192,
      maxArtifactBytes: 2_048,
      spoolMaxBytes: 16_384,
      sessionMinutes: 60,
      signInMaxFailures: 3,
      signInLockSeconds: 30,
    });
    const problems = problemsOf({
      ERROR_TRACKING_RETENTION_DAYS: '0',
      ERROR_TRACKING_RETENTION_INTERVAL_MINUTES: '61',
      ERROR_TRACKING_RATE_LIMIT_PER_MINUTE: '-1',
      ERROR_TRACKING_MAX_BODY_BYTES: '10',
      ERROR_TRACKING_MAX_ENVELOPE_BYTES: 'lots',
      ERROR_TRACKING_MAX_ENVELOPE_ITEMS: '0',
      ERROR_TRACKING_MAX_EVENT_BYTES: '1.5',
      ERROR_TRACKING_MAX_ATTACHMENT_BYTES: '-1',
      ERROR_TRACKING_MAX_PROJECT_ATTACHMENT_BYTES: 'many',
      ERROR_TRACKING_MAX_ARTIFACT_BYTES: '1000',
      ERROR_TRACKING_SPOOL_MAX_BYTES: '1023',
      ERROR_TRACKING_SESSION_MINUTES: '4',
      ERROR_TRACKING_SIGN_IN_MAX_FAILURES: '0',
      ERROR_TRACKING_SIGN_IN_LOCK_SECONDS: '86401',
    }).join('\n');
    for (const name of [
      'ERROR_TRACKING_RETENTION_DAYS',
      'ERROR_TRACKING_RETENTION_INTERVAL_MINUTES',
      'ERROR_TRACKING_RATE_LIMIT_PER_MINUTE',
      'ERROR_TRACKING_MAX_BODY_BYTES',
      'ERROR_TRACKING_MAX_ENVELOPE_BYTES',
      'ERROR_TRACKING_MAX_ENVELOPE_ITEMS',
      'ERROR_TRACKING_MAX_EVENT_BYTES',
      'ERROR_TRACKING_MAX_ATTACHMENT_BYTES',
      'ERROR_TRACKING_MAX_PROJECT_ATTACHMENT_BYTES',
      'ERROR_TRACKING_MAX_ARTIFACT_BYTES',
      'ERROR_TRACKING_SPOOL_MAX_BYTES',
      'ERROR_TRACKING_SESSION_MINUTES',
      'ERROR_TRACKING_SIGN_IN_MAX_FAILURES',
      'ERROR_TRACKING_SIGN_IN_LOCK_SECONDS',
    ]) {
      expect(problems).toMatch(new RegExp(`^${name} must be an integer`, 'm'));
    }
  });

  it('bounds the marketplace session cache (0 turns it off)', () => {
    expect(loadConfig({}).marketplace.sessionCacheSeconds).toBe(5);
    expect(
      loadConfig({ MARKETPLACE_SESSION_CACHE_SECONDS: '0' }).marketplace
        .sessionCacheSeconds,
    ).toBe(0);
    for (const bad of ['-1', '301', 'soon'])
      expect(problemsOf({ MARKETPLACE_SESSION_CACHE_SECONDS: bad })).toEqual([
        expect.stringContaining('MARKETPLACE_SESSION_CACHE_SECONDS'),
      ]);
  });

  it('bounds the body bytes buffered at once (32 MiB unless told)', () => {
    expect(loadConfig({}).bodyBudgetBytes).toBe(32 * 1024 * 1024);
    expect(
      loadConfig({ HTTP_BODY_BUDGET_BYTES: '10485760' }).bodyBudgetBytes,
    ).toBe(10_485_760);
    expect(problemsOf({ HTTP_BODY_BUDGET_BYTES: '1000' })).toEqual([
      expect.stringMatching(/^HTTP_BODY_BUDGET_BYTES must be an integer/),
    ]);
  });

  it('limits collections per app and schema size, 100 and 64 KiB by default', () => {
    const { marketplace } = loadConfig({});
    expect(marketplace.maxCollections).toBe(100);
    expect(marketplace.maxSchemaBytes).toBe(65_536);
    expect(
      loadConfig({ MARKETPLACE_MAX_COLLECTIONS: '5' }).marketplace
        .maxCollections,
    ).toBe(5);
    for (const [name, bad] of [
      ['MARKETPLACE_MAX_COLLECTIONS', '0'],
      ['MARKETPLACE_MAX_SCHEMA_BYTES', '10'],
    ])
      expect(problemsOf({ [name]: bad })).toEqual([
        expect.stringContaining(name),
      ]);
  });

  it('sends named prepared statements unless told not to', () => {
    expect(loadConfig({}).dbPreparedStatements).toBe(true);
    expect(
      loadConfig({ DB_PREPARED_STATEMENTS: 'false' }).dbPreparedStatements,
    ).toBe(false);
    expect(problemsOf({ DB_PREPARED_STATEMENTS: 'sometimes' })).toEqual([
      expect.stringMatching(/^DB_PREPARED_STATEMENTS must be true or false/),
    ]);
  });

  it('bounds what one HTTP connection may hold, headers within the request', () => {
    expect(loadConfig({}).http).toEqual({
      headersTimeoutMs: 15_000,
      requestTimeoutMs: 60_000,
      keepAliveTimeoutMs: 75_000,
      maxConnections: 2_048,
      minBodyBytesPerSecond: 240,
      bodyRateGraceMs: 5_000,
    });
    expect(
      loadConfig({
        HTTP_HEADERS_TIMEOUT_MS: '500',
        HTTP_REQUEST_TIMEOUT_MS: '1000',
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '65000',
        HTTP_MAX_CONNECTIONS: '10',
        HTTP_MIN_BODY_BYTES_PER_SECOND: '0',
        HTTP_BODY_RATE_GRACE_MS: '2000',
      }).http,
    ).toEqual({
      headersTimeoutMs: 500,
      requestTimeoutMs: 1_000,
      keepAliveTimeoutMs: 65_000,
      maxConnections: 10,
      minBodyBytesPerSecond: 0,
      bodyRateGraceMs: 2_000,
    });
    for (const [name, bad] of [
      ['HTTP_HEADERS_TIMEOUT_MS', '0'],
      ['HTTP_REQUEST_TIMEOUT_MS', 'forever'],
      ['HTTP_KEEP_ALIVE_TIMEOUT_MS', '-1'],
      ['HTTP_MAX_CONNECTIONS', '0'],
      ['HTTP_MIN_BODY_BYTES_PER_SECOND', '-1'],
      ['HTTP_BODY_RATE_GRACE_MS', '0'],
    ] as const)
      expect(problemsOf({ [name]: bad })).toEqual([
        expect.stringMatching(new RegExp(`^${name} must be an integer`)),
      ]);
    expect(
      problemsOf({
        HTTP_HEADERS_TIMEOUT_MS: '20000',
        HTTP_REQUEST_TIMEOUT_MS: '10000',
      }),
    ).toEqual([
      expect.stringMatching(
        /^HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS/,
      ),
    ]);
  });

  it('takes an optional metrics token of 16+ characters, never repeating it', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(
      loadConfig({ METRICS_TOKEN: 'metrics-token-0123456789' }).metricsToken,
    ).toBe('metrics-token-0123456789');
    expect(problemsOf({ METRICS_TOKEN: 'short-secret' })).toEqual([
      'METRICS_TOKEN must be at least 16 characters; got (value hidden)',
    ]);
  });

  it('names every bad variable at once', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      TRUST_PROXY: 'maybe',
      CONTEXTS: 'events,billing',
      MIGRATIONS: 'sometimes',
      LOG_LEVEL: 'loud',
    });
    expect(problems).toContain(
      'PORT must be an integer from 0 to 65535; got "eighty"',
    );
    expect(problems.join('\n')).toMatch(/^TRUST_PROXY must be true or false/m);
    expect(problems.join('\n')).toMatch(/^CONTEXTS must list some of/m);
    expect(problems.join('\n')).toMatch(/^MIGRATIONS must be auto or off/m);
    expect(problems.join('\n')).toMatch(/^LOG_LEVEL must be one of/m);
  });

  it('takes LOG_FORMAT auto (the default), json or pretty', () => {
    expect(loadConfig({}).logFormat).toBe('auto');
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(problemsOf({ LOG_FORMAT: 'yaml' })).toEqual([
      'LOG_FORMAT must be auto, json or pretty; got "yaml"',
    ]);
  });

  it('takes WORKERS 1 (the default), a number or auto (one per core)', () => {
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig({ WORKERS: '4' }).workers).toBe(4);
    expect(loadConfig({ WORKERS: 'auto' }).workers).toBe(
      availableParallelism(),
    );
    for (const bad of ['0', '-1', 'all', '1.5'])
      expect(problemsOf({ WORKERS: bad })).toEqual([
        `WORKERS must be auto or a number of processes from 1 to 999; got "${bad}"`,
      ]);
  });

  it('never repeats a secret value in its message', () => {
    const problems = problemsOf({ DATABASE_URL: 'mysql://root:hunter2@db/x' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^DATABASE_URL must be a postgres:\/\/ URL/);
    expect(problems[0]).not.toContain('hunter2');
  });

  it('requires the marketplace app variables together', () => {
    expect(problemsOf({ MARKETPLACE_APP_KEY: 'kid_abcdefghijklmnop' })).toEqual(
      [
        'MARKETPLACE_APP_KEY, MARKETPLACE_APP_SECRET and MARKETPLACE_MASTER_SECRET must be set together',
      ],
    );
  });

  it('takes a read replica URL only beside DATABASE_URL, and never repeats it', () => {
    expect(
      loadConfig({
        DATABASE_URL: 'postgres://u:p@primary:6432/app',
        DATABASE_READ_URL: 'postgres://u:p@replica:5432/app',
      }).databaseReadUrl,
    ).toBe('postgres://u:p@replica:5432/app');
    expect(
      problemsOf({ DATABASE_READ_URL: 'postgres://u:p@replica/app' }),
    ).toEqual([
      'DATABASE_READ_URL needs DATABASE_URL (a replica of that server; the embedded database has none)',
    ]);
    const problems = problemsOf({
      DATABASE_URL: 'postgres://u:p@primary/app',
      DATABASE_READ_URL: 'http://u:hunter2@replica/app',
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).not.toContain('hunter2');
  });
});
