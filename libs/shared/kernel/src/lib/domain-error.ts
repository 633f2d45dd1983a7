/**
 * Base of every error a bounded context throws on purpose.
 *
 * Services and repositories throw only these; the gateway's single exception
 * filter hands them to the owning context's `HttpErrorFormat`, so no code
 * below a controller ever picks an HTTP status or a response body.
 */
export abstract class DomainError<Code extends string = string> extends Error {
  /** Which bounded context raised it (`events`, `marketplace`, `error-tracking`). */
  abstract readonly context: string;

  protected constructor(
    readonly code: Code,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}
