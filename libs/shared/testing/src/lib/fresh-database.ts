import { openTestDatabase } from './test-database';

interface Closable {
  close(): Promise<unknown>;
}

/**
 * A new migrated database for every test (first-boot specs need an empty
 * one each time), and the modules opened on it, closed after each test.
 */
export function freshDatabasePerTest(): {
  url(): string;
  track<T extends Closable>(module: T): T;
} {
  let current: { url: string; close(): Promise<void> } | undefined;
  const open: Closable[] = [];
  beforeEach(async () => {
    current = await openTestDatabase();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((m) => m.close()));
    await current?.close();
  });
  return {
    url: () => {
      if (!current) throw new Error('freshDatabasePerTest: no test is running');
      return current.url;
    },
    track: (module) => {
      open.push(module);
      return module;
    },
  };
}
