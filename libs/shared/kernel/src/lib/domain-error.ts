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

  /**
   * The error in plain words, for a person (the CLI prints it). `message`
   * is the text clients read on the wire (a Kinvey `description`, GitLab's
   * `404 User Not Found`): SDKs match it, so it keeps that wording there.
   */
  get plainMessage(): string {
    return this.message;
  }
}
