import { entityFromJson, propertyNameOf } from './entity-json';

function snakeCase(value: string): string {
  return value.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

describe('entityFromJson', () => {
  it('inverts the snake-case naming strategy for entity property names', () => {
    for (const property of ['id', 'failingChecksWords', 'gitExport', 'sourceLanguageId', 'isSource', 'lastAuthorId', 'taskId', 'enforcedChecks']) {
      expect(propertyNameOf(snakeCase(property))).toBe(property);
    }
  });

  it('renames every key and keeps the values', () => {
    expect(entityFromJson({ id: 3, have_suggestion: 0, enforced_checks: ['same'], task_id: null })).toEqual({ id: 3, haveSuggestion: 0, enforcedChecks: ['same'], taskId: null });
  });
});
