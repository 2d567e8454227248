import type { DataSource } from 'typeorm';
import type { ApiError } from '../http/api-errors';
import type { RequestContext } from '../http/request-context';
import { anyOf, enforceCheckOrder } from './check-order';

/** A caller holding `permissions` on a path object that was found (scopeFound) or not. */
function context(permissions: string[], scopeFound = true): RequestContext {
  return { scopeFound, can: (code: string) => permissions.includes(code) } as unknown as RequestContext;
}

const noDatabase = {} as DataSource;

/** The status and body the request would be answered with, or null when the checks let it through. */
async function answer(ctx: RequestContext, rule: Parameters<typeof enforceCheckOrder>[3]): Promise<{ status: number; body: unknown } | null> {
  try {
    await enforceCheckOrder(noDatabase, ctx, {}, rule);
    return null;
  } catch (error) {
    const refused = error as ApiError;
    return { status: refused.getStatus(), body: refused.getResponse() };
  }
}

describe('anyOf', () => {
  it('holds when the caller has at least one of the codes', () => {
    const write = anyOf('unit.edit', 'source.edit');
    expect(typeof write === 'function' && write(context(['source.edit']), {})).toBe(true);
    expect(typeof write === 'function' && write(context(['unit.edit']), {})).toBe(true);
    expect(typeof write === 'function' && write(context(['unit.review', 'vcs.view']), {})).toBe(false);
  });
});

describe('enforceCheckOrder with a scope object', () => {
  const rule = { object: 'scope' as const, permission: anyOf('vcs.commit', 'vcs.push') };

  it('answers 404 for an object not found before looking at the permission', async () => {
    expect(await answer(context([], false), rule)).toEqual({ status: 404, body: { detail: 'Not found.' } });
  });

  it('answers 403 with DRF’s default text without any of the rights, and lets the request through with one', async () => {
    expect(await answer(context(['vcs.view']), rule)).toEqual({ status: 403, body: { detail: 'You do not have permission to perform this action.' } });
    expect(await answer(context(['vcs.push']), rule)).toBeNull();
  });
});
