import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/**
 * A file an SDK sent along with an event (an envelope's `attachment`
 * item), its bytes in `event_attachment_chunks`. Written as the request
 * streams in, before its event is stored: `event_id` stays null until the
 * event is accepted, and a row left null (the request refused or cut
 * short) is deleted by retention.
 */
@Entity({ name: 'event_attachments', schema: ERROR_TRACKING_SCHEMA })
@Index('event_attachments_event_idx', ['projectId', 'eventId'])
@Index('event_attachments_received_at_idx', ['receivedAt'])
export class EventAttachmentEntity {
  @PrimaryGeneratedColumn({
    type: 'bigint',
    primaryKeyConstraintName: 'event_attachments_pkey',
  })
  id!: string;

  @Column({ type: 'integer' })
  projectId!: number;

  @Column({ type: 'uuid', nullable: true })
  eventId!: string | null;

  /** The item's `filename`, as sent (shown, and offered as the download's name). */
  @Column({ type: 'text' })
  filename!: string;

  /** The item's `content_type`, as sent: shown only, never served. */
  @Column({ type: 'text', nullable: true })
  contentType!: string | null;

  @Column({ type: 'integer' })
  size!: number;

  @Column({ type: 'timestamptz', precision: 3 })
  receivedAt!: Date;
}
