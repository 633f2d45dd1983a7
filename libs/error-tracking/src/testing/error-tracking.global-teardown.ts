import { dropTemplateDatabase } from '@quitanda/testing';

export default () => dropTemplateDatabase();
