/** Field limits: longer values are truncated, never rejected. */
export const TITLE_MAX = 1024;
export const TAG_MAX = 200;
export const MESSAGE_MAX = 8192;
export const CULPRIT_MAX = 200;
/** release, environment, platform, logger, level, server_name, transaction. */
export const SHORT_FIELD_MAX = 200;
/**
 * Deepest nesting kept in an item's payload (counted from its root, so an
 * `extra` value keeps 30 levels of its own). Deeper objects and arrays are
 * replaced by `"[Object]"` / `"[Array]"`, as Sentry's normalisation does,
 * and the event is kept.
 */
export const PAYLOAD_DEPTH_MAX = 32;
