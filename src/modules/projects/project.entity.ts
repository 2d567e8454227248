import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Project access control codes as Weblate stores them (weblate-api.md §8.7). */
export enum ProjectAccess {
  Public = 0,
  Protected = 1,
  Private = 100,
  Custom = 200,
}

@Entity('projects')
export class Project {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 60, unique: true })
  name: string;

  @Column({ type: 'varchar', length: 60, unique: true })
  slug: string;

  @Column({ type: 'varchar', length: 200, default: '' })
  web: string;

  @Column({ type: 'text', default: '' })
  instructions: string;

  @Column({ default: false })
  translationReview: boolean;

  @Column({ default: false })
  sourceReview: boolean;

  @Column({ default: true })
  setLanguageTeam: boolean;

  @Column({ default: true })
  enableHooks: boolean;

  @Column({ type: 'text', default: '' })
  languageAliases: string;

  @Column({ type: 'smallint', default: ProjectAccess.Public })
  accessControl: ProjectAccess;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
