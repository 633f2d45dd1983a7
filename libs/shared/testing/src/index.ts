export {
  prepareTemplateDatabase,
  dropTemplateDatabase,
  openTestDatabase,
} from './lib/test-database';
export type { TestDatabase, MigrationTarget } from './lib/test-database';
export { schemaDrift } from './lib/schema-drift';
export {
  SENTRY_FIXTURES_DIR,
  FIXTURE_PUBLIC_KEY,
  FIXTURE_PROJECT_ID,
  loadSentryFixtures,
  fixtureBody,
  fixtureQuery,
} from './lib/sentry-fixtures';
export type { SentryFixture, ExpectedEvent } from './lib/sentry-fixtures';
export { defined } from './lib/defined';
export { captureStdout } from './lib/capture-stdout';
export { freshDatabasePerTest } from './lib/fresh-database';
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
