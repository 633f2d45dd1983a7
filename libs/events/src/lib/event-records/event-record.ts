/** An event record as the service hands it around. */
export interface EventRecord {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  /** Incremented by every write; the ETag is derived from it. */
  readonly version: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface EventRecordInput {
  readonly title: string;
  readonly description?: string;
}

export type EventRecordChanges = Partial<EventRecordInput>;

/**
 * Which versions a conditional write accepts: `undefined` means no
 * precondition, `'any'` an existing record of any version (`If-Match: *`).
 */
export type ExpectedVersions = undefined | 'any' | readonly number[];
