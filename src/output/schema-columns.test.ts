import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { schemaColumns } from './schema-columns.js';
import { flattenRecord } from './flatten.js';
import { PhoneNumberSchema } from '../api/schemas/numbers.js';

// schemaColumns reads the JSON Schema the build renders (scripts/render-response-schemas.mjs).
const rendered = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'output' }) as Record<string, unknown>;

describe('schemaColumns', () => {
  it('gives the dotted leaves of nested, nullable and optional objects; arrays and scalars are one column', () => {
    const schema = z.object({
      id: z.string(),
      tags: z.array(z.string()),
      route: z.object({ kind: z.string(), target: z.object({ uri: z.string() }).optional() }).nullable(),
      when: z.iso.datetime(),
      empty: z.object({}),
      either: z.union([z.object({ a: z.string() }), z.string()]),
    });
    expect(schemaColumns(rendered(schema))).toEqual(['id', 'tags', 'route.kind', 'route.target.uri', 'when', 'empty', 'either']);
    expect(schemaColumns(rendered(z.string()))).toEqual([]);
  });

  it('covers every key a full phone number flattens to (emergency address, street2 included)', () => {
    const columns = schemaColumns(rendered(PhoneNumberSchema));
    expect(columns).toEqual(expect.arrayContaining(['emergency.address.street', 'emergency.address.street2', 'emergency.address.zip', 'route.kind', 'capabilities.sms', 'callerIdName.name']));
    const full = {
      id: 'num_1', phoneNumber: '+14155550100', label: 'x', route: { kind: 'forward', label: 'y' }, status: 'live', type: 'local',
      capabilities: { sms: true, mms: true, voice: true }, campaignId: null, campaignName: null, callerIdName: { name: null, status: 'off' },
      emergency: { enabled: true, address: { street: 's', street2: 's2', city: 'c', state: 'CA', zip: '94105' }, status: 'active' },
      tfvStatus: 'not_applicable', tfvRejectionReason: null, releasedAt: null, locality: null, region: null, createdAt: '2025-01-01T00:00:00.000Z',
    };
    expect(PhoneNumberSchema.parse(full)).toBeTruthy();
    expect(Object.keys(flattenRecord(full)).sort()).toEqual([...columns].sort());
  });
});
