import { Column, Entity, PrimaryColumn } from 'typeorm';

import { MARKETPLACE_SCHEMA } from '../../common/marketplace.constants';

/** Bytes of a file, one row per uploaded chunk, ordered by offset. */
@Entity({ name: 'file_chunks', schema: MARKETPLACE_SCHEMA })
export class FileChunkEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'file_chunks_pkey' })
  appKey!: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'file_chunks_pkey' })
  fileId!: string;

  @PrimaryColumn({
    type: 'bigint',
    primaryKeyConstraintName: 'file_chunks_pkey',
  })
  offset!: string;

  @Column({ type: 'bytea' })
  data!: Buffer;
}
