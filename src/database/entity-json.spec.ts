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

  it('copies rows of one key list through the same shape, each with its own values and a fresh object', () => {
    const first = JSON.parse('{"id":1,"total_words":5,"slug":"a"}') as Record<string, unknown>;
    const second = JSON.parse('{"id":2,"total_words":7,"slug":"b"}') as Record<string, unknown>;
    const a = entityFromJson<Record<string, unknown>>(first);
    const b = entityFromJson<Record<string, unknown>>(second);
    expect(a).toEqual({ id: 1, totalWords: 5, slug: 'a' });
    expect(b).toEqual({ id: 2, totalWords: 7, slug: 'b' });
    expect(a).not.toBe(b);
    b.extra = true;
    expect(a.extra).toBeUndefined();
  });

  it('tells key lists apart that share their first and last keys, their length or a prefix', () => {
    expect(entityFromJson({ id: 1, a_b: 2, name: 'x' })).toEqual({ id: 1, aB: 2, name: 'x' });
    expect(entityFromJson({ id: 1, c_d: 2, name: 'x' })).toEqual({ id: 1, cD: 2, name: 'x' });
    expect(entityFromJson({ id: 1, a_b: 2 })).toEqual({ id: 1, aB: 2 });
    expect(entityFromJson({ id: 1, a_b: 2, name: 'x', more_keys: 4 })).toEqual({ id: 1, aB: 2, name: 'x', moreKeys: 4 });
    expect(entityFromJson({ name: 'x', id: 1, a_b: 2 })).toEqual({ name: 'x', id: 1, aB: 2 });
    expect(entityFromJson({})).toEqual({});
  });

  it('keeps keys that need quoting and never sets a prototype from a key', () => {
    const json = JSON.parse('{"id":1,"odd\\"key":2,"__proto__":{"polluted":true}}') as Record<string, unknown>;
    const entity = entityFromJson<Record<string, unknown>>(json);
    expect(entity['odd"key']).toBe(2);
    expect(Object.getPrototypeOf(entity)).toBe(Object.prototype);
    expect((entity as { polluted?: boolean }).polluted).toBeUndefined();
    // The same name the one-by-one copy gave it (propertyNameOf): an ordinary own property.
    expect(entity[propertyNameOf('__proto__')]).toEqual({ polluted: true });
  });
});
