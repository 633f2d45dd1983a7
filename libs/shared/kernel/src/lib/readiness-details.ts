/**
 * Injection token of the gateway's `ReadinessDetails`: what a context adds
 * to `/health/ready` beside the database checks the gateway makes itself.
 */
export const READINESS_DETAILS = 'quitanda:readiness-details';

/**
 * Named figures a context reports in the readiness body (the collector's
 * spool), read fresh on every check. They inform; they never fail it.
 */
export class ReadinessDetails {
  private readonly sources = new Map<string, () => unknown>();

  add(name: string, read: () => unknown): void {
    this.sources.set(name, read);
  }

  read(): Record<string, unknown> {
    return Object.fromEntries(
      [...this.sources].map(([name, read]) => [name, read()]),
    );
  }
}
