import type { PreparedRequest } from './ingest-request';

/** What a request carries, its events parsed or prepared alike. */
type RecordedItems = Omit<PreparedRequest, 'events'> & {
  readonly events: readonly unknown[];
};

/**
 * Sentry's data category of each envelope item type (what SDKs read in
 * `X-Sentry-Rate-Limits`, as their own envelope-to-category mapping).
 */
const ITEM_CATEGORIES: Readonly<Record<string, string>> = {
  event: 'error',
  session: 'session',
  sessions: 'session',
  client_report: 'internal',
  transaction: 'transaction',
  attachment: 'attachment',
  feedback: 'feedback',
  check_in: 'monitor',
  profile: 'profile',
  replay_event: 'replay',
  replay_recording: 'replay',
  span: 'span',
};

function itemCategory(itemType: string): string {
  return Object.hasOwn(ITEM_CATEGORIES, itemType)
    ? (ITEM_CATEGORIES[itemType] as string)
    : 'default';
}

/**
 * What a request records, counted per Sentry data category: each event
 * (`error`), session update or aggregate bucket (`session`), stored
 * attachment (`attachment`), client report entry (`internal`), and each
 * skipped item under its own item's category
 * (its discarded count is recorded too). Every row a request writes counts
 * against the key's limit in one of them.
 */
export function recordedQuantities(
  request: RecordedItems,
): Map<string, number> {
  const quantities = new Map<string, number>();
  const add = (category: string, quantity: number) => {
    if (quantity > 0)
      quantities.set(category, (quantities.get(category) ?? 0) + quantity);
  };
  add('error', request.events.length);
  add('session', request.sessions.length + request.buckets.length);
  add('attachment', request.attachments ?? 0);
  for (const discard of request.discards)
    add(
      discard.source === 'client' ? 'internal' : itemCategory(discard.category),
      1,
    );
  return quantities;
}
