import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What sentry-cli sent to upload source maps (and a browser SDK event with
 * debug ids): a copy of `shared/fixtures/sentry-cli` kept in the repository,
 * refreshed by `tools/scripts/refresh-fixtures.sh`.
 */
export const SENTRY_CLI_FIXTURES_DIR = join(
  __dirname,
  '../../fixtures/sentry-cli',
);

/** The access token every capture sent (`Authorization: Bearer ...`). */
export const SENTRY_CLI_FIXTURE_TOKEN = 'glpat-00000000000000000000';

export interface SentryCliExchange {
  readonly file: string;
  readonly step: string;
  readonly request: {
    readonly method: string;
    readonly path: string;
    readonly query: string;
    readonly headers: ReadonlyArray<readonly [string, string]>;
    readonly body: null | {
      readonly content_type: string;
      readonly text?: string;
      readonly json?: unknown;
      readonly raw_base64?: string;
      readonly multipart?: ReadonlyArray<{
        readonly name: string;
        readonly filename: string;
        readonly decoded_sha1: string;
      }>;
    };
  };
  readonly response: {
    readonly status: number;
    readonly headers: ReadonlyArray<readonly [string, string]>;
    readonly body: unknown;
  };
}

export interface SentryCliFlow {
  readonly flow: string;
  readonly exchanges: readonly SentryCliExchange[];
}

export interface ResolvedFrameExpectation {
  readonly minified: Record<string, unknown>;
  readonly original: {
    readonly source_in_map: string;
    readonly abs_path: string;
    readonly lineno: number;
    readonly colno: number;
    readonly function: string | null;
    readonly context_line: string;
    readonly pre_context: string[];
    readonly post_context: string[];
  };
}

export interface BrowserSourceMapFixture {
  readonly replay: {
    readonly method: string;
    readonly url: string;
    readonly headers: Record<string, string>;
  };
  readonly body: { readonly raw_base64: string };
  readonly parsed: { readonly event: Record<string, unknown> };
  readonly expect: {
    readonly event_id: string;
    readonly exception_type: string;
    readonly exception_value: string;
    readonly resolved_frames: readonly ResolvedFrameExpectation[];
  };
}

function readJson<T>(...parts: string[]): T {
  return JSON.parse(
    readFileSync(join(SENTRY_CLI_FIXTURES_DIR, ...parts), 'utf8'),
  ) as T;
}

export function loadSentryCliFlow(flow: string): SentryCliFlow {
  const index = readJson<{
    flows: Array<{ flow: string; exchanges: Array<{ file: string }> }>;
  }>('index.json');
  const entry = index.flows.find((f) => f.flow === flow);
  if (!entry) throw new Error(`No sentry-cli fixture flow ${flow}`);
  return {
    flow,
    exchanges: entry.exchanges.map((e) => ({
      ...readJson<SentryCliExchange>(flow, e.file),
      file: e.file,
    })),
  };
}

export function loadSentryCliFlowNames(): string[] {
  return readJson<{ flows: Array<{ flow: string }> }>('index.json').flows.map(
    (f) => f.flow,
  );
}

/** `001-debug-id.json` or `002-legacy-release.json`. */
export function loadBrowserSourceMapFixture(
  file: string,
): BrowserSourceMapFixture {
  return readJson<BrowserSourceMapFixture>('browser-11.12.0', file);
}

/** A file of the fixture application (`app/dist/app.min.js.map`, ...). */
export function sentryCliAppFile(path: string): Buffer {
  return readFileSync(join(SENTRY_CLI_FIXTURES_DIR, 'app', path));
}
