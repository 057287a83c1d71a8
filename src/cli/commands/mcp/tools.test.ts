import { describe, expect, it } from 'vitest';
import { fieldsOf, optionsOfCall, servable, stdinOfCall, toolSpecs } from './tools.js';
import { verbs as numberVerbs } from '../numbers/index.js';
import { verbs as emailVerbs } from '../emails/index.js';

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

// A path on this machine is never a tool's field: the file's text stands for it, given to the verb
// as standard input, or the flag is left out.
describe('tool fields for a file a verb reads', () => {
  it('emails send: --html-file is `html` (read as -), --text-file is left out (--text says it)', async () => {
    const send = emailVerbs.find((v) => v.name === 'send')!;
    const spec = toolSpecs([{ group: 'emails', path: ['send'], verb: send }], { readOnly: false })[0]!;
    const keys = spec.fields.map((f) => f.key);
    expect(keys).toContain('html');
    expect(keys).toContain('text');
    expect(keys).not.toContain('htmlFile');
    expect(keys).not.toContain('textFile');
    const args = { from: 'a@send.example.com', to: 'b@example.org', subject: 'Hi', html: '<p>hi</p>' };
    expect(optionsOfCall(spec, args)).toMatchObject({ htmlFile: '-' });
    expect(optionsOfCall(spec, args).html).toBeUndefined();
    expect(stdinOfCall(spec, args)).toBe('<p>hi</p>');
    expect(stdinOfCall(spec, { ...args, html: undefined })).toBeUndefined();
  });

  it('a verb whose required input is a path with no text to stand for it is no tool (numbers greeting <file>)', () => {
    const greeting = numberVerbs.find((v) => v.name === 'greeting')!;
    expect(servable(greeting)).toBe(false);
    expect(servable(numberVerbs.find((v) => v.name === 'verify-tollfree')!)).toBe(true);
    expect(fieldsOf(numberVerbs.find((v) => v.name === 'verify-tollfree')!).map((f) => f.key)).not.toEqual(expect.arrayContaining(['answers']));
  });
});
