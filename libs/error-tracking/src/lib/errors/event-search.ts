/**
 * How far one page of a searched events list reads into an error's events.
 * Free text matches on the payload, which no index covers; bounding the read
 * keeps a page's cost fixed however many events the error has (the page
 * may come back short, its cursor continuing where the read stopped).
 */
export const EVENT_SEARCH_SCAN_MAX = 1_000;
