/**
 * Injection token of the gateway's Prometheus registry. Contexts register their
 * own counters on it, so `/metrics` shows them and tests get a fresh registry
 * per application instead of the process-global one.
 */
export const METRICS_REGISTRY = 'quitanda:metrics-registry';
