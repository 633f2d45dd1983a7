/**
 * `HTTP_BODY_BUDGET_BYTES`'s default: with the built gateway idle at about
 * 160 MB, the hostile-bodies fault scenario peaked at 283 MB with 32 MiB
 * and at 300 MB with 64 MiB (what is read and dropped behind refusals, and
 * inflated to be counted, is garbage until V8 collects it).
 */
export const DEFAULT_BODY_BUDGET_BYTES = 32 * 1024 * 1024;
