/**
 * Runs a background job now, or once more right after the run in
 * progress: never two runs at once, and no kick lost while one runs. A
 * run's failure goes to `onError` (the owner logs it): no run is ever left
 * without a handler.
 */
export class SerialRunner {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly job: () => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.job()
      .catch((error: unknown) => this.onError(error))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Takes no more kicks; resolves once the run in progress is over. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }
}
