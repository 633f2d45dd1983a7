/** Every migration of the error_tracking schema, oldest first. */
export const ERROR_TRACKING_MIGRATIONS = [];
