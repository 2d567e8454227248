import type { DataSource } from 'typeorm';
import { writeComponentAlert, type AlertedComponent } from './component-alerts';

// The DuplicateString component alert (Weblate's alert of that name, weblate/trans/models/alert.py): a file
// that holds the same key twice (monolingual) or the same source and context twice (bilingual) imports its
// first entry and skips the others (formats.md §2.1, languages-formats-hashing.md §2.1), and the component
// gets this alert, one occurrence per skipped entry, with Weblate's keys (`language_code`, `source`,
// `unit_pk`: the kept unit) plus Glossa's `filename` and `context`. Weblate rebuilds its alerts on every
// scan; Glossa's scans skip files whose revision did not change, so the occurrences of the files a scan
// parsed replace theirs, those of files it did not parse stay, and those of files gone go.
//
// The parse worker reports up to MAX_REPORTED_DUPLICATES contexts per file (parse-protocol.ts), not the
// skipped entry's source: `source` and `unit_pk` come from the kept unit with that context, and are "" and
// null when the context names several units (a bilingual file whose duplicates have an empty context).

export const ALERT_DUPLICATE_STRING = 'DuplicateString';

export interface DuplicateOccurrence {
  language_code: string;
  source: string;
  unit_pk: number | null;
  filename: string;
  context: string;
}

interface ParsedFile {
  languageCode: string;
  contexts: readonly string[];
}

/** What one scan learnt about duplicates: every file it parsed, with the contexts of the entries it skipped. */
export class DuplicateFindings {
  private readonly files = new Map<string, ParsedFile>();

  /** One parse of `filename`; a later parse of the same file (a bilingual scan reads each twice) replaces it. */
  record(filename: string, languageCode: string, contexts: readonly string[]): void {
    this.files.set(filename, { languageCode, contexts: [...contexts] });
  }

  parsed(filename: string): boolean {
    return this.files.has(filename);
  }

  /** The skipped entries, file by file in the order the files were first parsed. */
  skipped(): Array<{ filename: string; languageCode: string; context: string }> {
    return [...this.files].flatMap(([filename, file]) => file.contexts.map((context) => ({ filename, languageCode: file.languageCode, context })));
  }
}

/**
 * The occurrences after a scan: those of files the scan did not parse but still has (`present`), then those it
 * found (`found`, resolved against the stored units). Pure, for unit tests.
 */
export function mergeOccurrences(
  previous: readonly DuplicateOccurrence[],
  findings: DuplicateFindings,
  present: ReadonlySet<string>,
  found: readonly DuplicateOccurrence[],
): DuplicateOccurrence[] {
  const kept = previous.filter((occurrence) => present.has(occurrence.filename) && !findings.parsed(occurrence.filename));
  return [...kept, ...found];
}

/** Rewrites the component's DuplicateString alert after a scan (no occurrence left: the alert goes). */
export async function updateDuplicateStringAlert(dataSource: DataSource, component: AlertedComponent, findings: DuplicateFindings, present: ReadonlySet<string>): Promise<void> {
  const [existing]: Array<{ details: { occurrences?: DuplicateOccurrence[] } }> = await dataSource.query(
    'SELECT details FROM component_alerts WHERE component_id = $1 AND name = $2',
    [component.id, ALERT_DUPLICATE_STRING],
  );
  const skipped = findings.skipped();
  if (!existing && skipped.length === 0) return;
  const resolved: Array<{ unit_pk: string | null; source: string | null }> =
    skipped.length === 0
      ? []
      : await dataSource.query(
          `SELECT kept.id AS unit_pk, kept.source
             FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS r(filename, context, ord)
             LEFT JOIN LATERAL (
               SELECT u.id, u.source, count(*) OVER () AS matches
                 FROM translations t JOIN units u ON u.translation_id = t.id
                WHERE t.component_id = $1 AND t.filename = r.filename AND u.context = r.context
                ORDER BY u.position, u.id LIMIT 1
             ) kept ON kept.matches = 1
            ORDER BY r.ord`,
          [component.id, skipped.map((entry) => entry.filename), skipped.map((entry) => entry.context)],
        );
  const found = skipped.map(
    (entry, index): DuplicateOccurrence => ({
      language_code: entry.languageCode,
      source: resolved[index]?.source ?? '',
      unit_pk: resolved[index]?.unit_pk == null ? null : Number(resolved[index].unit_pk),
      filename: entry.filename,
      context: entry.context,
    }),
  );
  const occurrences = mergeOccurrences(existing?.details.occurrences ?? [], findings, present, found);
  await writeComponentAlert(dataSource, component, ALERT_DUPLICATE_STRING, occurrences.length === 0 ? null : { occurrences });
}
