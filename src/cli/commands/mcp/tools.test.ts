import { describe, expect, it } from 'vitest';
import { fieldsOf, optionsOfCall, toolSpecs } from './tools.js';
import { verbs as numberVerbs } from '../numbers/index.js';

// A switch with its negation beside it (`--emergency` / `--no-emergency`) is one field with no
// default: a tool call that leaves it out must not turn the setting on or off.
describe('tool fields from a verb', () => {
  const update = numberVerbs.find((v) => v.name === 'update')!;
  const spec = toolSpecs([{ group: 'numbers', path: ['update'], verb: update }], { readOnly: false })[0]!;

  it('one boolean field for a flag and its --no- form', () => {
    const emergency = fieldsOf(update).filter((f) => f.key === 'emergency');
    expect(emergency).toHaveLength(1);
    expect(emergency[0]!.type).toBe('boolean');
  });

  it('left out, it stays undefined; given, it is the value', () => {
    expect(optionsOfCall(spec, { number: 'num_1', label: 'x' }).emergency).toBeUndefined();
    expect(optionsOfCall(spec, { number: 'num_1', emergency: false }).emergency).toBe(false);
  });
});
