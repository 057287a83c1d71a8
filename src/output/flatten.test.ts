import { describe, expect, it } from 'vitest';
import { columnsFor, createRowPlacer, expandColumns, flattenRecord } from './flatten.js';

describe('flattenRecord', () => {
  it('turns nested objects into dotted keys', () => {
    expect(flattenRecord({ id: 'n1', route: { kind: 'sip', target: { uri: 'sip:a@b' } } })).toEqual({
      id: 'n1',
      'route.kind': 'sip',
      'route.target.uri': 'sip:a@b',
    });
  });

  it('joins arrays of scalars with commas', () => {
    expect(flattenRecord({ tags: ['a', 'b', 3, true], empty: [] })).toEqual({ tags: 'a,b,3,true', empty: '' });
  });

  it('writes arrays holding objects as JSON', () => {
    const flat = flattenRecord({ details: [{ path: 'to', message: 'bad' }], grid: [[1, 2]] });
    expect(flat.details).toBe('[{"path":"to","message":"bad"}]');
    expect(flat.grid).toBe('[[1,2]]');
  });

  it('keeps null as null and drops undefined', () => {
    expect(flattenRecord({ a: null, b: undefined, c: { d: null } })).toEqual({ a: null, 'c.d': null });
  });

  it('keeps numbers and booleans, and an empty object as an empty column', () => {
    expect(flattenRecord({ n: 1.5, ok: false, meta: {} })).toEqual({ n: 1.5, ok: false, meta: null });
  });

  it('never produces [object Object], whatever the shape', () => {
    const nasty = {
      a: [{ x: 1 }, 'y', null],
      b: { c: [{ d: { e: [] } }] },
      when: new Date('2024-01-02T03:04:05.000Z'),
      big: 10n,
      map: new Map([['k', 'v']]),
      deep: { deeper: { deepest: { value: [{}] } } },
    };
    const flat = flattenRecord(nasty);
    for (const value of Object.values(flat)) expect(String(value)).not.toContain('[object Object]');
    expect(flat.when).toBe('2024-01-02T03:04:05.000Z');
    expect(flat.big).toBe('10');
    expect(flat['deep.deeper.deepest.value']).toBe('[{}]');
  });
});

describe('columnsFor', () => {
  it('is the union of keys in first-seen order', () => {
    const rows = [flattenRecord({ id: 1, name: 'a' }), flattenRecord({ id: 2, extra: true, route: { kind: 'x' } })];
    expect(columnsFor(rows)).toEqual(['id', 'name', 'extra', 'route.kind']);
  });

  it('puts preferred columns first and expands a nested object name to its children', () => {
    const rows = [flattenRecord({ id: 1, name: 'a', route: { kind: 'sip', target: 't' } })];
    expect(columnsFor(rows, ['route', 'name'])).toEqual(['route.kind', 'route.target', 'name', 'id']);
  });

  it('shows an object that is null in some rows only as its dotted children', () => {
    const rows = [flattenRecord({ id: 1, route: null }), flattenRecord({ id: 2, route: { kind: 'sip' } })];
    expect(columnsFor(rows)).toEqual(['id', 'route.kind']);
    expect(expandColumns(rows, ['route'])).toEqual(['route.kind']);
  });

  it('keeps a requested column no row has, so positions stay stable', () => {
    expect(expandColumns([flattenRecord({ id: 1 })], ['id', 'missing'])).toEqual(['id', 'missing']);
  });
});

describe('createRowPlacer', () => {
  const place = (columns: string[], row: object) => createRowPlacer(columns)(row, flattenRecord(row));

  it('puts a sub-object under a column into it as compact JSON, from the original row', () => {
    const row = { id: 'n2', route: { kind: 'forward', tags: ['a', 'b'] } };
    expect(place(['id', 'route'], row)).toEqual({ cells: ['n2', '{"kind":"forward","tags":["a","b"]}'], unplaced: [] });
  });

  it('follows keys that hold dots themselves', () => {
    const row = { 'a.b': { c: 1, d: 2 } };
    expect(place(['a.b'], row).cells).toEqual(['{"c":1,"d":2}']);
  });

  it('leaves the columns under a null empty, and names keys nothing holds', () => {
    const row = { id: 'n1', route: null, late: 'x', gone: null };
    expect(place(['id', 'route.kind', 'route.label'], row)).toEqual({ cells: ['n1', undefined, undefined], unplaced: ['late'] });
  });
});
