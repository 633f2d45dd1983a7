export interface EventsModuleOptions {
  /** When set, writes require `Authorization: Bearer <writeToken>`. */
  readonly writeToken?: string;
}
