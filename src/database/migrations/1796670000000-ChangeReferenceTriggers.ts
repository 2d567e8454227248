import { MigrationInterface, QueryRunner } from 'typeorm';

/** The six references of `changes` to their parents, with the foreign key each one had. */
const REFERENCES = [
  { constraint: 'FK_bfe713a554479f5ab5572420c79', column: 'unit_id', parent: 'units' },
  { constraint: 'FK_87979cdf87131fe8c4f8009fc75', column: 'translation_id', parent: 'translations' },
  { constraint: 'FK_c7c0f041d17111c364cf187b79b', column: 'component_id', parent: 'components' },
  { constraint: 'FK_33473358bd5f3b071af1a731dfe', column: 'project_id', parent: 'projects' },
  { constraint: 'FK_dcee1201c8d131bfdffc08e26f0', column: 'user_id', parent: 'users' },
  { constraint: 'FK_9e8728102f78d10c9d5adb9c38b', column: 'author_id', parent: 'users' },
] as const;

const PARENTS = ['units', 'translations', 'components', 'projects', 'users'] as const;

/**
 * Issue 14 item 5 (docs/performance.md "Schema changes (2026-11-28, session 5)"): the six foreign keys of
 * `changes` (ON DELETE SET NULL: the history outlives what it talks about, as Weblate's Change does) cost
 * 26 % of the bulk translate write, because PostgreSQL checks them row by row: 60,000 RI queries, each
 * locking its parent row, for 10,000 change rows. They are replaced by
 *
 * * one statement-level AFTER DELETE trigger per parent table (units, translations, components, projects,
 *   users) that clears the references to the deleted rows, reading them from the transition table: what
 *   ON DELETE SET NULL did, once per statement. Cascades (a project deleting its components, translations and
 *   units) run their own DELETE statements, so each level's trigger fires and clears its column.
 * * one statement-level AFTER INSERT trigger on `changes` that does the insert side of the foreign keys set
 *   by set: it locks the distinct parents the new rows name FOR KEY SHARE (as each RI check did) and fails
 *   with foreign_key_violation when one is missing. A bulk edit of 10,000 units in one translation names one
 *   project, component, translation, language and user, so five of the six checks become one row lock each.
 *
 * Why no dangling id can remain (the race of a delete with an insert of a change row): the inserting
 * transaction holds KEY SHARE locks on every parent it names until it commits. A concurrent DELETE of one
 * of them waits for that commit, then deletes, then its AFTER trigger runs its UPDATE in a new snapshot (READ
 * COMMITTED: each statement of a PL/pgSQL function takes one), which sees the committed change rows and clears
 * them. If the DELETE came first, the insert's lock waits for it; once it commits, the locking read skips the
 * deleted row, the count differs and the insert fails, exactly as the foreign key made it fail. Glossa runs
 * every transaction in READ COMMITTED; under REPEATABLE READ the locking read raises a serialization failure
 * instead, as the RI check did.
 *
 * TRUNCATE of a parent no longer cascades to `changes` (nothing in Glossa truncates them).
 */
export class ChangeReferenceTriggers1796670000000 implements MigrationInterface {
  name = 'ChangeReferenceTriggers1796670000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const { constraint } of REFERENCES) await queryRunner.query(`ALTER TABLE "changes" DROP CONSTRAINT "${constraint}"`);
    for (const parent of PARENTS) {
      const columns = REFERENCES.filter((reference) => reference.parent === parent).map((reference) => reference.column);
      const updates = columns.map((column) => `UPDATE changes SET ${column} = NULL WHERE ${column} IN (SELECT id FROM gone);`).join('\n  ');
      await queryRunner.query(`
CREATE FUNCTION glossa_changes_forget_${parent}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  ${updates}
  RETURN NULL;
END $$`);
      await queryRunner.query(`
CREATE TRIGGER changes_forget_${parent} AFTER DELETE ON "${parent}" REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION glossa_changes_forget_${parent}()`);
    }
    // The counts of distinct ids first (one pass over the new rows), then one locking read per parent table.
    await queryRunner.query(`
CREATE FUNCTION glossa_changes_check_references() RETURNS trigger LANGUAGE plpgsql AS $$
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
    await queryRunner.query(`
CREATE TRIGGER changes_check_references AFTER INSERT ON "changes" REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION glossa_changes_check_references()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER changes_check_references ON "changes"`);
    await queryRunner.query(`DROP FUNCTION glossa_changes_check_references()`);
    for (const parent of PARENTS) {
      await queryRunner.query(`DROP TRIGGER changes_forget_${parent} ON "${parent}"`);
      await queryRunner.query(`DROP FUNCTION glossa_changes_forget_${parent}()`);
    }
    for (const { constraint, column, parent } of REFERENCES) {
      await queryRunner.query(
        `ALTER TABLE "changes" ADD CONSTRAINT "${constraint}" FOREIGN KEY ("${column}") REFERENCES "${parent}"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
      );
    }
  }
}
