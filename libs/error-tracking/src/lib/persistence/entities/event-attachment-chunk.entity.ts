import { Column, Entity, PrimaryColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/**
 * One piece of an attachment's bytes, in order of `seq`: written and read
 * a piece at a time, so neither ingestion nor a download holds a whole
 * attachment.
 */
@Entity({ name: 'event_attachment_chunks', schema: ERROR_TRACKING_SCHEMA })
export class EventAttachmentChunkEntity {
  /** `event_attachments.id`. */
  @PrimaryColumn({
    type: 'bigint',
    primaryKeyConstraintName: 'event_attachment_chunks_pkey',
  })
  attachmentId!: string;

  @PrimaryColumn({
    type: 'integer',
    primaryKeyConstraintName: 'event_attachment_chunks_pkey',
  })
  seq!: number;

  @Column({ type: 'bytea' })
  data!: Buffer;
}
