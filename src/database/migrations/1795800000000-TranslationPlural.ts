import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 11: a translation keeps the plural its file declares (PO `Plural-Forms`, formats.md §2.3) when it
 * differs from its language's default; null means the language's plural, so existing rows need no data.
 */
export class TranslationPlural1795800000000 implements MigrationInterface {
  name = 'TranslationPlural1795800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "translations" ADD "plural_number" integer`);
    await queryRunner.query(`ALTER TABLE "translations" ADD "plural_formula" text`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "translations" DROP COLUMN "plural_formula"`);
    await queryRunner.query(`ALTER TABLE "translations" DROP COLUMN "plural_number"`);
  }
}
