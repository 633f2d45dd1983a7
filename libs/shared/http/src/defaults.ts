// The defaults of the HTTP settings, as an entry point of its own
// (`@quitanda/http/defaults`) that imports nothing: the gateway's
// environment schema reads them in every process, the cluster's primary
// included, which must not load Nest and the body parsers to print a number.
export { DEFAULT_BODY_BUDGET_BYTES } from './lib/body-budget-default';
