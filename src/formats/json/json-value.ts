// An order-preserving JSON tree. `JSON.parse` moves integer-like keys ("10") to the front of an object,
// while Python keeps insertion order (languages-formats-hashing.md §2.2 "JS pitfalls"); a Map does not.

export interface JsonObject {
  type: 'object';
  /** Insertion order; setting an existing key keeps its place, like a Python dict. */
  members: Map<string, JsonValue>;
}

export interface JsonArray {
  type: 'array';
  items: JsonValue[];
}

export interface JsonString {
  type: 'string';
  value: string;
}

export interface JsonNumber {
  type: 'number';
  /** The literal text (`1.50`, `-0`, `1e999`, `Infinity`); kept as text so large integers stay exact. */
  text: string;
}

export interface JsonBoolean {
  type: 'boolean';
  value: boolean;
}

export interface JsonNull {
  type: 'null';
}

export type JsonValue = JsonObject | JsonArray | JsonString | JsonNumber | JsonBoolean | JsonNull;
