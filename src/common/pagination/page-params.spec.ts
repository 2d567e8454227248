import { LinkBuilder } from '../links/link-builder';
import { listEnvelope } from './list-envelope';
import { LARGE_PAGINATION, parsePageRequest, resolvePage } from './page-params';

describe('pagination', () => {
  it('parses page_size like DRF: positive integers clamped, anything else the default', () => {
    expect(parsePageRequest({}).size).toBe(50);
    expect(parsePageRequest({ page_size: '10' }).size).toBe(10);
    expect(parsePageRequest({ page_size: '0' }).size).toBe(50);
    expect(parsePageRequest({ page_size: '-3' }).size).toBe(50);
    expect(parsePageRequest({ page_size: 'x' }).size).toBe(50);
    expect(parsePageRequest({ page_size: '5000' }).size).toBe(1000);
    expect(parsePageRequest({}, LARGE_PAGINATION).size).toBe(200);
  });

  it('rejects invalid and out-of-range pages with 404 Invalid page.', () => {
    expect(() => parsePageRequest({ page: 'abc' })).toThrow('Invalid page.');
    expect(() => parsePageRequest({ page: '0' })).toThrow('Invalid page.');
    // Pages no list can reach are refused before they get to SQL (issue 10 item 10).
    for (const page of ['99999999999999999999', '9007199254740993', '1e300', '-1', '1.5', '12345678901']) {
      expect(() => parsePageRequest({ page })).toThrow('Invalid page.');
    }
    expect(() => parsePageRequest({ page: '2147484', page_size: '1000' })).toThrow('Invalid page.');
    expect(parsePageRequest({ page: '2147483', page_size: '1000' }).page).toBe(2147483);
    expect(parsePageRequest({ page: '42949672', page_size: '50' }).page).toBe(42949672);
    expect(() => resolvePage({ page: 3, size: 10 }, 20)).toThrow('Invalid page.');
    expect(resolvePage({ page: 1, size: 10 }, 0)).toEqual({ page: 1, size: 10, offset: 0 });
    expect(resolvePage({ page: 'last', size: 10 }, 25)).toEqual({ page: 3, size: 10, offset: 20 });
  });

  it('links to neighbouring pages, dropping page for the first one', () => {
    const context = { links: new LinkBuilder('http://h', 'http://s', 'api'), path: '/api/units/', query: { page: '2', page_size: '1' } };
    const envelope = listEnvelope(context, resolvePage({ page: 2, size: 1 }, 3), 3, ['b']);
    expect(envelope).toEqual({
      count: 3,
      next: 'http://h/api/units/?format=api&page=3&page_size=1',
      previous: 'http://h/api/units/?format=api&page_size=1',
      results: ['b'],
    });
  });
});
