import { dropTemplateDatabase } from './test-database';

export default () => dropTemplateDatabase();
