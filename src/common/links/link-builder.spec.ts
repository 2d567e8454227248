import { encodeSegment, LinkBuilder, pathOf } from './link-builder';

describe('LinkBuilder', () => {
  const always = new LinkBuilder('http://127.0.0.1:8000', 'https://glossa.example', 'api');
  const bare = new LinkBuilder('http://127.0.0.1:8000', 'https://glossa.example', null);

  it('adds format=api to API links and never to web links', () => {
    expect(always.api('/api/projects/demo/')).toBe('http://127.0.0.1:8000/api/projects/demo/?format=api');
    expect(always.web('/projects/demo/')).toBe('https://glossa.example/projects/demo/');
    expect(bare.api('/api/projects/demo/')).toBe('http://127.0.0.1:8000/api/projects/demo/');
  });

  it('rebuilds query strings with sorted keys and the link format', () => {
    expect(always.withQuery('/api/units/', { page_size: '10', page: '1' }, { page: '2' })).toBe(
      'http://127.0.0.1:8000/api/units/?format=api&page=2&page_size=10',
    );
    expect(always.withQuery('/api/units/', { page: '3', format: 'json' }, { page: null })).toBe(
      'http://127.0.0.1:8000/api/units/?format=api',
    );
    expect(bare.withQuery('/api/changes/', { action: ['2', '5'], format: 'json' }, { page: '2' })).toBe(
      'http://127.0.0.1:8000/api/changes/?action=2&action=5&page=2',
    );
  });

  it('encodes path segments like Django reverse()', () => {
    expect(encodeSegment('sr@latin')).toBe('sr@latin');
    expect(encodeSegment('a b/c')).toBe('a%20b%2Fc');
    expect(pathOf('api', 'languages', 'zh_Hant')).toBe('/api/languages/zh_Hant/');
  });

  it('gives the same segment with or without the fast path for plain segments', () => {
    const slow = (value: string): string =>
      encodeURIComponent(value).replace(/%(40|3A|2B|24|2C|3B|3D|21|2A|27|28|29)/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    for (const value of ['demo', 'sr@latin', "a-b_c.d~e!f*g'h(i)j", 'x:y+z$1,2;3=4', 'čeština', 'a?b#c', '100%', '']) {
      expect(encodeSegment(value)).toBe(slow(value));
    }
    expect(encodeSegment(42)).toBe('42');
  });
});
