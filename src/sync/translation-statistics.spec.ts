import type { EntityManager } from 'typeorm';
import { COUNTED_UNIT_CONDITIONS, refreshTranslationStatistics, storedUnitCount } from './translation-statistics';

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The statement refreshTranslationStatistics sends, read through a manager that records it. */
async function refreshStatement(): Promise<string> {
  let sent = '';
  const manager = { query: async (sql: string) => void (sent = sql) } as unknown as EntityManager;
  await refreshTranslationStatistics(manager, [1]);
  return sent.replace(/\s+/g, ' ');
}

describe('the unit counts the statistics keep', () => {
  it('each counted condition is the one the refresh statement counts into its column', async () => {
    const statement = await refreshStatement();
    for (const { condition, column } of COUNTED_UNIT_CONDITIONS) {
      expect(statement).toMatch(new RegExp(`count\\(u\\.id\\) FILTER \\(WHERE ${escapeRegExp(condition)}\\) AS ${column}[, ]`));
    }
  });

  it('answers the column for a counted condition, total minus translated for the untranslated, null otherwise', () => {
    expect(storedUnitCount('u.state >= 20', 't')).toBe('t.translated');
    expect(storedUnitCount('u.has_failing_check', 'tr')).toBe('tr.failing_checks');
    expect(storedUnitCount('u.state < 20', 't')).toBe('(t.total - t.translated)');
    for (const other of ['u.state = 0', 'u.state = 20', 'NOT (u.state < 20)', '(u.state < 20 AND u.has_failing_check)', 'u.state <= 10', 'TRUE']) {
      expect(storedUnitCount(other, 't')).toBeNull();
    }
  });
});
