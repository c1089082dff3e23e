import assert from 'node:assert/strict';
import { test } from 'node:test';
import { add, divide } from '../src/calculator.js';

test('adds', () => assert.equal(add(2, 3), 5));
test('refuses to divide by zero', () => assert.throws(() => divide(1, 0), RangeError));
