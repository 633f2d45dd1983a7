/** An attachment stored with an event, as lists and downloads see it. */
export interface StoredAttachment {
  readonly id: string;
  readonly filename: string;
  /** As the SDK declared it: shown, never used to serve the bytes. */
  readonly contentType: string | null;
  readonly size: number;
  readonly receivedAt: Date;
}

/**
 * Bytes per stored piece of an attachment: what ingestion holds of one
 * while it writes, and what a download reads at a time.
 */
export const ATTACHMENT_CHUNK_BYTES = 256 * 1024;
