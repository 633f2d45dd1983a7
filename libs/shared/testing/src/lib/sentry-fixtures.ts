import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * HTTP requests captured from real Sentry SDKs (read-only test data of the
 * error-tracking context, shared by its specs and the gateway's e2e suite): a
 * copy of `shared/fixtures/sentry` kept in the repository so that a clone
 * with nothing beside it passes; `tools/scripts/refresh-fixtures.sh` refreshes it.
 */
const SENTRY_FIXTURES_DIR = join(__dirname, '../../fixtures/sentry');

export const FIXTURE_PUBLIC_KEY = 'glet_00000000000000000000000000000000';
export const FIXTURE_PROJECT_ID = 4242;

export interface ExpectedEvent {
  event_id: string;
  level: string;
  platform: string;
  release: string;
  environment: string;
  message: string | null;
  exception_shape: string | null;
  exception_type: string | null;
  exception_value: string | null;
  exception_synthetic: boolean;
  frame_count: number;
  in_app_functions: string[];
  user: Record<string, string | null>;
  tags: Record<string, string>;
  timestamp: string | number;
}

export interface SentryFixture {
  file: string;
  kind: string;
  endpoint: 'store' | 'envelope';
  item_types: string[] | null;
  request: { transfer_encoding: string | null };
  replay: {
    method: string;
    path: string;
    url: string;
    headers: Record<string, string>;
    query: string;
  };
  body: { raw_base64: string; content_encoding: string | null; text: string };
  expect: {
    carries_event: boolean;
    events: ExpectedEvent[];
    sessions: ExpectedSessionItem[];
  };
}

/** A release-health item a fixture carries, as the SDK sent it. */
export interface ExpectedSessionItem {
  type: 'session' | 'sessions';
  payload: Record<string, unknown>;
}

/** The user an event shows: what the SDK sent, less null attributes (as Relay). */
export function expectedUser(expected: ExpectedEvent): Record<string, string> {
  return Object.fromEntries(
    Object.entries(expected.user ?? {}).filter(
      (entry): entry is [string, string] => entry[1] !== null,
    ),
  );
}

export function loadSentryFixtures(): SentryFixture[] {
  const index = JSON.parse(
    readFileSync(join(SENTRY_FIXTURES_DIR, 'index.json'), 'utf8'),
  ) as { fixtures: Array<{ file: string }> };
  return index.fixtures.map((entry) => ({
    ...(JSON.parse(
      readFileSync(join(SENTRY_FIXTURES_DIR, entry.file), 'utf8'),
    ) as SentryFixture),
    file: entry.file,
  }));
}

export function fixtureBody(fixture: SentryFixture): Buffer {
  return Buffer.from(fixture.body.raw_base64, 'base64');
}

/**
 * The event a fixture carries, as the SDK sent it (its decoded body, the key
 * and project id as placeholders): a store body, or an envelope's item.
 */
export function fixtureEvent(fixture: SentryFixture): Record<string, unknown> {
  const text = fixture.body.text;
  if (fixture.endpoint === 'store') return JSON.parse(text);
  // Header, then item header and payload pairs: no fixture's payload
  // holds a raw newline.
  const lines = text.split('\n');
  for (let i = 1; i + 1 < lines.length; i += 2)
    if ((JSON.parse(lines[i] as string) as { type?: string }).type === 'event')
      return JSON.parse(lines[i + 1] as string);
  throw new Error(`${fixture.file} carries no event`);
}

/** The fixture's query string as an object (what Express hands over). */
export function fixtureQuery(fixture: SentryFixture): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(fixture.replay.query));
}
