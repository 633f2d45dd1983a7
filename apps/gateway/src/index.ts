// What the e2e suite (apps/gateway-e2e) needs to boot the real gateway.
export { startGateway } from './app/gateway';
export type { Gateway } from './app/gateway';
export { loadConfig } from './app/config/gateway-config';
export type { GatewayConfig } from './app/config/gateway-config';
export { migrationTargets } from './app/contexts/context-catalog';
