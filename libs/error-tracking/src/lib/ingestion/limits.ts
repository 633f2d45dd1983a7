/** Field limits: longer values are truncated, never rejected. */
export const TITLE_MAX = 1024;
export const TAG_MAX = 200;
export const MESSAGE_MAX = 8192;
export const FRAMES_MAX = 250;
export const CULPRIT_MAX = 200;
/** release, environment, platform, logger, level, server_name, transaction. */
export const SHORT_FIELD_MAX = 200;
