export {
  prepareTemplateDatabase,
  dropTemplateDatabase,
  openTestDatabase,
} from './lib/test-database';
export type { TestDatabase, MigrationTarget } from './lib/test-database';
export { schemaDrift } from './lib/schema-drift';
