import { RouteTable } from './route-table';

describe('RouteTable', () => {
  const table = new RouteTable();
  table.add('/api/components/:project/:component/', 'GET');
  table.add('/api/components/:project/:component/', 'PATCH');
  table.add('/api/components/:project/:component/', 'DELETE');
  table.add('/api/components/:project/:component/', 'PUT');
  table.add('/api/translations/:p/:c/:l/units', 'POST');
  table.add('/api/translations/:p/:c/:l/units', 'GET');
  table.add('/api/units/:id/', 'GET');
  table.add('/api/units/search/', 'POST');

  it('lists methods in DRF order with HEAD after GET and OPTIONS last', () => {
    expect(table.match('/api/components/demo/app/')?.allow).toBe('GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
    expect(table.match('/api/translations/demo/app/cs/units/')?.allow).toBe('GET, POST, HEAD, OPTIONS');
  });

  it('accepts a missing trailing slash and rejects extra segments', () => {
    expect(table.match('/api/components/demo/app')).toBeDefined();
    expect(table.match('/api/components/demo/app/x/')).toBeUndefined();
    expect(table.match('/api/components/demo/')).toBeUndefined();
  });

  it('matches exactly: case-sensitive, no empty or dot segments, no encoded slash in a static segment (issue 10 item 4)', () => {
    for (const path of ['/API/units/12/', '/api/Units/12/', '/api//units/12/', '//api/units/12/', '/api/units/12//', '/api%2Funits/12/', '/api/./units/12/', '/%61pi/units/12/']) {
      expect({ path, match: table.match(path) }).toEqual({ path, match: undefined });
    }
  });

  it('refuses parameters that do not decode, hold NUL, or are dot segments', () => {
    for (const path of ['/api/units/%00/', '/api/units/1%00/', '/api/units/%E0%A4/', '/api/units/%/', '/api/units/./', '/api/units/%2e%2E/']) {
      expect({ path, match: table.match(path) }).toEqual({ path, match: undefined });
    }
    expect(table.match('/api/components/a%2Fb/c%20d/')).toBeDefined();
  });

  it('prefers static segments over parameters', () => {
    expect(table.match('/api/units/search/')?.allow).toBe('POST, OPTIONS');
    expect(table.match('/api/units/12/')?.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('answers whether a method is allowed', () => {
    const match = table.match('/api/units/12/');
    expect(match?.allows('head')).toBe(true);
    expect(match?.allows('POST')).toBe(false);
  });

  it("gives the path's parameters decoded, as Express's router does, in a new object per call", () => {
    const found = table.resolve('/api/components/de%20mo/a%2Fb');
    expect(found?.route.pattern).toBe('/api/components/:project/:component/');
    const params = found?.params();
    expect(params).toEqual({ project: 'de mo', component: 'a/b' });
    expect(found?.params()).not.toBe(params);
    expect(table.resolve('/api/units/search/')?.params()).toEqual({});
  });
});
