import type { PathPart, UnitValueType } from '../format';
import type { JsonValue } from './json-value';
import { pythonNumberText } from './python-number';

export interface JsonLeaf {
  path: PathPart[];
  valueType: UnitValueType;
  /** The leaf as Weblate's unit source: null -> "", numbers via Python str(), booleans True/False. */
  source: string;
}

// Every non-container value is one unit, in document order; empty objects/arrays and a top-level
// scalar give no unit (languages-formats-hashing.md §2.1).
export function flattenJson(root: JsonValue): JsonLeaf[] {
  const leaves: JsonLeaf[] = [];
  const visit = (value: JsonValue, path: PathPart[]): void => {
    switch (value.type) {
      // concat rather than spread: V8 gives spread arrays spare capacity, twice the memory over a large file.
      case 'object':
        value.members.forEach((member, key) => visit(member, path.concat({ key })));
        return;
      case 'array':
        value.items.forEach((item, index) => visit(item, path.concat({ index })));
        return;
      case 'string':
        leaves.push({ path, valueType: 'string', source: value.value });
        return;
      case 'number':
        leaves.push({ path, valueType: 'number', source: pythonNumberText(value.text) });
        return;
      case 'boolean':
        // Python spelling, because the source is str(True) (§2.1).
        leaves.push({ path, valueType: 'boolean', source: value.value ? 'True' : 'False' });
        return;
      case 'null':
        leaves.push({ path, valueType: 'null', source: '' });
        return;
    }
  };
  if (root.type === 'object' || root.type === 'array') visit(root, []);
  return leaves;
}
