// What the e2e suite (apps/gateway-e2e) needs to boot the real gateway, and
// the context catalogue the workspace tools (bench, migrations) read.
export { startGateway } from './app/gateway';
export type { Gateway } from './app/gateway';
export { loadConfig } from './app/config/gateway-config';
export type { GatewayConfig } from './app/config/gateway-config';
export {
  CONTEXT_CATALOG,
  migrationTargets,
} from './app/contexts/context-catalog';
