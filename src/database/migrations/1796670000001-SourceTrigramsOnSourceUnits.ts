import { MigrationInterface, QueryRunner } from 'typeorm';

/** Rows whose own source and context the partial trigram indexes hold (search-fields.ts repeats it). */
const HOLDS_OWN_TEXT = `"source_unit_id" IS NULL OR "source_unit_id" = "id" OR "source_differs"`;

/**
 * Issue 14 item 5 and issue 13 (docs/performance.md "Schema changes (2026-11-28, session 5)"). A target edit is
 * a non-HOT update (the target trigram index changes), so every index of `units` gets a new entry, and the GIN
 * trigram indexes of migration SearchIndexes re-extracted and re-inserted the unchanged source and context of
 * every edited unit: about half of a bulk edit's UPDATE. An import inserted them for every language. PostgreSQL
 * 15 skips a partial index whose predicate the new row does not meet, so the source and context trigram indexes
 * now hold only the rows whose own text a search must read: source units (`source_unit_id = id`; a source unit
 * added through the API has NULL for a moment), units without a source unit (NULL), and units flagged
 * `source_differs`. The `source:`, `context:`/`key:` and bare-word searches find every other unit through its
 * source unit (search-fields.ts), which gives the same result only because of this invariant:
 *
 *   A unit with source_unit_id = S <> id and NOT source_differs has the source and context of unit S,
 *   and S is in the indexes (a source unit; chains do not occur).
 *
 * How it holds (read from the writers on 2026-11-28):
 * * Inserts copy the source unit's text. A scan links a bilingual unit to the source unit of the same id_hash,
 *   the hash of source + context (plural forms joined by \x1e\x1e), so both texts are equal; a monolingual
 *   translation's units are drafted from the same template strings as its source units in the same scan
 *   (id_hash of the key; the source translation is written first). New translations copy the source units
 *   (translations.service.ts), units added through the API insert the same values (bilingual-unit-add.ts,
 *   monolingual-unit-add.ts). No other writer inserts units.
 * * Only a scan updates `source` or `context` (unit-store.ts), and not atomically across translations: a
 *   changed template string updates the source unit in the source translation's transaction and each
 *   translation's unit in its own, later; a translation whose file cannot be read keeps the old text until it
 *   can (the scanner needs that old text to mark the translation fuzzy, so it cannot be copied over early).
 *   Two row triggers keep the flag exact instead: when a source unit's source or context changes, its
 *   dependents get `source_differs` = (their text differs from the new one), and when a dependent's text or
 *   source unit changes, it gets the same comparison (or true when the source unit is gone). Both are declared
 *   `UPDATE OF source, context`, so the target edits of translating never fire them.
 * * A deleted source unit leaves dependents that are not deleted with it (a translation whose file was
 *   skipped): a statement trigger flags them, so they are searched by their own text. Dependents whose
 *   translation is being deleted in the same cascade are left alone: their translation row is already gone.
 *
 * The flag starts true where a unit's text differs from its source unit's today, or its source unit is gone.
 */
export class SourceTrigramsOnSourceUnits1796670000001 implements MigrationInterface {
  name = 'SourceTrigramsOnSourceUnits1796670000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "units" ADD "source_differs" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`
UPDATE units t SET source_differs = true
 WHERE t.source_unit_id IS NOT NULL AND t.source_unit_id <> t.id
   AND NOT EXISTS (SELECT 1 FROM units s WHERE s.id = t.source_unit_id AND s.source = t.source AND s.context = t.context)`);
    await queryRunner.query(`
CREATE FUNCTION glossa_units_source_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE units d SET source_differs = (d.source <> NEW.source OR d.context <> NEW.context)
   WHERE d.source_unit_id = NEW.id AND d.id <> NEW.id
     AND d.source_differs <> (d.source <> NEW.source OR d.context <> NEW.context);
  RETURN NULL;
END $$`);
    await queryRunner.query(`
CREATE TRIGGER units_source_changed AFTER UPDATE OF source, context ON "units" FOR EACH ROW
  WHEN ((NEW.source_unit_id IS NULL OR NEW.source_unit_id = NEW.id) AND (OLD.source <> NEW.source OR OLD.context <> NEW.context))
  EXECUTE FUNCTION glossa_units_source_changed()`);
    await queryRunner.query(`
CREATE FUNCTION glossa_units_compare_source() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.source_differs := COALESCE((SELECT s.source <> NEW.source OR s.context <> NEW.context FROM units s WHERE s.id = NEW.source_unit_id), true);
  RETURN NEW;
END $$`);
    await queryRunner.query(`
CREATE TRIGGER units_compare_source BEFORE UPDATE OF source, context, source_unit_id ON "units" FOR EACH ROW
  WHEN (NEW.source_unit_id <> NEW.id
        AND (OLD.source <> NEW.source OR OLD.context <> NEW.context OR OLD.source_unit_id IS DISTINCT FROM NEW.source_unit_id))
  EXECUTE FUNCTION glossa_units_compare_source()`);
    await queryRunner.query(`
CREATE FUNCTION glossa_units_orphaned() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE units d SET source_differs = true
   WHERE d.source_unit_id IN (SELECT id FROM gone) AND NOT d.source_differs
     AND EXISTS (SELECT 1 FROM translations t WHERE t.id = d.translation_id);
  RETURN NULL;
END $$`);
    await queryRunner.query(`
CREATE TRIGGER units_orphaned AFTER DELETE ON "units" REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION glossa_units_orphaned()`);
    // Only where migration SearchIndexes could create them (pg_trgm available).
    const [{ present }]: Array<{ present: boolean }> = await queryRunner.query(`SELECT to_regclass('"IDX_units_source_trgm"') IS NOT NULL AS present`);
    if (!present) return;
    for (const column of ['source', 'context']) {
      await queryRunner.query(`DROP INDEX "IDX_units_${column}_trgm"`);
      await queryRunner.query(`CREATE INDEX "IDX_units_${column}_trgm" ON "units" USING gin ("${column}" gin_trgm_ops) WHERE ${HOLDS_OWN_TEXT}`);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const [{ present }]: Array<{ present: boolean }> = await queryRunner.query(`SELECT to_regclass('"IDX_units_source_trgm"') IS NOT NULL AS present`);
    if (present) {
      for (const column of ['source', 'context']) {
        await queryRunner.query(`DROP INDEX "IDX_units_${column}_trgm"`);
        await queryRunner.query(`CREATE INDEX "IDX_units_${column}_trgm" ON "units" USING gin ("${column}" gin_trgm_ops)`);
      }
    }
    await queryRunner.query(`DROP TRIGGER units_orphaned ON "units"`);
    await queryRunner.query(`DROP FUNCTION glossa_units_orphaned()`);
    await queryRunner.query(`DROP TRIGGER units_compare_source ON "units"`);
    await queryRunner.query(`DROP FUNCTION glossa_units_compare_source()`);
    await queryRunner.query(`DROP TRIGGER units_source_changed ON "units"`);
    await queryRunner.query(`DROP FUNCTION glossa_units_source_changed()`);
    await queryRunner.query(`ALTER TABLE "units" DROP COLUMN "source_differs"`);
  }
}
