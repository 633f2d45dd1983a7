export {
  prepareTemplateDatabase,
  dropTemplateDatabase,
  openTestDatabase,
} from './lib/test-database';
export type { TestDatabase, MigrationTarget } from './lib/test-database';
export { schemaDrift } from './lib/schema-drift';
export {
  FIXTURE_PUBLIC_KEY,
  FIXTURE_PROJECT_ID,
  loadSentryFixtures,
  expectedUser,
  fixtureBody,
  fixtureQuery,
  fixtureEvent,
} from './lib/sentry-fixtures';
export type {
  SentryFixture,
  ExpectedEvent,
  ExpectedSessionItem,
} from './lib/sentry-fixtures';
export { defined } from './lib/defined';
export { withClient } from '@quitanda/database';
export { captureStdout } from './lib/capture-stdout';
export { freshDatabasePerTest } from './lib/fresh-database';
export { seededRandom } from './lib/seeded-random';
export { freePort } from './lib/free-port';
export { WebhookReceiver } from './lib/webhook-receiver';
export type { ReceivedRequest } from './lib/webhook-receiver';
export { SmtpSink } from './lib/smtp-sink';
export type { ReceivedMail } from './lib/smtp-sink';
export {
  SENTRY_CLI_FIXTURES_DIR,
  SENTRY_CLI_FIXTURE_TOKEN,
  loadSentryCliFlow,
  loadSentryCliFlowNames,
  loadBrowserSourceMapFixture,
  sentryCliAppFile,
} from './lib/sentry-cli-fixtures';
export type {
  SentryCliExchange,
  SentryCliFlow,
  BrowserSourceMapFixture,
  ResolvedFrameExpectation,
} from './lib/sentry-cli-fixtures';
export { newTestService, autoMock } from './lib/test-service';
export type { TestService, AutoMocked } from './lib/test-service';
export {
  loadZstdFixture,
  zstdRawFrame,
  zstdOneByteRleFrame,
  zstdRleFrame,
  zstdSkippableFrame,
} from './lib/zstd-fixtures';
export type { ZstdFixture, ZstdFrameOptions } from './lib/zstd-fixtures';
