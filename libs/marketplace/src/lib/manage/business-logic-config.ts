/**
 * What the management API stores of an app's business logic, for the code
 * that calls Flex services: each service environment by its URL and shared
 * secret, and which handler of which one serves each custom endpoint and
 * collection hook. The call timeout is not part of Kinvey's configuration.
 */
export interface BusinessLogicConfig {
  readonly services: readonly {
    /** The service environment's id (what endpoints and hooks name). */
    readonly id: string;
    readonly serviceId: string;
    readonly serviceName: string;
    readonly name: string;
    readonly url: string;
    readonly secret: string;
  }[];
  readonly endpoints: readonly {
    readonly name: string;
    readonly serviceEnvironmentId: string;
    readonly handler: string;
  }[];
  readonly hooks: readonly {
    readonly collection: string;
    /** Kinvey's hook name: `onPreSave`, `onPostFetch`... */
    readonly hook: string;
    readonly serviceEnvironmentId: string;
    readonly handler: string;
  }[];
}

/** Kinvey's hook names and the names of their management paths. */
export const HOOK_PATHS: Readonly<Record<string, string>> = {
  onPreInsert: 'pre-insert',
  onPreUpdate: 'pre-update',
  onPreSave: 'pre-save',
  onPreFetch: 'pre-fetch',
  onPreDelete: 'pre-delete',
  onPostInsert: 'post-insert',
  onPostUpdate: 'post-update',
  onPostSave: 'post-save',
  onPostFetch: 'post-fetch',
  onPostDelete: 'post-delete',
};
