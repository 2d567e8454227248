import type { StoreUnit, StoreWriteContext, UnitWrite } from '../store';

// Shared by the JSON family specs: full expected units and write contexts.

export function expectedUnit(fields: Partial<StoreUnit> & Pick<StoreUnit, 'context' | 'target' | 'position' | 'line'>): StoreUnit {
  return { source: [], plural: false, note: '', location: '', flags: '', previousSource: '', fuzzy: false, approved: false, readOnly: false, ...fields };
}

export function writeContext(languageCode: string, number: number, template?: string): StoreWriteContext {
  return { languageCode, plural: { number, formula: 'n != 1' }, template: template === undefined ? null : Buffer.from(template, 'utf8') };
}

export function update(context: string, ...target: string[]): UnitWrite {
  return { context, source: [], target, state: target.every((form) => form === '') ? 'empty' : 'translated' };
}
