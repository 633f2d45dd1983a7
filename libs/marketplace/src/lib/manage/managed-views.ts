/**
 * The single organization of the installation: every operator manages
 * every app (single tenant), and kinvey-cli's `app create` and `service
 * create` want one. A UUID v4, the only id form kinvey-cli recognises.
 */
export const ORGANIZATION = {
  id: '5c0a1f3e-7d2b-4e8a-9b6c-3f1d2e4a5b6c',
  name: 'Quitanda',
} as const;

/** A Kinvey environment as the management API shows it. */
export interface EnvironmentView {
  readonly id: string;
  readonly name: string;
  readonly app: string;
  readonly appSecret: string;
  readonly masterSecret: string;
}

/** A Kinvey application as the management API shows it. */
export interface AppView {
  readonly id: string;
  readonly name: string;
  readonly organizationId: string;
  readonly environments: readonly EnvironmentView[];
}
