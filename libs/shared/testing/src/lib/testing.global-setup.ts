import { prepareTemplateDatabase } from './test-database';

// The helpers' own tests need no context schema: an empty template suffices.
export default () => prepareTemplateDatabase('testing', []);
