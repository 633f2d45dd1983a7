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

/** Whether the command line only asks for help (which runs no command). */
export function onlyHelp(args: readonly string[]): boolean {
  return (
    args.length === 0 ||
    args[0] === 'help' ||
    args.includes('--help') ||
    args.includes('-h')
  );
}
