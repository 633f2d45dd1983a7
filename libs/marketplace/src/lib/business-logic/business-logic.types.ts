/** Kinvey's collection hooks, in the names its console and Flex use. */
export const COLLECTION_HOOKS = [
  'onPreSave',
  'onPostSave',
  'onPreFetch',
  'onPostFetch',
  'onPreDelete',
  'onPostDelete',
] as const;

export type CollectionHook = (typeof COLLECTION_HOOKS)[number];

/** An External Flex service of an app, as the operator registered it. */
export interface FlexServiceView {
  readonly name: string;
  readonly url: string;
  /** How long one call to it may take before BLTimeoutError. */
  readonly timeoutMs: number;
}

/** A service in use: what a call to it needs, secrets opened. */
export interface FlexService extends FlexServiceView {
  /** Sent as `X-Auth-Key`: the service's proof that Quitanda calls. */
  readonly sharedSecret: string;
  /** What the service calls back with, handed to it as the app's secrets. */
  readonly callbackMasterSecret: string;
  readonly callbackAppSecret: string;
}

/** Which function of which service runs. */
export interface FlexTarget {
  readonly service: string;
  /** A Flex function (handler) name, or a FlexData service object name. */
  readonly handler: string;
}

/**
 * Everything of an app's business logic: its services, endpoint name ->
 * function, collection -> hook -> function, FlexData collection -> service
 * object. The shape an admin API, the CLI or `appenv apply` read and write.
 */
export interface BusinessLogicView {
  readonly services: readonly FlexServiceView[];
  readonly endpoints: Readonly<Record<string, FlexTarget>>;
  readonly hooks: Readonly<
    Record<string, Partial<Record<CollectionHook, FlexTarget>>>
  >;
  readonly dataCollections: Readonly<Record<string, FlexTarget>>;
}

/** What a registration sets; omitted fields keep their value (or default). */
export interface FlexServiceInput {
  readonly name: string;
  readonly url: string;
  readonly sharedSecret: string;
  readonly timeoutMs?: number;
}
