import type { INestApplicationContext } from '@nestjs/common';

import { bootstrapContexts } from './context-bootstrap';
import type { ContextEntry } from './context-entry';

describe('bootstrapContexts', () => {
  it('collects what each context generated and what no longer works, skipping contexts with neither', async () => {
    const entries = [
      {
        name: 'marketplace',
        bootstrap: async () => ({ appKey: 'kid_x', appSecret: 's' }),
      },
      { name: 'events' },
      {
        name: 'error-tracking',
        bootstrap: async () => undefined,
        retiredCredentials: async () => ['root_password'],
      },
    ] as unknown as ContextEntry[];
    await expect(
      bootstrapContexts({} as INestApplicationContext, entries),
    ).resolves.toEqual({
      generated: { marketplace: { appKey: 'kid_x', appSecret: 's' } },
      retired: { 'error-tracking': ['root_password'] },
    });
  });
});
