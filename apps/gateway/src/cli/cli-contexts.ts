import type { ContextName } from '../app/config/env.schema';
import type { GatewayConfig } from '../app/config/gateway-config';
import type { ContextEntry } from '../app/contexts/context-entry';

/**
 * Each context's catalog entry, loaded on demand: loading one context
 * (Nest modules, entities, services) takes about a second, and a command
 * of one context needs none of the others.
 */
const LOADERS: Record<ContextName, () => Promise<ContextEntry>> = {
  marketplace: async () =>
    (await import('../app/contexts/marketplace.context')).MARKETPLACE_CONTEXT,
  events: async () =>
    (await import('../app/contexts/events.context')).EVENTS_CONTEXT,
  'error-tracking': async () =>
    (await import('../app/contexts/error-tracking.context'))
      .ERROR_TRACKING_CONTEXT,
};

/** Which context owns a command, by its name's first segment. */
const OWNERS: Readonly<Record<string, ContextName>> = {
  marketplace: 'marketplace',
  errors: 'error-tracking',
  retention: 'error-tracking',
  tokens: 'error-tracking',
  users: 'error-tracking',
};

/**
 * The served contexts (`CONTEXTS`) a command needs: its owner alone, or
 * every one for the platform's commands (`migrate`, `backup`), `--help`
 * and anything unknown (so commander lists every command).
 */
export async function contextsForCommand(
  command: string | undefined,
  config: GatewayConfig,
): Promise<ContextEntry[]> {
  const owner = OWNERS[command?.split(':')[0] ?? ''];
  const names = (Object.keys(LOADERS) as ContextName[]).filter(
    (name) =>
      config.contexts.has(name) && (owner === undefined || name === owner),
  );
  return Promise.all(names.map((name) => LOADERS[name]()));
}

/**
 * Whether a command makes a database where there is none: `migrate` and
 * `restore` do; every other one needs an existing one.
 */
export function createsDatabase(command: string | undefined): boolean {
  return command === 'migrate' || command === 'restore';
}

/** The platform's own commands (cli/*.command.ts). */
const PLATFORM_COMMANDS: ReadonlySet<string> = new Set([
  'migrate',
  'backup',
  'restore',
]);

/**
 * Whether the command line runs a command, which needs a database: not a
 * help request, nor a name no context or the platform could own (commander
 * answers those with its own error, no database needed).
 */
export function runsCommand(args: readonly string[]): boolean {
  const [command] = args;
  if (!command || command === 'help') return false;
  if (args.includes('--help') || args.includes('-h')) return false;
  return (
    PLATFORM_COMMANDS.has(command) ||
    OWNERS[command.split(':')[0] ?? ''] !== undefined
  );
}
