import { LanguageResolver, normalizeLanguageCode, parseLanguageAliases } from './language-resolver';

const LANGUAGES = [
  { id: 1, code: 'en', aliases: ['eng', 'en_en'] },
  { id: 2, code: 'cs', aliases: ['cze', 'ces'] },
  { id: 3, code: 'pt_BR', aliases: ['pt-br-alias'] },
  { id: 4, code: 'pt', aliases: [] },
  { id: 5, code: 'zh_Hans', aliases: ['zh_CN'] },
];

describe('LanguageResolver', () => {
  const resolver = new LanguageResolver(LANGUAGES);

  it('finds exact codes first', () => {
    expect(resolver.resolve('cs')?.id).toBe(2);
    expect(resolver.resolve('pt')?.id).toBe(4);
  });

  it('then aliases, case-insensitively', () => {
    expect(resolver.resolve('ces')?.id).toBe(2);
    expect(resolver.resolve('CZE')?.id).toBe(2);
    expect(resolver.resolve('zh_CN')?.id).toBe(5);
  });

  it('then the normalised spelling (pt-BR → pt_BR, any case)', () => {
    expect(resolver.resolve('pt-BR')?.id).toBe(3);
    expect(resolver.resolve('pt_br')?.id).toBe(3);
    expect(resolver.resolve('PT-br')?.id).toBe(3);
    expect(resolver.resolve('zh-hans')?.id).toBe(5);
    expect(resolver.resolve('zh-cn')?.id).toBe(5);
  });

  it('applies the project language aliases before anything else', () => {
    const aliased = new LanguageResolver(LANGUAGES, 'cs_CZ:cs, en_US:en,broken,:x');
    expect(aliased.resolve('cs_CZ')?.id).toBe(2);
    expect(aliased.resolve('en_US')?.id).toBe(1);
  });

  it('returns undefined for unknown codes', () => {
    expect(resolver.resolve('xx')).toBeUndefined();
    expect(resolver.resolve('')).toBeUndefined();
  });
});

describe('language code helpers', () => {
  it('normalises separators and case', () => {
    expect(normalizeLanguageCode(' pt-BR ')).toBe('pt_br');
  });

  it('parses project aliases', () => {
    expect([...parseLanguageAliases('a:b, c : d,e')]).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });
});
