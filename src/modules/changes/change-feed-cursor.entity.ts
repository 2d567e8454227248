import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Where one consumer of the change feed (webhook dispatch, e-mail notifications) stands: the position after
 * the last change it has handled. It moves in the same transaction as what the consumer wrote for those
 * changes (ChangeFeed.consume), so a crash either keeps both or neither: nothing is lost, nothing doubled.
 */
@Entity('change_feed_cursors')
export class ChangeFeedCursor {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'bigint' })
  xact: string;

  @Column({ type: 'bigint' })
  changeId: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated: Date;
}
