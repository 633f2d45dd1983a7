/** The longest username a signup takes (and so a login can match). */
export const MAX_USERNAME = 255;
/** The contract's password lengths. */
export const MIN_PASSWORD = 8;
export const MAX_PASSWORD = 256;
