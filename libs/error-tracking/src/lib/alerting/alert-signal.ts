import { Injectable } from '@nestjs/common';

/**
 * Tells this process's alert worker that a commit recorded alerts, so it
 * delivers them at once instead of at its next poll (other replicas poll).
 */
@Injectable()
export class AlertSignal {
  private readonly listeners = new Set<() => void>();

  raise(): void {
    for (const listener of this.listeners) listener();
  }

  /** Returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
