import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';

import { load } from 'js-yaml';

import { ROOT } from '../support/gateway-process';

interface ComposeFile {
  services: Record<string, { environment?: Record<string, string> }>;
}

/**
 * Compose's `${NAME:?message}` stops `docker compose up` when NAME is unset
 * or empty; `${NAME:-}` and `${NAME}` pass an empty value through.
 */
const REQUIRED_NON_EMPTY = (name: string) =>
  new RegExp(`^\\$\\{${name}:\\?[^}]+\\}$`);

describe('docker-compose.yml (production-like)', () => {
  let gateway: Record<string, string>;

  beforeAll(async () => {
    const compose = load(
      await readFile(resolve(ROOT, 'docker-compose.yml'), 'utf8'),
    ) as ComposeFile;
    gateway = compose.services['gateway']?.environment ?? {};
  });

  it('does not start with open event writes: EVENTS_WRITE_TOKEN must be set and not empty', () => {
    expect(gateway['EVENTS_WRITE_TOKEN']).toMatch(
      REQUIRED_NON_EMPTY('EVENTS_WRITE_TOKEN'),
    );
  });
});
