import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('users')
export class User {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 150, unique: true })
  username: string;

  @Column({ type: 'varchar', length: 150, default: '' })
  fullName: string;

  @Column({ type: 'varchar', length: 190, default: '' })
  email: string;

  @Column({ default: false })
  isSuperuser: boolean;

  @Column({ default: true })
  isActive: boolean;

  @Column({ default: false })
  isBot: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  dateJoined: Date;
}
