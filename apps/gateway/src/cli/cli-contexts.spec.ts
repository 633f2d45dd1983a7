import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

import { loadConfig } from '../app/config/gateway-config';
import { contextsForCommand } from './cli-contexts';

const ROOT = join(__dirname, '../../../..');

/** The workspace files a fresh process has loaded after requiring `file`. */
function loadedBy(file: string): string[] {
  const script = `require(${JSON.stringify(file)});
    process.stdout.write(JSON.stringify(Object.keys(require.cache)));`;
  const output = execFileSync(
    process.execPath,
    ['-r', require.resolve('@swc-node/register'), '-e', script],
    {
      cwd: ROOT,
      env: {
        PATH: process.env['PATH'] ?? '',
        SWC_NODE_PROJECT: join(ROOT, 'tsconfig.base.json'),
      },
    },
  );
  return (JSON.parse(output.toString()) as string[])
    .filter((path) => !path.includes('node_modules'))
    .map((path) => path.slice(ROOT.length + 1));
}

describe('the contexts a CLI command loads', () => {
  const config = loadConfig({});
  const names = async (command: string | undefined, env = config) =>
    (await contextsForCommand(command, env)).map((entry) => entry.name);

  it("loads a context's commands alone, and every served context otherwise", async () => {
    await expect(names('marketplace:apps:list')).resolves.toEqual([
      'marketplace',
    ]);
    await expect(names('errors:retitle')).resolves.toEqual(['error-tracking']);
    await expect(names('users:create')).resolves.toEqual(['error-tracking']);
    const all = ['marketplace', 'events', 'error-tracking'];
    await expect(names('migrate')).resolves.toEqual(all);
    await expect(names('--help')).resolves.toEqual(all);
    await expect(names(undefined)).resolves.toEqual(all);
  });

  it('loads only the contexts the process serves (CONTEXTS)', async () => {
    const eventsOnly = loadConfig({ CONTEXTS: 'events' });
    await expect(names('migrate', eventsOnly)).resolves.toEqual(['events']);
    await expect(names('marketplace:apps:list', eventsOnly)).resolves.toEqual(
      [],
    );
  });

  it('reads the settings without loading any context (their defaults are entry points of their own)', () => {
    const loaded = loadedBy('./apps/gateway/src/app/config/gateway-config.ts');
    expect(loaded).toContain('libs/marketplace/src/defaults.ts');
    expect(loaded.filter((path) => /^libs\/(?!shared\/)/.test(path))).toEqual(
      expect.not.arrayContaining([
        expect.stringMatching(/\.(module|service|entity|controller)\.ts$/),
      ]),
    );
    expect(loaded).not.toContain('libs/marketplace/src/index.ts');
    expect(loaded).not.toContain('libs/error-tracking/src/index.ts');
  });
});
