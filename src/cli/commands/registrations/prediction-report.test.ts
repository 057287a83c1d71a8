import { describe, expect, it } from 'vitest';
import { predictionLines } from './prediction-report.js';

// The prediction's columns line up whatever the lengths of the check ids.

const check = (id: string, label: string, passed: boolean) => ({ id, label, passed, suggestion: passed ? null : `fix ${id}` });

describe('predictionLines', () => {
  it('puts every label in one column and every suggestion under the id column', () => {
    const lines = predictionLines({
      score: 90,
      band: 'high',
      checks: [check('samples.brand_name', 'Sample messages name the brand', true), check('links.terms', 'Terms link present', false), check('content.shaft', 'No SHAFT', true)],
      suggestions: ['fix links.terms'],
    });
    expect(lines).toEqual([
      'pass  samples.brand_name  Sample messages name the brand',
      'fail  links.terms         Terms link present',
      '      suggestion: fix links.terms',
      'pass  content.shaft       No SHAFT',
      'score 90/100, approval high: 2 of 3 checks pass',
    ]);
    const labelColumns = new Set(lines.filter((l) => /^(pass|fail)  /.test(l)).map((l) => l.search(/  [A-Z]/)));
    expect(labelColumns.size).toBe(1);
  });
});
