import type { DomainError } from './domain-error';
import type { TransportError } from './transport-error';

export interface ErrorRenderContext {
  /** The request id also sent in the `X-Request-Id` response header. */
  readonly requestId: string;
  /** Request path without the query string. */
  readonly path: string;
}

export interface HttpErrorResponse {
  readonly status: number;
  readonly contentType: string;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * How one bounded context shapes its error responses (problem+json, Kinvey's
 * `{error, description, debug}`, GitLab's `{message}`...). Each context
 * exports one; the gateway picks it by request path.
 */
export interface HttpErrorFormat {
  /** The context whose `DomainError`s this format renders. */
  readonly context: string;
  /** Whether a request path belongs to this context. */
  owns(path: string): boolean;
  render(
    error: DomainError | TransportError,
    context: ErrorRenderContext,
  ): HttpErrorResponse;
  /**
   * The HTML page a browser gets when it navigates to a page no context
   * has: only the context that serves the web pages renders one, so a
   * person who mistypes a link sees a page, not JSON.
   */
  renderPage?(
    error: DomainError | TransportError,
    context: ErrorRenderContext,
  ): HttpErrorResponse;
}
