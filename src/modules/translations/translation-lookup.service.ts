import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { notFound } from '../../common/http/api-errors';
import { PreparedStatement } from '../../database/prepared-statement';

// Resolves the URL path of a component or translation to the ids and settings the rules need, with one
// small joined query. The full objects for responses are loaded by TranslationsService.

/** What the translation and unit rules need to know about a component. */
export interface ComponentRef {
  id: number;
  projectId: number;
  projectSlug: string;
  slug: string;
  /** Monolingual base file (weblate-api.md §10.1); "" for bilingual components. */
  template: string;
  fileFormat: string;
  filemask: string;
  manageUnits: boolean;
  editTemplate: boolean;
  newLang: string;
  languageRegex: string;
  sourceLanguageId: number;
  sourceLanguageCode: string;
  /** The project's translation_review: whether the approved state (30) is in use. */
  translationReview: boolean;
  /** Locked components refuse translating (weblate-api.md §10.6). */
  locked: boolean;
  name: string;
  projectName: string;
  newBase: string;
}

export interface TranslationRef {
  id: number;
  component: ComponentRef;
  languageId: number;
  /** The language's code: the last segment of the translation's API path. */
  languageCode: string;
  pluralNumber: number;
  isSource: boolean;
  filename: string;
  /** PostgreSQL text of translations.last_change (microseconds kept), or null. */
  lastChange: string | null;
}

const COMPONENT_COLUMNS = `c.id, c.project_id AS "projectId", p.slug AS "projectSlug", c.slug, c.template,
  c.file_format AS "fileFormat", c.filemask, c.manage_units AS "manageUnits", c.edit_template AS "editTemplate",
  c.new_lang AS "newLang", c.language_regex AS "languageRegex", c.source_language_id AS "sourceLanguageId",
  sl.code AS "sourceLanguageCode", p.translation_review AS "translationReview", c.locked, c.name,
  p.name AS "projectName", c.new_base AS "newBase"`;

const COMPONENT_JOINS = `components c JOIN projects p ON p.id = c.project_id JOIN languages sl ON sl.id = c.source_language_id`;

/** The lookup's row: the component's columns beside the translation's own (its id renamed). */
type TranslationRow = ComponentRef & Omit<TranslationRef, 'id' | 'component'> & { translationId: number };

// Most requests under /api/components/ and /api/translations/ start with one of these: prepared statements.
const PROJECT_ID = new PreparedStatement<{ id: number }>('SELECT id FROM projects WHERE slug = $1');
const COMPONENT_BY_SLUGS = new PreparedStatement<ComponentRef>(`SELECT ${COMPONENT_COLUMNS} FROM ${COMPONENT_JOINS} WHERE p.slug = $1 AND c.slug = $2`);
const TRANSLATION_BY_PATH = new PreparedStatement<TranslationRow>(
  `SELECT ${COMPONENT_COLUMNS}, t.id AS "translationId", t.language_id AS "languageId", l.code AS "languageCode",
          COALESCE(t.plural_number, l.plural_number) AS "pluralNumber", t.is_source AS "isSource", t.filename, t.last_change AS "lastChange"
     FROM translations t
     JOIN languages l ON l.id = t.language_id
     JOIN components c ON c.id = t.component_id
     JOIN projects p ON p.id = c.project_id
     JOIN languages sl ON sl.id = c.source_language_id
    WHERE p.slug = $1 AND c.slug = $2 AND l.code = $3`,
);

@Injectable()
export class TranslationLookup {
  constructor(private readonly dataSource: DataSource) {}

  async projectId(projectSlug: string): Promise<number> {
    const rows = await PROJECT_ID.run(this.dataSource, [projectSlug]);
    if (rows.length === 0) throw notFound();
    return rows[0].id;
  }

  async component(projectSlug: string, componentSlug: string): Promise<ComponentRef> {
    const rows = await COMPONENT_BY_SLUGS.run(this.dataSource, [projectSlug, componentSlug]);
    if (rows.length === 0) throw notFound();
    return rows[0];
  }

  /** The translation addressed by `/api/translations/<project>/<component>/<language code>/` (§5.8 lookup). */
  async translation(projectSlug: string, componentSlug: string, languageCode: string): Promise<TranslationRef> {
    const rows = await TRANSLATION_BY_PATH.run(this.dataSource, [projectSlug, componentSlug, languageCode]);
    if (rows.length === 0) throw notFound();
    const { translationId, languageId, languageCode: code, pluralNumber, isSource, filename, lastChange, ...component } = rows[0];
    return { id: translationId, component, languageId, languageCode: code, pluralNumber, isSource, filename, lastChange };
  }
}
