/** Every migration of the marketplace schema, oldest first. */
export const MARKETPLACE_MIGRATIONS = [];
