import type { Response } from 'supertest';

/** The headers every API response carries (api-spec.md rules 2 and 4). */
export function expectApiHeaders(response: Response, allow: string): void {
  expect(response.headers['content-type']).toBe('application/json');
  expect(response.headers['vary']).toBe('Accept');
  expect(response.headers['allow']).toBe(allow);
}

/** Absolute API link with the format parameter, as every emitted link is (spec rule 3). */
export function apiLink(origin: string, path: string): string {
  return `${origin}${path}?format=api`;
}

export const authHeader = (token: string): [string, string] => ['Authorization', `Token ${token}`];
