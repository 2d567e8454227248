import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The statement-level reference check of `changes` (ChangeReferenceTriggers1796670000000) in one pass over
 * the new rows. It scanned the transition table seven times (two counting passes, then one `IN (SELECT …
 * FROM added)` per parent table), each pass reading every new row in full, details included: about 3 ms
 * per pass for the 10,000 rows of a bulk translate, a third of the trigger's time besides the unit locks
 * (auto_explain, docs/performance.md "Bulk translate CPU per request"). Now one aggregate collects the distinct
 * ids of each reference as arrays, and each parent is locked by `id = ANY(ids)`. Same locks (FOR KEY SHARE
 * of every named parent), same 23503 errors and messages.
 */
export class ChangeReferenceCheckOnePass1796700600000 implements MigrationInterface {
  name = 'ChangeReferenceCheckOnePass1796700600000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
CREATE OR REPLACE FUNCTION glossa_changes_check_references() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  unit_ids bigint[]; translation_ids int[]; component_ids int[]; project_ids int[]; user_ids int[]; author_ids int[];
  found bigint;
BEGIN
  SELECT array_agg(DISTINCT unit_id) FILTER (WHERE unit_id IS NOT NULL),
         array_agg(DISTINCT translation_id) FILTER (WHERE translation_id IS NOT NULL),
         array_agg(DISTINCT component_id) FILTER (WHERE component_id IS NOT NULL),
         array_agg(DISTINCT project_id) FILTER (WHERE project_id IS NOT NULL),
         array_agg(DISTINCT user_id) FILTER (WHERE user_id IS NOT NULL),
         array_agg(DISTINCT author_id) FILTER (WHERE author_id IS NOT NULL)
    INTO unit_ids, translation_ids, component_ids, project_ids, user_ids, author_ids
    FROM added;
  IF unit_ids IS NOT NULL THEN
    SELECT count(*) INTO found FROM (SELECT 1 FROM units p WHERE p.id = ANY(unit_ids) FOR KEY SHARE OF p) locked;
    IF found <> cardinality(unit_ids) THEN RAISE foreign_key_violation USING MESSAGE = 'changes.unit_id names a unit that does not exist'; END IF;
  END IF;
  IF translation_ids IS NOT NULL THEN
    SELECT count(*) INTO found FROM (SELECT 1 FROM translations p WHERE p.id = ANY(translation_ids) FOR KEY SHARE OF p) locked;
    IF found <> cardinality(translation_ids) THEN RAISE foreign_key_violation USING MESSAGE = 'changes.translation_id names a translation that does not exist'; END IF;
  END IF;
  IF component_ids IS NOT NULL THEN
    SELECT count(*) INTO found FROM (SELECT 1 FROM components p WHERE p.id = ANY(component_ids) FOR KEY SHARE OF p) locked;
    IF found <> cardinality(component_ids) THEN RAISE foreign_key_violation USING MESSAGE = 'changes.component_id names a component that does not exist'; END IF;
  END IF;
  IF project_ids IS NOT NULL THEN
    SELECT count(*) INTO found FROM (SELECT 1 FROM projects p WHERE p.id = ANY(project_ids) FOR KEY SHARE OF p) locked;
    IF found <> cardinality(project_ids) THEN RAISE foreign_key_violation USING MESSAGE = 'changes.project_id names a project that does not exist'; END IF;
  END IF;
  IF user_ids IS NOT NULL OR author_ids IS NOT NULL THEN
    user_ids := ARRAY(SELECT DISTINCT id FROM unnest(user_ids || author_ids) AS named(id));
    SELECT count(*) INTO found FROM (SELECT 1 FROM users p WHERE p.id = ANY(user_ids) FOR KEY SHARE OF p) locked;
    IF found <> cardinality(user_ids) THEN RAISE foreign_key_violation USING MESSAGE = 'changes.user_id or author_id names a user that does not exist'; END IF;
  END IF;
  RETURN NULL;
END $$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
CREATE OR REPLACE FUNCTION glossa_changes_check_references() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  units_wanted bigint; translations_wanted bigint; components_wanted bigint; projects_wanted bigint; users_wanted bigint;
  found bigint;
BEGIN
  SELECT count(DISTINCT unit_id), count(DISTINCT translation_id), count(DISTINCT component_id), count(DISTINCT project_id)
    INTO units_wanted, translations_wanted, components_wanted, projects_wanted FROM added;
  SELECT count(DISTINCT id) INTO users_wanted
    FROM (SELECT user_id AS id FROM added UNION ALL SELECT author_id FROM added) named WHERE id IS NOT NULL;
  IF units_wanted > 0 THEN
    SELECT count(*) INTO found FROM (SELECT 1 FROM units p WHERE p.id IN (SELECT unit_id FROM added) FOR KEY SHARE OF p) locked;
    IF found <> units_wanted THEN RAISE foreign_key_violation USING MESSAGE = 'changes.unit_id names a unit that does not exist'; END IF;
  END IF;
  IF translations_wanted > 0 THEN
    SELECT count(*) INTO found FROM (SELECT 1 FROM translations p WHERE p.id IN (SELECT translation_id FROM added) FOR KEY SHARE OF p) locked;
    IF found <> translations_wanted THEN RAISE foreign_key_violation USING MESSAGE = 'changes.translation_id names a translation that does not exist'; END IF;
  END IF;
  IF components_wanted > 0 THEN
    SELECT count(*) INTO found FROM (SELECT 1 FROM components p WHERE p.id IN (SELECT component_id FROM added) FOR KEY SHARE OF p) locked;
    IF found <> components_wanted THEN RAISE foreign_key_violation USING MESSAGE = 'changes.component_id names a component that does not exist'; END IF;
  END IF;
  IF projects_wanted > 0 THEN
    SELECT count(*) INTO found FROM (SELECT 1 FROM projects p WHERE p.id IN (SELECT project_id FROM added) FOR KEY SHARE OF p) locked;
    IF found <> projects_wanted THEN RAISE foreign_key_violation USING MESSAGE = 'changes.project_id names a project that does not exist'; END IF;
  END IF;
  IF users_wanted > 0 THEN
    SELECT count(*) INTO found FROM (SELECT 1 FROM users p WHERE p.id IN (SELECT user_id FROM added UNION SELECT author_id FROM added) FOR KEY SHARE OF p) locked;
    IF found <> users_wanted THEN RAISE foreign_key_violation USING MESSAGE = 'changes.user_id or author_id names a user that does not exist'; END IF;
  END IF;
  RETURN NULL;
END $$`);
  }
}
