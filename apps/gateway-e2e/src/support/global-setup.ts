import { migrationTargets } from '@quitanda/gateway';
import { prepareTemplateDatabase } from '@quitanda/testing';

export default () => prepareTemplateDatabase('gateway', migrationTargets());
