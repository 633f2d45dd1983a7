import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { WEB_ASSETS } from './web-assets';

describe('web assets', () => {
  it.each(['css', 'js'] as const)(
    'version ui.%s by its content, so every replica and restart serves the same URL',
    (kind) => {
      const file = readFileSync(join(__dirname, 'assets', `ui.${kind}`));
      expect(WEB_ASSETS[kind].body.equals(file)).toBe(true);
      expect(WEB_ASSETS[kind].version).toBe(
        createHash('sha256').update(file).digest('hex').slice(0, 16),
      );
    },
  );
});
