// The depth count of the body parser reads JSON text: brackets inside strings (escaped quotes
// included) are not nesting, and it stops as soon as the limit is passed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonDepth } from '../../api/http/json-body.ts';

test('arrays and objects count as levels; scalars do not', () => {
  assert.equal(jsonDepth('1'), 0);
  assert.equal(jsonDepth('{}'), 1);
  assert.equal(jsonDepth('[[], {"a": [1, {"b": 2}]}]'), 4);
});

test('brackets inside strings, after escaped quotes and backslashes, are text', () => {
  assert.equal(jsonDepth('{"a": "[[[{{{"}'), 1);
  assert.equal(jsonDepth('{"a": "\\"[[[", "b": "\\\\"}'), 1);
  assert.equal(jsonDepth('["\\\\", [["x"]]]'), 3);
});

test('stops counting once past the limit', () => {
  assert.equal(jsonDepth('['.repeat(1_000_000), 64), 65);
});
