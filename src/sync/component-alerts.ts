import type { DataSource } from 'typeorm';
import { recordChanges } from '../modules/changes/change-recorder';

// Component alerts raised by a scan (Weblate's alerts, weblate/trans/models/alert.py; issue 11 item 6): a
// translation file that could not be imported (syntax error, wrong encoding, a value past a limit, a
// duplicate the format refuses) is listed under the `ParseError` alert with its file, line and message.
// Every scan reads again each file that failed before (its stored revision was never updated), so the
// failures of one scan are the whole truth: the alert is rewritten from them, and removed when there are
// none, which clears it once the files import cleanly again. A newly raised alert records 47 "New alert".

export const ALERT_PARSE_ERROR = 'ParseError';
export const ACTION_ALERT = 47;

/** One file a scan could not import. */
export interface FileFailure {
  filename: string;
  /** Line the parser names (`line N: …`), or null when the problem is not at a line (too big, unreadable). */
  line: number | null;
  error: string;
}

/** The line a parser's message starts with (FileFormat.parse throws `line N: problem`). */
export function failureLine(message: string): number | null {
  const match = /^line (\d+)\b/.exec(message);
  return match ? Number(match[1]) : null;
}

/** Rewrites the component's ParseError alert from one scan's failures (none: the alert goes). */
export async function updateParseErrorAlert(dataSource: DataSource, component: AlertedComponent, failures: readonly FileFailure[]): Promise<void> {
  const details = failures.length === 0 ? null : { occurrences: failures.map((failure) => ({ filename: failure.filename, line: failure.line, error: failure.error })) };
  await writeComponentAlert(dataSource, component, ALERT_PARSE_ERROR, details);
}

export interface AlertedComponent {
  id: number;
  projectId: number;
}

/**
 * Sets the component's alert `name` to `details`, or removes it when `details` is null. An alert that did
 * not exist yet records 47 "New alert" (Weblate's Alert post-save); one still present is updated in place.
 */
export async function writeComponentAlert(dataSource: DataSource, component: AlertedComponent, name: string, details: Record<string, unknown> | null): Promise<void> {
  if (details === null) {
    await dataSource.query('DELETE FROM component_alerts WHERE component_id = $1 AND name = $2', [component.id, name]);
    return;
  }
  await dataSource.transaction(async (manager) => {
    const [{ created }]: Array<{ created: boolean }> = await manager.query(
      `INSERT INTO component_alerts (component_id, name, details) VALUES ($1, $2, $3::jsonb)
       ON CONFLICT (component_id, name) DO UPDATE SET details = EXCLUDED.details, updated = now()
       RETURNING (xmax = 0) AS created`,
      [component.id, name, JSON.stringify(details)],
    );
    if (!created) return;
    await recordChanges(manager, [
      {
        action: ACTION_ALERT,
        projectId: component.projectId,
        componentId: component.id,
        translationId: null,
        languageId: null,
        unitId: null,
        userId: null,
        authorId: null,
        target: '',
        details: { alert: name },
      },
    ]);
  });
}
