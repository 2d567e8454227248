import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, VirtualColumn } from 'typeorm';
import { Language } from '../languages/language.entity';
import { Project } from '../projects/project.entity';

/** A set of translation files in one git repository. Defaults mirror Weblate's (weblate-api.md §6.3). */
@Entity('components')
@Index(['projectId', 'slug'], { unique: true })
@Index(['projectId', 'name'], { unique: true })
export class Component {
  @PrimaryGeneratedColumn()
  id: number;

  @Column()
  projectId: number;

  @ManyToOne(() => Project, { onDelete: 'CASCADE' })
  @JoinColumn()
  project: Project;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 100 })
  slug: string;

  @Column()
  sourceLanguageId: number;

  @ManyToOne(() => Language)
  @JoinColumn()
  sourceLanguage: Language;

  @Column({ type: 'varchar', length: 20, default: 'git' })
  vcs: string;

  @Column({ type: 'varchar', length: 300 })
  repo: string;

  @Column({ type: 'varchar', length: 300, default: '' })
  push: string;

  @Column({ type: 'varchar', length: 220, default: '' })
  gitExport: string;

  @Column({ type: 'varchar', length: 200, default: '' })
  branch: string;

  @Column({ type: 'varchar', length: 200, default: '' })
  pushBranch: string;

  @Column({ type: 'varchar', length: 400 })
  filemask: string;

  @Column({ type: 'varchar', length: 400, default: '' })
  screenshotFilemask: string;

  @Column({ type: 'varchar', length: 400, default: '' })
  template: string;

  @Column({ default: true })
  editTemplate: boolean;

  @Column({ type: 'varchar', length: 400, default: '' })
  intermediate: string;

  @Column({ type: 'varchar', length: 400, default: '' })
  newBase: string;

  @Column({ type: 'varchar', length: 50 })
  fileFormat: string;

  @Column({ type: 'varchar', length: 150, default: '' })
  license: string;

  @Column({ type: 'text', default: '' })
  agreement: string;

  @Column({ type: 'varchar', length: 10, default: 'add' })
  newLang: string;

  @Column({ type: 'varchar', length: 20, default: '' })
  languageCodeStyle: string;

  @Column({ type: 'text', default: '' })
  checkFlags: string;

  @Column({ type: 'smallint', default: 100 })
  priority: number;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  enforcedChecks: string[];

  @Column({ default: false })
  restricted: boolean;

  @Column({ type: 'varchar', length: 200, default: '' })
  repoweb: string;

  @Column({ type: 'varchar', length: 254, default: '' })
  reportSourceBugs: string;

  @Column({ type: 'varchar', length: 10, default: 'rebase' })
  mergeStyle: string;

  @Column({ type: 'text' })
  commitMessage: string;

  @Column({ type: 'text' })
  addMessage: string;

  @Column({ type: 'text' })
  deleteMessage: string;

  @Column({ type: 'text' })
  mergeMessage: string;

  @Column({ type: 'text' })
  addonMessage: string;

  @Column({ type: 'text' })
  pullMessage: string;

  @Column({ default: true })
  allowTranslationPropagation: boolean;

  @Column({ default: false })
  manageUnits: boolean;

  @Column({ default: true })
  enableSuggestions: boolean;

  @Column({ default: false })
  suggestionVoting: boolean;

  @Column({ type: 'smallint', default: 0 })
  suggestionAutoaccept: number;

  @Column({ default: true })
  pushOnCommit: boolean;

  @Column({ type: 'smallint', default: 24 })
  commitPendingAge: number;

  @Column({ default: true })
  autoLockError: boolean;

  @Column({ type: 'varchar', length: 500, default: '^[^.]+$' })
  languageRegex: string;

  @Column({ type: 'varchar', length: 190, default: '' })
  variantRegex: string;

  @Column({ default: false })
  isGlossary: boolean;

  @Column({ type: 'varchar', length: 30, default: 'silver' })
  glossaryColor: string;

  /**
   * Ids of the add-ons installed on the component (src/modules/addons), for the response's `addons` URLs
   * (weblate-api.md §6.7). Read with the component by a subquery, not stored; raw SQL over the table keeps
   * this entity free of an import of the add-ons module.
   */
  @VirtualColumn({
    type: 'int',
    query: (alias) => `SELECT COALESCE(array_agg(addon.id ORDER BY addon.id), '{}') FROM addons addon WHERE addon.component_id = ${alias}.id`,
  })
  addonIds?: number[];

  @Column({ default: false })
  locked: boolean;

  /** The background task working on this component, shown as `task_url` while it runs. */
  @Column({ type: 'uuid', nullable: true })
  taskId: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
