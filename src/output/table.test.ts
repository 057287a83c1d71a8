import { describe, expect, it } from 'vitest';
import { printList } from './formatters.js';
import { createTestIO } from './io.js';
import { columnKind, fitColumnWidths } from './table.js';

const now = new Date('2025-05-01T12:00:00.000Z');
const MESSAGE_COLUMNS = ['id', 'direction', 'from', 'to', 'status', 'segments', 'createdAt', 'body'];
const messages = [
  { id: 'msg_8Hq2xLw0PzR4kT7vN1cY', direction: 'outbound', from: '+14155550100', to: '+14155550123', status: 'delivered', segments: 1, createdAt: '2025-05-01T11:57:00.000Z', body: 'Your table for four is ready: come to the front desk and show this message' },
  { id: 'msg_3Fz9pQe5WmB2dJ6sK0aR', direction: 'inbound', from: '+442071838750', to: '+14155550100', status: 'received', segments: 2, createdAt: '2025-05-01T10:00:00.000Z', body: 'Thanks! On our way, see you in ten minutes or so' },
];

/** The cells of the table's data rows (between the header separator and the bottom border). */
function dataCells(out: string): string[][] {
  return out
    .split('\n')
    .filter((line) => line.startsWith('│'))
    .slice(1)
    .map((line) => line.split('│').slice(1, -1).map((cell) => cell.trim()));
}

describe('tables on an 80-column terminal', () => {
  it('never cut ids or phone numbers; the message body gives up its space', async () => {
    const io = createTestIO({ stdoutTTY: true, columns: 110 });
    await printList(io, messages, { columns: MESSAGE_COLUMNS, now });
    const rows = dataCells(io.out());
    expect(rows).toHaveLength(2);
    for (const [i, m] of messages.entries()) {
      expect(rows[i]![0]).toBe(m.id);
      expect(rows[i]![2]).toBe(m.from);
      expect(rows[i]![3]).toBe(m.to);
      expect(rows[i]![7]).toMatch(/…$/);
    }
    expect(io.out()).not.toMatch(/\+1415…/);
    expect(io.err()).toBe('');
  });

  it('too narrow even when shrunk: the rightmost columns are left out (said on stderr), never wrapped', async () => {
    const io = createTestIO({ stdoutTTY: true, columns: 80 });
    await printList(io, messages, { columns: MESSAGE_COLUMNS, now });
    for (const line of io.out().trimEnd().split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
    const header = io.out().split('\n')[1]!;
    expect(header.split('│').slice(1, -1).map((cell) => cell.trim())).toEqual(['id', 'direct…', 'from', 'to', 'status']);
    const rows = dataCells(io.out());
    expect(rows.map((row) => [row[0], row[2], row[3]])).toEqual(messages.map((m) => [m.id, m.from, m.to]));
    expect(io.err()).toBe('note: segments, createdAt, body left out to fit 80 columns (a wider terminal, or -o json, shows them)\n');
  });

  it('-o table into a pipe keeps every column (no terminal to wrap)', async () => {
    const io = createTestIO({ stdoutTTY: false, columns: 80 });
    await printList(io, messages, { columns: MESSAGE_COLUMNS, now, format: 'table' });
    expect(io.out()).toContain('body');
    expect(io.err()).toBe('');
  });

  it('shrink free text first: short columns keep their width while the body can give', async () => {
    const io = createTestIO({ stdoutTTY: true, columns: 120 });
    await printList(io, messages, { columns: MESSAGE_COLUMNS, now });
    const [first, second] = dataCells(io.out());
    expect(first!.slice(0, 7)).toEqual(['msg_8Hq2xLw0PzR4kT7vN1cY', 'outbound', '+14155550100', '+14155550123', 'delivered', '1', '3m ago']);
    expect(second!.slice(0, 7)).toEqual(['msg_3Fz9pQe5WmB2dJ6sK0aR', 'inbound', '+442071838750', '+14155550100', 'received', '2', '2h ago']);
    expect(first![7]).toMatch(/^Your table.*…$/);
    for (const line of io.out().trimEnd().split('\n')) expect([...line].length).toBe(120);
  });
});

describe('columnKind and fitColumnWidths', () => {
  it('tells identifiers, free text and the rest apart', () => {
    expect(columnKind('id', ['x'])).toBe('identifier');
    expect(columnKind('lastMessageId', ['msg_8Hq2xLw0PzR4kT7vN1cY'])).toBe('identifier');
    expect(columnKind('counterparty', ['+14155550123', null])).toBe('identifier');
    expect(columnKind('subaccount', ['5f0c2d9e-1b2c-4d5e-8f90-123456789abc'])).toBe('identifier');
    expect(columnKind('body', ['ok'])).toBe('text');
    expect(columnKind('note', ['two words'])).toBe('text');
    expect(columnKind('tfvStatus', ['not_applicable'])).toBe('other');
    expect(columnKind('createdAt', ['2025-05-01T11:57:00.000Z'])).toBe('other');
  });

  it('takes from text before other columns and never from identifiers', () => {
    const headers = ['id', 'code', 'note'];
    const cells = [['num_0123456789abcdefghij', 'x'.repeat(29), 'short note here']];
    // id 26, code 31, note 17 (with padding) + 4 borders = 78.
    const kinds = ['identifier', 'other', 'text'] as const;
    expect(fitColumnWidths(headers, cells, 70, kinds)).toEqual([26, 31, 9]);
    expect(fitColumnWidths(headers, cells, 60, kinds)).toEqual([26, 22, 8]);
    expect(fitColumnWidths(headers, cells, 40, kinds)).toEqual([26, 8, 8]);
  });
});
