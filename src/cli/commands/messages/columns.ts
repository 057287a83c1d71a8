import type { ColumnDef } from '../../../output/columns.js';

// The columns of messages in lists (messages list, a piped thread) and the fields a single message
// shows first. One place, shared by the messages, conversations and trigger commands.
// On a narrow terminal (output/table.ts GIVE_WAY) the body is cut last, then when it was sent and to
// whom; the segment count and the direction go first.
export const MESSAGE_LIST_COLUMNS: ColumnDef[] = [
  'id',
  { field: 'direction', keep: 12 },
  { field: 'from', keep: 42 },
  { field: 'to', keep: 44 },
  'status',
  { field: 'segments', keep: 11 },
  { field: 'createdAt', keep: 46 },
  'body',
];
export const MESSAGE_COLUMNS = ['id', 'status', 'reason', 'direction', 'from', 'to', 'body', 'channel', 'segments', 'media', 'createdAt'];
