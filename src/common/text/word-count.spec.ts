import { countWords } from './word-count';

// Examples from languages-formats-hashing.md §5.1 and the §2.2 worked example table.
describe('countWords', () => {
  it.each<[string, number]>([
    ["I've just realized that they have 5 %(color)s cats.", 9],
    ['There are 123 words', 4],
    ['Hello, {name}!', 2],
    ['', 0],
    ['Weblate', 1],
    ['{count} items in cart', 4],
    ["String 'A'", 2],
  ])('%j has %i words', (source, expected) => {
    expect(countWords(source)).toBe(expected);
  });

  it('sums the plural forms', () => {
    expect(countWords('{count} item\x1e\x1e{count} items')).toBe(4);
    expect(countWords('One file\x1e\x1e%d files were deleted')).toBe(6);
  });

  it('skips forms starting with "<unused singular"', () => {
    expect(countWords('<unused singular (hash=abc)>\x1e\x1e%d files')).toBe(2);
  });

  it('ignores leading, trailing and repeated whitespace', () => {
    expect(countWords('  two \n\t words  ')).toBe(2);
    expect(countWords('   ')).toBe(0);
  });

  it("uses Python's whitespace set, not JS \\s", () => {
    // U+001C..U+001F and U+0085 separate words in Python; U+FEFF does not.
    expect(countWords('a\x1cb\x1dc\x1fd\u0085e')).toBe(5);
    expect(countWords('a\ufeffb')).toBe(1);
    expect(countWords('a\u00a0b\u2028c\u3000d\u202fe')).toBe(5);
  });

  it('counts CJK characters one each for spaceless source languages', () => {
    expect(countWords('你好世界', 'zh_Hans')).toBe(4);
    expect(countWords('日本語のテキスト', 'ja')).toBe(8);
    expect(countWords('我用 Build 2014 版本', 'zh-Hant')).toBe(6);
    expect(countWords('안녕 세계', 'ko')).toBe(4);
    expect(countWords('你好\x1e\x1e你们好', 'zh')).toBe(5);
  });

  it('uses the whitespace rule for other languages, even on CJK text', () => {
    expect(countWords('你好世界', 'en')).toBe(1);
    expect(countWords('你好 世界', 'cs')).toBe(2);
  });

  it('applies the whitespace rule between CJK characters only (Thai has no CJK characters)', () => {
    expect(countWords('สวัสดี ครับ', 'th')).toBe(2);
  });
});
