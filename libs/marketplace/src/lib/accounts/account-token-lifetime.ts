/** How long a mailed link works (and so how long its mail is worth sending). */
export const TOKEN_LIFETIME_MS = 3_600_000;
