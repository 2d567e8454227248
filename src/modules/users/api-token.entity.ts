import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { User } from './user.entity';

/** API tokens are stored as SHA-256 digests: a database leak does not hand out working keys. */
@Entity('api_tokens')
export class ApiToken {
  @PrimaryGeneratedColumn()
  id: number;

  @Column()
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn()
  user: User;

  @Column({ type: 'char', length: 64, unique: true })
  keyHash: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
